/** Per-session switches as pure functions: name resolution, precedence, changes and the session's view. */
import { deepStrictEqual as assertEquals, equal, ok } from "node:assert/strict";
import type { Config } from "../lib/config/types.ts";
import { type Candidate, resolveSwitch, switchCandidates } from "../lib/switches/names.ts";
import {
  changeSwitch,
  killSwitchOn,
  NO_SWITCHES,
  offReason,
  parseSwitches,
  serializeSwitches,
  type SessionSwitches,
  sessionView,
} from "../lib/switches/switches.ts";
import { config, database } from "./helpers.ts";

const gitlab = database({ name: "gitlab", keywords: ["gitlab", "gitlab-ci", "gitlab runner"] });
const k8s = database({ name: "kubernetes", keywords: ["kubernetes", "k8s", "kubectl"] });
const legacy = database({
  name: "legacy",
  keywords: ["cobol"],
  enabled: false,
  source: "/p/.claude/docsearch.json",
});
const base = config([gitlab, k8s, legacy]);
const candidates = switchCandidates(base);

/** The original Python hook's databases, as plain named candidates. */
const seedCandidates: Candidate[] = ["typecheck-changed", "lint-changed", "check-todos"].map((name) => ({
  target: { kind: "feature", name: "redirect" },
  name,
  aliases: [],
  description: name,
}));

const found = (input: string, list: readonly Candidate[] = candidates) => {
  const resolution = resolveSwitch(input, list);
  return resolution.kind === "found" ? resolution.candidate.name : resolution.kind;
};
const ambiguous = (input: string, list: readonly Candidate[] = candidates) => {
  const resolution = resolveSwitch(input, list);
  return resolution.kind === "ambiguous" ? resolution.candidates.map((c) => c.name) : resolution.kind;
};

Deno.test("resolver: the original hook's cases", () => {
  equal(found("typecheck-changed", seedCandidates), "typecheck-changed");
  equal(found("typecheck", seedCandidates), "typecheck-changed");
  assertEquals(ambiguous("check", seedCandidates), ["typecheck-changed", "check-todos"]);
  equal(found("typechk", seedCandidates), "none");
});

Deno.test("resolver: exact names and keywords first, case-insensitive, then one partial match", () => {
  equal(found("redirect"), "redirect");
  equal(found("REDIRECT"), "redirect");
  equal(found("  gitlab "), "gitlab");
  equal(found("kubectl"), "kubernetes");
  equal(found("k8s"), "kubernetes");
  equal(found("runner"), "gitlab");
  equal(found("redir"), "redirect");
  equal(found("cobol"), "legacy");
  equal(found("capt"), "capture");
  equal(found("nothing-like-it"), "none");
  equal(found(""), "none");
  equal(found("   "), "none");
});

Deno.test("resolver: an exact match wins over partial ones, several partial ones are listed", () => {
  // "all" is exactly a feature and part of no other name or keyword.
  equal(found("all"), "all");
  // "git" is inside gitlab's name and keywords only: one target, taken.
  equal(found("git"), "gitlab");
  assertEquals(ambiguous("c"), ["redirect", "capture", "context", "gitlab", "kubernetes", "legacy"]);
  assertEquals(ambiguous("t"), ["redirect", "capture", "context", "gitlab", "kubernetes"]);
});

Deno.test("resolver: a keyword two databases share is ambiguous, the database's own name is not", () => {
  const a = database({ name: "docs-a", keywords: ["shared"] });
  const b = database({ name: "docs-b", keywords: ["shared", "docs-a"] });
  const list = switchCandidates(config([a, b]));
  assertEquals(ambiguous("shared", list), ["docs-a", "docs-b"]);
  // "docs-a" is a's name and b's keyword: the name wins.
  equal(found("docs-a", list), "docs-a");
});

const off = (switches: Partial<SessionSwitches>): SessionSwitches => ({ ...NO_SWITCHES, ...switches });
const feature = (name: "redirect" | "capture" | "context" | "all") => ({ kind: "feature", name }) as const;
const db = (d = gitlab) => ({ kind: "database", database: d }) as const;

