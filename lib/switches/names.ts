/**
 * Which switch a user means, matched fuzzily: an exact name or keyword first; else the one
 * target whose name or keyword contains what was typed; several are listed, none lists everything.
 */
import type { Config } from "../config/types.ts";
import { FEATURE_DESCRIPTIONS, FEATURES, type SwitchTarget } from "./switches.ts";

export interface Candidate {
  target: SwitchTarget;
  name: string;
  /** Other words that name it: a database's keywords. */
  aliases: string[];
  description: string;
}

export type Resolution =
  | { kind: "found"; candidate: Candidate }
  | { kind: "ambiguous"; candidates: Candidate[] }
  | { kind: "none" };

/** Features first, then every configured database (also those the config keeps off, to explain why). */
export function switchCandidates(config: Config): Candidate[] {
  return [
    ...FEATURES.map((name): Candidate => ({
      target: { kind: "feature", name },
      name,
      aliases: [],
      description: FEATURE_DESCRIPTIONS[name],
    })),
    ...config.databases.map((database): Candidate => ({
      target: { kind: "database", database },
      name: database.name,
      aliases: database.keywords,
      description: database.description,
    })),
  ];
}

function only(candidates: Candidate[]): Resolution | undefined {
  if (candidates.length === 1) return { kind: "found", candidate: candidates[0] };
  if (candidates.length > 1) return { kind: "ambiguous", candidates };
  return undefined;
}

export function resolveSwitch(input: string, candidates: readonly Candidate[]): Resolution {
  const wanted = input.trim().toLowerCase();
  if (wanted === "") return { kind: "none" };
  const words = (c: Candidate) => [c.name, ...c.aliases].map((w) => w.toLowerCase());
  const named = candidates.filter((c) => c.name.toLowerCase() === wanted);
  // A database named like a feature yields to it; it can still be named by any of its keywords.
  const exact = named.length > 1 ? named.filter((c) => c.target.kind === "feature") : named;
  return only(exact) ??
    only(candidates.filter((c) => words(c).includes(wanted))) ??
    only(candidates.filter((c) => words(c).some((w) => w.includes(wanted)))) ??
    { kind: "none" };
}
