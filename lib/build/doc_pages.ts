/**
 * The parts of the docs that programs write rather than people: generated pages (commands_doc.ts) and the
 * measured tables that `deno task bench` and `deno task eval` write into docs/performance.md. A measured table
 * lives between two marker comments, `<!-- bench:hook-latency -->` … `<!-- /bench:hook-latency -->`, and is
 * stamped with the date and the machine it was measured on, so that a number on the page always says where it
 * comes from. Everything written is formatted as `deno fmt` formats Markdown, so `deno fmt --check` stays clean.
 */
import { fileUrlPath, isAbsolute } from "../paths.ts";

/** The checkout, with a trailing separator. */
export const ROOT = fileUrlPath(new URL("../../", import.meta.url), Deno.build.os);

export const PERFORMANCE_PAGE = "docs/performance.md";

/** The measured sections of docs/performance.md, by the script that writes each. */
export const MEASURED = {
  /** tests/bench/secrets.ts */
  secrets: "bench:secrets",
  /** tests/bench/docs.ts */
  docs: "bench:docs",
  /** tests/bench/project.ts */
  project: "bench:project",
  /** tests/bench/hook_latency.ts */
  hookLatency: "bench:hook-latency",
  /** tests/bench/session.ts */
  session: "bench:session",
  /** tests/eval/run.ts */
  quality: "eval:quality",
  /** tests/eval/run.ts, the hook path (hook_path.ts) */
  hookPath: "eval:hook-path",
} as const;

export const startMarker = (id: string): string => `<!-- ${id} -->`;
export const endMarker = (id: string): string => `<!-- /${id} -->`;

/** `page` with what stands between the markers of section `id` replaced by `body`; the rest is left as it is. */
export function withSection(page: string, id: string, body: string): string {
  const [start, end] = [startMarker(id), endMarker(id)];
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < 0) throw new Error(`no section ${id}: the page needs the lines ${start} and ${end}`);
  if (page.indexOf(start, from + 1) >= 0 || page.indexOf(end, to + 1) >= 0) {
    throw new Error(`section ${id} is marked more than once`);
  }
  if (to < from) throw new Error(`section ${id}: ${end} comes before ${start}`);
  return `${page.slice(0, from + start.length)}\n\n${body.trim()}\n\n${page.slice(to)}`;
}

/** Markdown as `deno fmt` writes it, under this project's settings (its line width). */
export async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", `--config=${ROOT}deno.json`, "--ext=md", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { success, stdout, stderr } = await child.output();
  if (!success) throw new Error(`deno fmt: ${new TextDecoder().decode(stderr).trim()}`);
  return new TextDecoder().decode(stdout);
}

/** What a measurement ran on: enough to tell whether two numbers can be compared. */
export interface Machine {
  cpu: string;
  cores: number;
  /** The OS and its release, e.g. `linux 6.8.0`. */
  os: string;
  /** Deno's build target, e.g. `x86_64-unknown-linux-gnu`. */
  target: string;
  deno: string;
}

/** The CPU's name in the text of Linux's /proc/cpuinfo: `model name` on x86, `Model` or `Hardware` on ARM. */
export function cpuModelIn(cpuinfo: string): string | undefined {
  for (const key of ["model name", "Model", "Hardware"]) {
    const line = cpuinfo.split("\n").find((line) => line.split(":")[0].trim() === key);
    const value = line?.slice(line.indexOf(":") + 1).trim();
    if (value) return value;
  }
  return undefined;
}

function cpuModel(): string {
  try {
    if (Deno.build.os === "linux") return cpuModelIn(Deno.readTextFileSync("/proc/cpuinfo")) ?? "unknown CPU";
    if (Deno.build.os === "darwin") {
      const out = new Deno.Command("sysctl", { args: ["-n", "machdep.cpu.brand_string"] }).outputSync();
      return new TextDecoder().decode(out.stdout).trim() || "unknown CPU";
    }
    return Deno.env.get("PROCESSOR_IDENTIFIER") ?? "unknown CPU";
  } catch {
    return "unknown CPU";
  }
}

/** The machine this process runs on. */
export function thisMachine(): Machine {
  return {
    cpu: cpuModel(),
    cores: navigator.hardwareConcurrency,
    os: `${Deno.build.os} ${Deno.osRelease()}`,
    target: Deno.build.target,
    deno: Deno.version.deno,
  };
}

/** The line under a measured table: when, by what, on what. */
export function stamp(at: Date, how: string, machine: Machine): string {
  const cores = machine.cores === 1 ? "1 core" : `${machine.cores} cores`;
  return `Measured ${at.toISOString().slice(0, 10)} by ${how}, on ${machine.cpu} (${cores}), ` +
    `${machine.os} (${machine.target}), deno ${machine.deno}.`;
}

export interface Measurement {
  /** The section, one of MEASURED. */
  id: string;
  /** The table in Markdown, with any lines that belong to it. */
  body: string;
  /** What measured it, as a reader would run it: "`deno task bench` (hook_latency.ts, 80 rounds)". */
  how: string;
}

export interface WriteOptions {
  /** The page, a path from the checkout's root unless absolute (default docs/performance.md). */
  page?: string;
  machine?: Machine;
  at?: Date;
  /** Told which section of which page was written (default: stderr, where a `--json` stdout is not disturbed). */
  log?: (line: string) => void;
}

/** Writes a measurement into its section of the page, stamped, and the page formatted; the rest is kept. */
export async function writeMeasurement(measurement: Measurement, options: WriteOptions = {}): Promise<void> {
  const {
    page = PERFORMANCE_PAGE,
    machine = thisMachine(),
    at = new Date(),
    log = (line: string) => console.error(line),
  } = options;
  const path = isAbsolute(page, Deno.build.os) ? page : ROOT + page;
  const before = await Deno.readTextFile(path);
  const body = `${measurement.body.trim()}\n\n${stamp(at, measurement.how, machine)}`;
  await Deno.writeTextFile(path, await formatMarkdown(withSection(before, measurement.id, body)));
  log(`wrote ${measurement.id} into ${page}`);
}