Deno.test("precedence: kill switch > config > session switch > all > on", () => {
  const noCapture: Config = { ...base, capture: { ...base.capture, enabled: false } };
  equal(offReason(db(), base, NO_SWITCHES, false), undefined);
  equal(offReason(db(), base, off({ databases: ["GitLab"] }), false), "switched off for this session");
  equal(offReason(db(), base, off({ features: ["all"] }), false), '"all" is switched off for this session');
  equal(
    offReason(db(legacy), base, off({ databases: ["legacy"] }), false),
    '"enabled": false in /p/.claude/docsearch.json',
  );
  equal(
    offReason(feature("capture"), noCapture, off({ features: ["capture"] }), false),
    '"capture.enabled": false in the config',
  );
  equal(offReason(feature("redirect"), base, NO_SWITCHES, true), "DOCSEARCH_HOOK_DISABLED is set");
  equal(offReason(feature("context"), base, off({ features: ["redirect"] }), false), undefined);
});

Deno.test("kill switch: 1, true, yes, on in any case and spacing", () => {
  for (const value of ["1", "true", " Yes ", "ON"]) ok(killSwitchOn(() => value), value);
  for (const value of [undefined, "", "0", "false", "no", "off", "disabled"]) {
    ok(!killSwitchOn(() => value), value);
  }
});

Deno.test("changes: off, already off, back on, not off; all clears everything", () => {
  const first = changeSwitch(NO_SWITCHES, feature("redirect"), false, base);
  assertEquals(first, { outcome: "changed", switches: off({ features: ["redirect"] }) });
  const switches = first.outcome === "changed" ? first.switches : NO_SWITCHES;
  assertEquals(changeSwitch(switches, feature("redirect"), false, base), { outcome: "already" });
  assertEquals(changeSwitch(switches, feature("redirect"), true, base), {
    outcome: "changed",
    switches: NO_SWITCHES,
  });
  assertEquals(changeSwitch(NO_SWITCHES, feature("capture"), true, base), { outcome: "already" });
  const busy = off({ features: ["redirect", "context"], databases: ["gitlab"] });
  assertEquals(changeSwitch(busy, feature("all"), true, base), { outcome: "changed", switches: NO_SWITCHES });
  assertEquals(changeSwitch(NO_SWITCHES, feature("all"), true, base), { outcome: "already" });
});

Deno.test("changes: databases by name in any case; config-off and all-off cannot be switched on", () => {
  const gone = changeSwitch(NO_SWITCHES, db(), false, base);
  assertEquals(gone, { outcome: "changed", switches: off({ databases: ["gitlab"] }) });
  assertEquals(changeSwitch(off({ databases: ["GITLAB"] }), db(), true, base), {
    outcome: "changed",
    switches: NO_SWITCHES,
  });
  assertEquals(changeSwitch(NO_SWITCHES, db(legacy), true, base), {
    outcome: "config-off",
    why: '"enabled": false in /p/.claude/docsearch.json',
  });
  assertEquals(changeSwitch(NO_SWITCHES, db(legacy), false, base).outcome, "config-off");
  assertEquals(changeSwitch(off({ features: ["all"] }), feature("context"), true, base), {
    outcome: "under-all",
  });
  // Under "all" a database can still be switched off on its own (`enable all` then clears both).
  assertEquals(changeSwitch(off({ features: ["all"] }), db(), false, base).outcome, "changed");
});

Deno.test("stored switches: round trip, nothing stored when empty, junk read as none", () => {
  const switches = off({ features: ["capture", "all"], databases: ["gitlab"] });
  assertEquals(parseSwitches(serializeSwitches(switches)), switches);
  equal(serializeSwitches(NO_SWITCHES), null);
  assertEquals(parseSwitches(null), NO_SWITCHES);
  assertEquals(parseSwitches("not json"), NO_SWITCHES);
  assertEquals(parseSwitches('{"features":["redirect","bogus",3],"databases":["a",null]}'), {
    features: ["redirect"],
    databases: ["a"],
  });
});

Deno.test("session view: the config one session sees", () => {
  const plain = sessionView(base, NO_SWITCHES);
  ok(plain.config === base && plain.redirect);
  const view = sessionView(base, off({ features: ["capture", "context"], databases: ["gitlab"] }));
  assertEquals(view.config.databases.map((d) => [d.name, d.enabled]), [["gitlab", false], [
    "kubernetes",
    true,
  ], [
    "legacy",
    false,
  ]]);
  assertEquals([view.redirect, view.config.capture.enabled, view.config.context.enabled], [
    true,
    false,
    false,
  ]);
  const all = sessionView(base, off({ features: ["all"] }));
  assertEquals([all.redirect, all.config.capture.enabled, all.config.context.enabled], [false, false, false]);
  ok(all.config.databases.every((d) => !d.enabled));
  equal(sessionView(base, off({ features: ["redirect"] })).redirect, false);
  // The config itself is never changed.
  ok(base.databases[0].enabled);
});
