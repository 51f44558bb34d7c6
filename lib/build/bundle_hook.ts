/**
 * `deno task bundle`: writes the hook's hot path (lib/commands/hook.ts and every module it imports) as one
 * module to lib/.build/, with the stamp of every source, for main.ts to run while they are unchanged (see
 * hot_path.ts). Safe to run at any time: each file is replaced whole, the manifest last.
 */
import { makeDir, writeAtomically } from "../files.ts";
import { fileUrlPath } from "../paths.ts";
import { BUILD_DIR, BUNDLE_FILE, type Manifest, MANIFEST_FILE, stampOf } from "./hot_path.ts";

const ENTRY = "lib/commands/hook.ts";
const root = new URL("../../", import.meta.url);
const rootPath = fileUrlPath(root, Deno.build.os);

async function deno(args: string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: rootPath,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (!output.success) throw new Error(`deno ${args.join(" ")} failed:\n${text(output.stderr)}`);
  return text(output.stdout);
}

// The bundle inlines the entry's whole local graph (deno info lists it, literal dynamic imports too); the
// modules imported by computed specifiers stay outside and load from source. Stamped before bundling, so that
// a file edited meanwhile leaves the bundle stale, never wrong.
const graph = JSON.parse(await deno(["info", "--json", ENTRY])) as { modules: { specifier: string }[] };
const sources = graph.modules
  .map((module) => module.specifier)
  .filter((specifier) => specifier.startsWith(root.href))
  .map((specifier) => stampOf(root, decodeURIComponent(specifier.slice(root.href.length))))
  .sort(([a], [b]) => a.localeCompare(b));

const bundle = `${BUILD_DIR}${BUNDLE_FILE}`;
makeDir(`${rootPath}${BUILD_DIR}`);
// deno bundle writes its own file; it is then put in place whole, like the manifest after it.
const scratch = Deno.makeTempDirSync({ prefix: "docsearch-bundle-" });
try {
  await deno(["bundle", "--quiet", "--platform", "deno", "--output", `${scratch}/${BUNDLE_FILE}`, ENTRY]);
  writeAtomically(`${rootPath}${bundle}`, Deno.readTextFileSync(`${scratch}/${BUNDLE_FILE}`));
} finally {
  Deno.removeSync(scratch, { recursive: true });
}
const manifest: Manifest = { bundle: stampOf(root, bundle), sources };
writeAtomically(`${rootPath}${BUILD_DIR}${MANIFEST_FILE}`, JSON.stringify(manifest, null, 1));
console.log(`bundled ${sources.length} modules into ${bundle} (${Math.round(manifest.bundle[1] / 1024)} KB)`);
