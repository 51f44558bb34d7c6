/**
 * Per-session switches: a database or a feature turned off for one session only, and how that
 * combines with the config and the kill switch. Precedence: `DOCSEARCH_HOOK_DISABLED` > config
 * (`enabled: false`, `capture.enabled`, `context.enabled`) > session switch > on.
 */
import type { Config, Database } from "../config/types.ts";
import type { Env } from "../paths.ts";

const KILL_SWITCH_ON = new Set(["1", "true", "yes", "on"]);

/** `DOCSEARCH_HOOK_DISABLED=1` (or true/yes/on) turns every hook action into a silent allow. */
export function killSwitchOn(env: Env): boolean {
  return KILL_SWITCH_ON.has(env("DOCSEARCH_HOOK_DISABLED")?.trim().toLowerCase() ?? "");
}

export const FEATURES = ["redirect", "capture", "context", "all"] as const;
export type Feature = typeof FEATURES[number];

export const FEATURE_DESCRIPTIONS: Record<Feature, string> = {
  redirect: "deny web searches that local docs cover and point to them",
  capture: "record what happens in the session (log, stats)",
  context: "tell the agent about local docs at session start and on prompts that mention them",
  all: "everything docsearch-hook does in this session",
};

export interface SessionSwitches {
  /** Features switched off for the session. */
  features: Feature[];
  /** Databases switched off for the session, by name as configured. */
  databases: string[];
}

export const NO_SWITCHES: SessionSwitches = { features: [], databases: [] };

const isFeature = (value: unknown): value is Feature => FEATURES.includes(value as Feature);

/** The stored form (a JSON column); anything unreadable counts as no switches rather than failing the hook. */
export function parseSwitches(text: string | null | undefined): SessionSwitches {
  if (!text) return NO_SWITCHES;
  try {
    const value = JSON.parse(text) as Partial<SessionSwitches>;
    return {
      features: Array.isArray(value.features) ? value.features.filter(isFeature) : [],
      databases: Array.isArray(value.databases)
        ? value.databases.filter((name): name is string => typeof name === "string")
        : [],
    };
  } catch {
    return NO_SWITCHES;
  }
}

const noneOff = (switches: SessionSwitches) =>
  switches.features.length === 0 && switches.databases.length === 0;

/** Null when nothing is switched off, so an untouched session stores nothing. */
export function serializeSwitches(switches: SessionSwitches): string | null {
  return noneOff(switches) ? null : JSON.stringify(switches);
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export type SwitchTarget = { kind: "feature"; name: Feature } | { kind: "database"; database: Database };

/** Why the config keeps a target off for every session, or undefined. */
export function configOff(target: SwitchTarget, config: Config): string | undefined {
  if (target.kind === "database") {
    return target.database.enabled ? undefined : `"enabled": false in ${target.database.source}`;
  }
  if (target.name === "capture" && !config.capture.enabled) return '"capture.enabled": false in the config';
  if (target.name === "context" && !config.context.enabled) return '"context.enabled": false in the config';
  return undefined;
}

/** Whether this session's own switch turns the target off (not counting `all`). */
export function sessionOff(target: SwitchTarget, switches: SessionSwitches): boolean {
  return target.kind === "feature"
    ? switches.features.includes(target.name)
    : switches.databases.some((name) => sameName(name, target.database.name));
}

/** Why the target is off in this session, in order of precedence; undefined when it is on. */
export function offReason(
  target: SwitchTarget,
  config: Config,
  switches: SessionSwitches,
  killSwitch: boolean,
): string | undefined {
  if (killSwitch) return "DOCSEARCH_HOOK_DISABLED is set";
  const permanent = configOff(target, config);
  if (permanent !== undefined) return permanent;
  if (sessionOff(target, switches)) return "switched off for this session";
  if (switches.features.includes("all")) return '"all" is switched off for this session';
  return undefined;
}

/** The config as one session sees it: switched-off databases disabled, capture and context as switched. */
export interface SessionView {
  config: Config;
  redirect: boolean;
}

export function sessionView(config: Config, switches: SessionSwitches): SessionView {
  if (noneOff(switches)) return { config, redirect: true };
  const on = (target: SwitchTarget) => offReason(target, config, switches, false) === undefined;
  return {
    config: {
      ...config,
      databases: config.databases.map((database) =>
        database.enabled && !on({ kind: "database", database }) ? { ...database, enabled: false } : database
      ),
      capture: { ...config.capture, enabled: on({ kind: "feature", name: "capture" }) },
      context: { ...config.context, enabled: on({ kind: "feature", name: "context" }) },
    },
    redirect: on({ kind: "feature", name: "redirect" }),
  };
}

export type SwitchChange =
  | { outcome: "changed"; switches: SessionSwitches }
  /** Already as asked for: off by the session's own switch, or on. */
  | { outcome: "already" }
  /** The config keeps it off for every session; a session switch cannot turn it on. */
  | { outcome: "config-off"; why: string }
  /** Not switched off on its own, but `all` is. */
  | { outcome: "under-all" };

/** Turns one target off (`on` false) or back on for a session. Enabling `all` clears every switch. */
export function changeSwitch(
  switches: SessionSwitches,
  target: SwitchTarget,
  on: boolean,
  config: Config,
): SwitchChange {
  const permanent = configOff(target, config);
  if (on && target.kind === "feature" && target.name === "all") {
    return noneOff(switches) ? { outcome: "already" } : { outcome: "changed", switches: NO_SWITCHES };
  }
  const current = sessionOff(target, switches);
  if (on) {
    if (permanent !== undefined) return { outcome: "config-off", why: permanent };
    if (!current) {
      return switches.features.includes("all") ? { outcome: "under-all" } : { outcome: "already" };
    }
    return {
      outcome: "changed",
      switches: target.kind === "feature"
        ? { ...switches, features: switches.features.filter((f) => f !== target.name) }
        : { ...switches, databases: switches.databases.filter((n) => !sameName(n, target.database.name)) },
    };
  }
  if (current) return { outcome: "already" };
  if (permanent !== undefined) return { outcome: "config-off", why: permanent };
  return {
    outcome: "changed",
    switches: target.kind === "feature"
      ? { ...switches, features: [...switches.features, target.name] }
      : { ...switches, databases: [...switches.databases, target.database.name] },
  };
}
