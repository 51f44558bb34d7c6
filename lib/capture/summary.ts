/**
 * A compact, readable summary of one event, built per tool: what was done and to what, never the
 * raw tool response. Every piece of text passes the privacy filter before it is clipped, so a secret cut in
 * half by the clip is still recognised.
 */
import { count } from "../cli/io.ts";
import { isRecord, stringField } from "../protocol/event.ts";
import type { HookEvent } from "../protocol/event.ts";
import { type CommandKind, commandKind, commandsOf } from "./commands.ts";
import { redactHead, type Redactor, SECRET_FILE_TAG } from "./redact.ts";

export interface Summary {
  text: string;
  /** Bash only: the command's kind, exit status and output (already redacted and clipped). */
  command?: { kind: CommandKind; exitCode?: number; output: string; interrupted: boolean };
}

/**
 * Redacts, then clips to `limit` characters, filtering a bounded window of the text however long it is
 * (`redactHead`). A clip inside a word drops that partial word, so no fragment of an unrecognised long token
 * survives, and the clip never splits a surrogate pair.
 */
export function excerpt(text: string, limit: number, redactor: Redactor): string {
  // One character past the limit tells a text that goes on from one that ends there.
  const clean = redactHead((part) => redactor.redact(part), text.trimStart(), limit + 1).trimEnd();
  if (clean.length <= limit) return clean;
  let cut = clean.slice(0, limit);
  const lastSpace = Math.max(cut.lastIndexOf(" "), cut.lastIndexOf("\n"));
  if (!/\s/.test(clean[limit]) && lastSpace > 0) cut = cut.slice(0, lastSpace);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()} …`;
}

const str = (record: Record<string, unknown> | undefined, key: string) =>
  record === undefined ? undefined : stringField(record, key);

function firstString(
  record: Record<string, unknown> | undefined,
  keys: readonly string[],
): string | undefined {
  for (const key of keys) {
    const value = str(record, key);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** `key=value` pairs of a tool input, each value short: enough to see what an MCP call asked for. */
function inputSummary(input: Record<string, unknown> | undefined, redactor: Redactor): string {
  if (input === undefined) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const text = typeof value === "string" ? JSON.stringify(excerpt(value, 120, redactor)) : excerpt(
      JSON.stringify(value) ?? String(value),
      120,
      redactor,
    );
    parts.push(`${key}=${text}`);
    if (parts.join(" ").length > 400) break;
  }
  return excerpt(parts.join(" "), 400, redactor);
}

const EXIT_CODE_KEYS = ["exit_code", "exitCode", "returncode", "return_code", "code", "status"] as const;

function exitCodeOf(event: HookEvent, failed: boolean): number | undefined {
  const response = event.raw.tool_response;
  if (isRecord(response)) {
    for (const key of EXIT_CODE_KEYS) {
      if (typeof response[key] === "number") return response[key] as number;
    }
  }
  const error = stringField(event.raw, "error");
  const stated = error &&
    /(?:exit(?:ed)?(?: with)?(?: non-zero)?(?: status)?(?: code)?|status code)\s*:?\s*(-?\d+)/i.exec(error);
  if (stated) return Number(stated[1]);
  return failed ? undefined : 0;
}

function responseOutput(event: HookEvent): string {
  const response = event.raw.tool_response;
  if (typeof response === "string") return response;
  if (!isRecord(response)) return "";
  return [firstString(response, ["stdout", "output", "result"]), str(response, "stderr")]
    .filter((part) => part !== undefined && part.trim() !== "").join("\n");
}

/**
 * A value that the filter redacts under a secret's name and keeps under any other name: random enough for the
 * names that only describe a secret (`user_auth`), and of no token's shape on its own.
 */
const PROBE_VALUE = "q7Xv2Lm9Rt4Kp8Wz";

/**
 * More distinct names than this in one command line are not each put to the filter: the output is hidden
 * instead, so that a hostile line of a million names costs no more than a hundred.
 */
const MAX_JUDGED_NAMES = 100;

/**
 * Variables that hold a path, whatever their names say to the filter: the shell's own folders (`$PWD` is where
 * the command runs, not a password) and the SSH agent's socket.
 */
const SHELL_FOLDERS = new Set(["PWD", "OLDPWD", "SSH_AUTH_SOCK"]);

/**
 * Whether a variable of a name holds a secret, as the privacy filter judges a `NAME=value` assignment: the
 * filter's notion of a secret's name (and the user's own patterns) decides, not a copy of it.
 */
function secretNameJudge(redactor: Redactor): (name: string) => boolean {
  const judged = new Map<string, boolean>();
  return (name) => {
    if (SHELL_FOLDERS.has(name)) return false;
    let secret = judged.get(name);
    if (secret === undefined) {
      if (judged.size >= MAX_JUDGED_NAMES) return true;
      const assignment = `${name}=${PROBE_VALUE}`;
      secret = redactor.redact(assignment) !== assignment;
      judged.set(name, secret);
    }
    return secret;
  };
}

/** What may name a variable in a word, a `grep` pattern (`'TOKEN|SECRET'`) split into such pieces. */
const namePieces = (word: string) => word.split(/[^A-Za-z0-9_]+/).filter(Boolean);

/** The positional arguments of a command: its words after the program that are no flag. */
const positional = (args: readonly string[]) => args.filter((arg) => !arg.startsWith("-"));

/** `kubectl get secret x -o yaml` (`-ojson`, `--output=jsonpath=…`) prints the secret's data. */
const printsKubernetesSecret = (args: readonly string[]) =>
  positional(args).includes("get") && args.some((arg) => /^secrets?(?:\/|$)/.test(arg)) &&
  args.some((arg) => /^(?:-o|--output)(?:=|$)|^-o[a-z]/.test(arg));

/** Programs whose output is a secret for some arguments: password managers, vaults, token printers. */
const SECRET_PRINTERS: Readonly<Record<string, (args: readonly string[]) => boolean>> = {
  op: (args) => {
    const [verb, object] = positional(args);
    return verb === "read" || verb === "inject" || (verb === "item" && object === "get");
  },
  pass: () => true,
  gopass: () => true,
  security: (args) => /^find-(?:generic|internet)-password$/.test(positional(args)[0] ?? ""),
  gcloud: (args) => args.some((arg) => arg === "print-access-token" || arg === "print-identity-token"),
  aws: (args) =>
    args.some((arg) =>
      ["get-secret-value", "get-login-password", "get-session-token", "--with-decryption"].includes(arg)
    ),
  vault: (args) => {
    const [verb, object] = positional(args);
    return verb === "read" || (verb === "kv" && object === "get");
  },
  kubectl: printsKubernetesSecret,
  oc: printsKubernetesSecret,
  gh: (args) => positional(args).join(" ") === "auth token",
  az: (args) => args.includes("get-access-token"),
};

/** Programs that print every variable when given no name: the rest of the line picks the ones shown. */
const ENVIRONMENT_DUMPS = new Set(["env", "printenv", "set", "export", "declare", "typeset"]);

/**
 * Expansions of a variable (`$X`, `${X}`, `${X:-…}`, `${!X}`, PowerShell's `$env:X`). Looked for in the raw
 * line, not in the words the shell reader finds: it skips a here-document's body and leaves a nested shell's
 * line (`bash -c 'echo $X'`) as one quoted word, and both expand. A single-quoted `'$X'` is counted too, which
 * only hides more.
 */
const EXPANSION = /\$(?:\{[#!]?|env:)?([A-Za-z_]\w*)/g;

/**
 * Whether a command line prints, or may print, a secret held in a variable or a password store: it expands a
 * variable with a secret's name, `printenv`s one, filters the environment for one (`env | grep TOKEN`), or
 * runs a program that prints secrets (`op read`, `vault kv get`, `kubectl get secret … -o yaml` …).
 */
function printsSecret(command: string, redactor: Redactor): boolean {
  const isSecretName = secretNameJudge(redactor);
  for (const [, name] of command.matchAll(EXPANSION)) if (isSecretName(name)) return true;
  // commandsOf reads the line (lib/shell/read.ts): each command starts with its program, wrappers removed.
  const commands = commandsOf(command).map((line) => line.split(" "));
  let dumpsEnvironment = false;
  for (const [program, ...args] of commands) {
    if (SECRET_PRINTERS[program]?.(args)) return true;
    if (program === "printenv" && positional(args).some(isSecretName)) return true;
    // `set` with a flag sets an option (`set -e`); the others take `-p` or `-x` to list variables.
    if (ENVIRONMENT_DUMPS.has(program) && args.every((arg) => arg.startsWith("-"))) {
      dumpsEnvironment ||= program !== "set" || args.length === 0;
    }
  }
  return dumpsEnvironment &&
    commands.some(([program, ...args]) =>
      !ENVIRONMENT_DUMPS.has(program) && args.some((arg) => namePieces(arg).some(isSecretName))
    );
}

function bash(event: HookEvent, redactor: Redactor): Summary {
  const failed = event.hookEventName === "PostToolUseFailure";
  const command = str(event.toolInput, "command") ?? "";
  const mentionsSecretFile = command.split(/[\s'"<>|;&()=]+/).some((word) =>
    word !== "" && redactor.isSecretFile(word)
  );
  const rawOutput = failed
    ? [stringField(event.raw, "error"), responseOutput(event)].filter(Boolean).join("\n")
    : responseOutput(event);
  const output = rawOutput.trim() !== "" && (mentionsSecretFile || printsSecret(command, redactor))
    ? SECRET_FILE_TAG
    : excerpt(rawOutput, 300, redactor);
  const exitCode = exitCodeOf(event, failed);
  const interrupted = event.raw.is_interrupt === true ||
    (isRecord(event.raw.tool_response) && event.raw.tool_response.interrupted === true);
  const status = interrupted ? "interrupted" : exitCode === undefined ? "failed" : `exit ${exitCode}`;
  return {
    text: [`$ ${excerpt(command, 300, redactor)}`, `[${status}]`, output].filter(Boolean).join("\n"),
    command: { kind: commandKind(command), exitCode, output, interrupted },
  };
}

function fileContent(path: string, content: string | undefined, limit: number, redactor: Redactor): string {
  if (content === undefined || content === "") return "";
  return redactor.isSecretFile(path) ? SECRET_FILE_TAG : excerpt(content, limit, redactor);
}

function toolText(event: HookEvent, redactor: Redactor): string {
  const input = event.toolInput;
  const tool = event.toolName ?? "";
  // Gemini CLI's and Qwen Code's tools also call a path `dir_path` or `absolute_path`.
  const path = firstString(input, ["file_path", "notebook_path", "path", "dir_path", "absolute_path"]) ?? "";
  const shownPath = excerpt(path, 300, redactor);
  switch (tool) {
    case "Write": {
      const content = str(input, "content") ?? "";
      const lines = content === "" ? 0 : content.split("\n").length;
      return [`${shownPath} (${count(lines, "line")})`, fileContent(path, content, 200, redactor)].filter(
        Boolean,
      )
        .join("\n");
    }
    case "Edit":
      return [
        shownPath,
        fileContent(path, str(input, "old_string"), 120, redactor).replace(/^(?=.)/, "- "),
        fileContent(path, str(input, "new_string"), 120, redactor).replace(/^(?=.)/, "+ "),
      ].filter(Boolean).join("\n");
    case "MultiEdit": {
      const edits = Array.isArray(input?.edits) ? input.edits : [];
      const first = isRecord(edits[0]) ? edits[0] : undefined;
      return [
        `${shownPath} (${count(edits.length, "edit")})`,
        fileContent(path, str(first, "new_string"), 120, redactor).replace(/^(?=.)/, "+ "),
      ].filter(Boolean).join("\n");
    }
    case "NotebookEdit":
      return [shownPath, fileContent(path, str(input, "new_source"), 120, redactor)].filter(Boolean).join(
        "\n",
      );
    case "Read":
    case "LS":
      return shownPath;
    case "Glob":
    case "Grep": {
      const pattern = excerpt(str(input, "pattern") ?? "", 200, redactor);
      const where = excerpt(
        firstString(input, ["path", "glob", "include", "dir_path", "include_pattern"]) ?? "",
        200,
        redactor,
      );
      return where ? `${pattern} in ${where}` : pattern;
    }
    case "WebSearch":
      return excerpt(str(input, "query") ?? "", 300, redactor);
    case "WebFetch":
      return excerpt(str(input, "url") ?? "", 300, redactor);
    case "Task":
    case "Agent":
      return excerpt(
        [str(input, "subagent_type"), str(input, "description")].filter(Boolean).join(": "),
        300,
        redactor,
      );
    case "TodoWrite": {
      const todos = Array.isArray(input?.todos) ? input.todos : [];
      const active = todos.find((todo) => isRecord(todo) && todo.status === "in_progress");
      const doing = isRecord(active) ? str(active, "content") ?? "" : "";
      return [`${todos.length} todos`, excerpt(doing, 200, redactor)].filter(Boolean).join(": ");
    }
    default:
      return inputSummary(input, redactor);
  }
}

/** Event-specific fields worth keeping for the events that are not tool calls. */
const LIFECYCLE_FIELDS: Record<string, readonly string[]> = {
  SessionStart: ["source", "model"],
  SessionEnd: ["reason"],
  Stop: ["stop_hook_active"],
  SubagentStop: ["agent_type", "stop_hook_active"],
  // Not `custom_instructions`: what the user typed after `/compact` is a prompt, and prompts are not recorded.
  PreCompact: ["trigger"],
};

export function summarize(event: HookEvent, redactor: Redactor): Summary {
  const fields = LIFECYCLE_FIELDS[event.hookEventName];
  if (fields !== undefined) {
    const parts = fields.flatMap((key) => {
      const value = event.raw[key];
      return value === undefined || value === "" ? [] : [`${key}=${excerpt(String(value), 200, redactor)}`];
    });
    return { text: parts.join(" ") };
  }
  if (event.toolName === "Bash") return bash(event, redactor);
  const text = toolText(event, redactor);
  const error = event.hookEventName === "PostToolUseFailure" ? stringField(event.raw, "error") : undefined;
  return { text: error ? `${text}\nerror: ${excerpt(error, 300, redactor)}` : text };
}
