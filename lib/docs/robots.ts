/**
 * robots.txt as RFC 9309 reads it: the group for our user agent, else the `*` group; the longest matching
 * rule wins and Allow wins a tie; `*` and a final `$` in paths. Also Crawl-delay and Sitemap lines, which the
 * RFC leaves out but sites use. Pure: text in, a rule set out.
 */

export const USER_AGENT = "docsearch-hook";

interface Rule {
  allow: boolean;
  pattern: PathPattern;
  length: number;
}

export interface Robots {
  allowed(path: string): boolean;
  /** Why nothing is allowed, when robots.txt itself could not be read. */
  blockedBecause?: string;
  /** Seconds to wait between requests, when the site asks. */
  crawlDelay?: number;
  sitemaps: string[];
}

export const ALLOW_ALL: Robots = { allowed: () => true, sitemaps: [] };

/** A path rule made a matcher of `path + query`. */
export interface PathPattern {
  test(path: string): boolean;
}

/**
 * A robots.txt path rule as a matcher of `path + query`: a prefix, where `*` stands for any characters and a
 * final `$` ends the match. `index add --include/--exclude` take their patterns in the same form.
 *
 * Matched without a RegExp: a rule is a site's (or a user's) input, and `/*a*a*a*a*a*a*a*a*x` made a regular
 * expression backtracks exponentially (nearly two minutes for one path of 60 `a`s). Matching the literal pieces between
 * the `*`s greedily, each at its first place after the one before, is linear and finds a match whenever
 * there is one: an earlier place for a piece leaves more room for the rest.
 */
export function pathPattern(rule: string): PathPattern {
  // Rules may be written with raw UTF-8; the paths they are matched against are percent-encoded (RFC 9309 2.2.2).
  const path = rule.replace(/\P{ASCII}+/gu, (text) => encodeURIComponent(text));
  const anchored = path.endsWith("$");
  const pieces = (anchored ? path.slice(0, -1) : path).split("*");
  const first = pieces[0];
  // With a `*` and a final `$`, the last piece must end the path ("" when the rule ends in `*$`).
  const last = pieces.length > 1 && anchored ? pieces[pieces.length - 1] : undefined;
  const rest = pieces.slice(1, last === undefined ? undefined : -1).filter((piece) => piece !== "");
  return {
    test(candidate: string): boolean {
      if (!candidate.startsWith(first)) return false;
      if (pieces.length === 1) return !anchored || candidate.length === first.length;
      let at = first.length;
      for (const piece of rest) {
        const found = candidate.indexOf(piece, at);
        if (found === -1) return false;
        at = found + piece.length;
      }
      // The anchored last piece is matched at the end, after the others (a final `*$` matches anything).
      return last === undefined || (candidate.length - last.length >= at && candidate.endsWith(last));
    },
  };
}

export function parseRobots(text: string, agent = USER_AGENT): Robots {
  const groups: { agents: string[]; rules: Rule[]; delay?: number }[] = [];
  const sitemaps: string[] = [];
  let current: (typeof groups)[number] | undefined;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/#.*/, "").trim();
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "sitemap") {
      if (value !== "") sitemaps.push(value);
      continue;
    }
    if (key === "user-agent") {
      // Consecutive user-agent lines share one group.
      if (!lastWasAgent || current === undefined) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (current === undefined) continue;
    if ((key === "allow" || key === "disallow") && value !== "") {
      current.rules.push({ allow: key === "allow", pattern: pathPattern(value), length: value.length });
    } else if (key === "crawl-delay") {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.delay = seconds;
    }
  }
  // The whole product token, compared case-insensitively (RFC 9309 2.2.1): "docs" is another crawler.
  const ours = groups.filter((group) => group.agents.includes(agent.toLowerCase()));
  const chosen = ours.length > 0 ? ours : groups.filter((group) => group.agents.includes("*"));
  const rules = chosen.flatMap((group) => group.rules);
  const delays = chosen.map((group) => group.delay).filter((delay) => delay !== undefined);
  return {
    allowed(path: string): boolean {
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!rule.pattern.test(path)) continue;
        if (best === undefined || rule.length > best.length || (rule.length === best.length && rule.allow)) {
          best = rule;
        }
      }
      return best?.allow ?? true;
    },
    ...delays.length > 0 ? { crawlDelay: Math.max(...delays) } : {},
    sitemaps,
  };
}
