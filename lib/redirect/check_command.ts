/**
 * `docsearch-hook check`: what the hook would do for a web request, computed by the same code the hook
 * runs (the same databases, the same decision), without reading or writing any state: it shows the first
 * request, which a retry would pass.
 */
import { Problem, UsageError } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import { commandConfig } from "../config/resolve.ts";
import { answeringDatabases, builtInIndex, indexesUnder } from "../docs/built_in.ts";
import type { Config } from "../config/types.ts";
import { decideRedirect, type RedirectState } from "./decide.ts";
import { indexAnswers } from "../answer/hook_answer.ts";
import { runningAgent } from "../protocol/agents.ts";
import { clip, formatDuration, localQuery, toolCall } from "./guidance.ts";
import type { WebToolRequest } from "./request.ts";

interface CheckArgs {
  values: { url?: string; domain?: string[]; json?: boolean; config?: string };
  positionals: string[];
}

function requestFrom({ values, positionals }: CheckArgs): WebToolRequest {
  const words = positionals.join(" ").trim();
  if (values.url !== undefined) {
    if (values.domain) throw new UsageError("--domain applies to searches, not to --url");
    return { tool: "WebFetch", url: values.url, prompt: words };
  }
  if (words === "") throw new UsageError("give a search query (or --url URL)");
  return { tool: "WebSearch", query: words, allowedDomains: values.domain ?? [], blockedDomains: [] };
}

/** The config as read, and `answering`, the databases the hook decides with (see answeringDatabases). */
function describeConfig(config: Config, answering: Config["databases"], looked: string[]): string[] {
  const enabled = config.databases.filter((d) => d.enabled).map((d) => d.name);
  const disabled = config.databases.filter((d) => !d.enabled).map((d) => d.name);
  const kept = new Set(answering.map((d) => d.name));
  const unbuilt = config.databases.filter((d) => d.enabled && !kept.has(d.name))
    .map((d) => `${d.name} (index ${builtInIndex(d)})`);
  return [
    `Config files: ${
      config.files.length ? config.files.join(", ") : `none found (looked for ${looked.join(", ")})`
    }`,
    `Databases:    ${enabled.length} enabled${enabled.length ? ` (${enabled.join(", ")})` : ""}` +
    (disabled.length ? `, ${disabled.length} disabled (${disabled.join(", ")})` : ""),
    ...unbuilt.length
      ? [`Passed over:  ${unbuilt.join(", ")}: the index is not built, so the hook lets these through`]
      : [],
  ];
}

/** A session that has seen nothing yet: every request is a first request, whose retry would pass. */
const FIRST_REQUEST: RedirectState = { retryOrRecord: () => "recorded" };

export function run(args: CheckArgs, context: CommandContext): number {
  const { env, os, cwd, now, stateDir, stdout: print, stderr: printError } = context;
  const request = requestFrom(args);
  const { location, config: resolved } = commandConfig(args.values.config, cwd, env, os);
  // The hook's databases: a built-in index that is not there is passed over, and the built-in search is named
  // as the hook run from here would name it (the plugin's launcher runs check too).
  const config = {
    ...resolved,
    databases: answeringDatabases(resolved.databases, indexesUnder(os, stateDir), env),
  };
  for (const problem of config.problems) printError(`problem: ${problem}`);

  // The built-in indexes answer as they answer the hook; the agent is the one the variables tell, Claude Code
  // when they tell none (the one that defers MCP tools).
  using answer = stateDir === undefined ? undefined : indexAnswers(request, os, stateDir);
  const decision = decideRedirect(request, "check", config, { state: FIRST_REQUEST }, now(), undefined, {
    answer,
    deferredTools: (runningAgent(env) ?? "claude") === "claude",
  });
  const [matches, output] = decision.action === "deny"
    ? [decision.matches, decision.output]
    : [[], undefined];

  if (args.values.json) {
    if (output !== undefined) print(output);
  } else {
    const subject = request.tool === "WebSearch"
      ? `WebSearch ${JSON.stringify(clip(request.query))}`
      : `WebFetch ${clip(request.url)}`;
    const lines = [...describeConfig(resolved, config.databases, location.paths), `Request:      ${subject}`];
    if (decision.action === "allow" && decision.why === "no-local-answer") {
      lines.push(
        `Decision:     allow: ${
          decision.matches.map((m) => m.database.name).join(", ")
        } matches, but no passage of its pages answers it (the hook prints nothing, exits 0, and records ` +
          "no-local-answer)",
      );
    } else if (output === undefined) {
      lines.push("Decision:     allow (no enabled database covers it; the hook prints nothing and exits 0)");
    } else {
      const query = localQuery(request);
      lines.push(
        `Decision:     deny${
          decision.action === "deny" && decision.answered ? " with the local answer" : ""
        }, ${matches.length === 1 ? "1 database matches" : `${matches.length} databases match`}:`,
        ...matches.map((m) =>
          `  - ${m.database.name} (${
            m.reason.kind === "keyword" ? `keyword "${m.reason.keyword}"` : `domain ${m.reason.host}`
          }) → ${toolCall(m.database, query)}`
        ),
        `An identical retry in the same session within ${
          formatDuration(config.escapeHatchTtlSeconds)
        } is allowed once.`,
        "",
        "Hook output (stdout, exit 0):",
        output,
      );
    }
    print(lines.join("\n"));
  }
  if (config.problems.length > 0) {
    throw new Problem(
      `the config has ${config.problems.length} problem(s), listed above; the hook skips what they name`,
      "edit the file where each problem says (its JSON path, or line and column), then run check again",
    );
  }
  return 0;
}
