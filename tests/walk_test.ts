/** Walking a folder for documentation: which links are followed, and what cannot be read. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { documentationFiles } from "../lib/docs/sources.ts";
import { withDir } from "./helpers.ts";

const write = (path: string, text: string) => {
  Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  Deno.writeTextFileSync(path, text);
};

Deno.test("documentationFiles: links inside the folder are followed; links out of it are not, and are named", async () => {
  await withDir((dir) => {
    const root = `${dir}/repo/docs`;
    write(`${root}/guide.md`, "# Guide\n");
    write(`${root}/.generated/api/index.md`, "# API\n");
    write(`${dir}/repo/README.md`, "# Readme\n");
    write(`${dir}/secret/key.md`, "secret\n");
    // A folder left out of the walk (a dot folder), read where a link puts it.
    Deno.symlinkSync(".generated/api", `${root}/reference`);
    Deno.symlinkSync("guide.md", `${root}/intro.md`);
    Deno.symlinkSync(`${dir}/secret/key.md`, `${root}/notes.md`);
    Deno.symlinkSync("../README.md", `${root}/readme.md`);
    Deno.symlinkSync("/", `${root}/everything`);
    Deno.symlinkSync(`${dir}/secret`, `${root}/private`);
    const walked = documentationFiles(root, "linux", []);
    assertEquals(walked.files.map((file) => file.path.slice(root.length + 1)), [
      "guide.md",
      "intro.md",
      "reference/index.md",
    ]);
    assertEquals(walked.skipped, [
      `${root}/everything (a link out of ${root})`,
      `${root}/notes.md (a link out of ${root})`,
      `${root}/private (a link out of ${root})`,
      `${root}/readme.md (a link out of ${root})`,
    ]);
    return Promise.resolve();
  });
});

Deno.test("documentationFiles: under a system docs folder, links to another package's docs in it are followed", async () => {
  await withDir((dir) => {
    // Debian's layout: python3.11-doc's html is a link to python3.11's, whose _static links out of the docs.
    const docs = `${dir}/usr/share/doc`;
    write(`${docs}/python3.11/html/library/os.html`, "<h1>os</h1>");
    write(`${dir}/usr/share/javascript/guide.html`, "<h1>not docs</h1>");
    Deno.mkdirSync(`${docs}/python3.11-doc`);
    Deno.symlinkSync("../python3.11/html", `${docs}/python3.11-doc/html`);
    Deno.symlinkSync("../../../../javascript/guide.html", `${docs}/python3.11/html/library/static.html`);
    write(`${dir}/usr/share/gtk-doc/html/libx/index.html`, "<h1>libx</h1>");
    Deno.symlinkSync("../../gtk-doc/html/libx", `${docs}/python3.11-doc/reference`);
    const root = `${docs}/python3.11-doc`;
    const walked = documentationFiles(root, "linux", [docs, `${dir}/usr/share/gtk-doc`]);
    assertEquals(walked.files.map((file) => file.path), [
      `${root}/html/library/os.html`,
      `${root}/reference/index.html`,
    ]);
    assertEquals(walked.skipped, [`${root}/html/library/static.html (a link out of ${root})`]);
    // The same folder, not a system docs folder: its link out is not followed.
    assertEquals(documentationFiles(root, "linux", []).skipped, [
      `${root}/html (a link out of ${root})`,
      `${root}/reference (a link out of ${root})`,
    ]);
    return Promise.resolve();
  });
});

Deno.test("documentationFiles: a folder that cannot be read is skipped and named, the others read", async () => {
  await withDir(async (dir) => {
    const root = `${dir}/docs`;
    write(`${root}/a.md`, "# A\n");
    write(`${root}/z.md`, "# Z\n");
    // A path longer than the system takes (PATH_MAX, 4096) cannot be opened, even by root: made one step at a
    // time from inside, as a whole path cannot be.
    const part = "d".repeat(200);
    const made = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `for (let i = 0; i < 22; i++) { Deno.mkdirSync("${part}"); Deno.chdir("${part}"); }
        Deno.writeTextFileSync("deep.md", "# deep");`,
      ],
      cwd: root,
    }).output();
    assertEquals(made.code, 0, new TextDecoder().decode(made.stderr));
    const walked = documentationFiles(root, "linux", []);
    assertEquals(walked.files.map((file) => file.path.slice(root.length + 1)), ["a.md", "z.md"]);
    assertEquals(walked.skipped.length, 1);
    const [skipped] = walked.skipped;
    assertEquals(skipped.startsWith(`${root}/${part}/`), true);
    assertEquals(/ \(cannot be read: .*\)$/.test(skipped), true, skipped);
    // withDir's removal takes whole paths: this one goes from inside first.
    await new Deno.Command("rm", { args: ["-rf", `${root}/${part}`] }).output();
  });
});
