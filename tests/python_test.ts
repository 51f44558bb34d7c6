/**
 * Python projects for `index add --project`: the names manifests list, the environment the project runs in
 * (found by its files), installed distributions' metadata, and the docstrings read into Markdown.
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import { cleanDocstring, docstringsMarkdown } from "../lib/project/pydoc.ts";
import {
  installedDistributions,
  normalizeName,
  parseMetadata,
  pyprojectNames,
  pythonDependencies,
  pythonEnvironment,
  requirementsNames,
} from "../lib/project/python.ts";
import { rstHeadings } from "../lib/project/python_docs.ts";
import { withDir } from "./helpers.ts";

const os = "linux";
const noEnv = (vars: Record<string, string> = {}) => (name: string) => vars[name];

Deno.test("requirement names: PEP 508 names with extras, versions and markers; options, URLs and paths skipped", () => {
  const text = [
    "# the app's requirements",
    "requests[socks]>=2.31  # http",
    "Flask==3.1.*",
    'pywin32 ; sys_platform == "win32"',
    "zope.interface",
    "attrs",
    "-r dev.txt",
    "-e ./vendored",
    "--index-url https://example.org/simple",
    "https://example.org/pkg.whl",
    "./local-dir",
    "pkg @ https://example.org/pkg-1.0.tar.gz",
    "",
  ].join("\n");
  assertEquals(requirementsNames(text), ["requests", "Flask", "pywin32", "zope.interface", "attrs", "pkg"]);
});

Deno.test("pyproject names: PEP 621 with extras, dependency groups, Poetry (not python itself), uv and PDM dev tables", () => {
  const names = pyprojectNames({
    project: {
      dependencies: ["httpx>=0.27", "pydantic[email]"],
      "optional-dependencies": { cli: ["rich"] },
    },
    "dependency-groups": { dev: ["pytest", { "include-group": "lint" }], lint: ["ruff"] },
    tool: {
      poetry: {
        dependencies: { python: "^3.11", click: "^8" },
        group: { docs: { dependencies: { mkdocs: "*" } } },
      },
      uv: { "dev-dependencies": ["mypy"] },
      pdm: { "dev-dependencies": { test: ["coverage>=7"] } },
    },
  });
  assertEquals(names.sort(), [
    "click",
    "coverage",
    "httpx",
    "mkdocs",
    "mypy",
    "pydantic",
    "pytest",
    "rich",
    "ruff",
  ]);
});

Deno.test("normalized names: case, dots, dashes and underscores are one name", () => {
  assertEquals(normalizeName("Zope.Interface"), "zope-interface");
  assertEquals(normalizeName("typing_extensions"), normalizeName("Typing-Extensions"));
});

Deno.test("metadata: the body is the long description; older files carry it in an indented Description header", () => {
  const modern = parseMetadata(
    "Metadata-Version: 2.1\nName: greetlib\nVersion: 1.4.2\nClassifier: A\nClassifier: B\n" +
      "Description-Content-Type: text/markdown\n\n# greetlib\n\nGreetings.\n",
  );
  assertEquals(modern.headers.get("name"), "greetlib");
  assertEquals(modern.headers.get("classifier"), "A");
  assertEquals(modern.description, "# greetlib\n\nGreetings.");
  const old = parseMetadata(
    "Metadata-Version: 1.1\r\nName: oldpkg\r\nVersion: 0.9\r\nDescription: Old package\r\n" +
      "        ===========\r\n        \r\n        It does old things.\r\nPlatform: UNKNOWN\r\n",
  );
  assertEquals(old.description, "Old package\n===========\n\nIt does old things.");
  assertEquals(parseMetadata("Name: x\nVersion: 1\nDescription: UNKNOWN\n").description, "");
});

Deno.test("RST headings become Markdown headings, levels in the order their styles appear", () => {
  const rst = [
    "=======",
    "Project",
    "=======",
    "",
    "Intro text.",
    "",
    "Install",
    "-------",
    "",
    "Use pip.",
    "",
    "Usage",
    "-----",
    "",
    "Details",
    "~~~~~~~",
    "",
    "  indented",
    "  --------",
    "",
    "Short",
    "--",
  ].join("\n");
  assertEquals(
    rstHeadings(rst),
    [
      "# Project",
      "",
      "Intro text.",
      "",
      "## Install",
      "",
      "Use pip.",
      "",
      "## Usage",
      "",
      "### Details",
      "",
      "  indented",
      "  --------",
      "",
      "Short",
      "--",
    ].join("\n"),
  );
});

Deno.test("docstrings as cleandoc reads them, with what Markdown would misread escaped", () => {
  assertEquals(
    cleanDocstring("First line.\n\n    More, indented.\n      Nested.\n    "),
    "First line.\n\nMore, indented.\n  Nested.",
  );
  assertEquals(cleanDocstring("Example:\n\n    # a comment\n    x = 1"), "Example:\n\n\\# a comment\nx = 1");
  // An RST underline of tildes, or an unpaired fence, would open a code block that swallows what follows.
  assertEquals(cleanDocstring("Title\n    ~~~~~\n    Text."), "Title\n\\~~~~~\nText.");
  assertEquals(cleanDocstring("A\n\n    ```python\n    x = 1\n    ```"), "A\n\n```python\nx = 1\n```");
});

Deno.test("docstrings to Markdown: module, public classes, methods and functions, conditional definitions; private and inner ones left out", () => {
  const source = `#!/usr/bin/env python
# -*- coding: utf-8 -*-
"""The module's own docstring."""
import sys

@decorator(option=")")
class Greeter(Base, metaclass=Meta):
    """Keeps a style.

    Indented detail.
    """

    def greet(
        self,
        name: str = "(",
        *,
        punctuation="!",
    ) -> str:
        'Greet *name*.'

        def inner():
            """An inner helper, not the API."""

    async def fetch(self): """Fetch, on one line."""

    def _private(self):
        """Private."""

    def undocumented(self):
        return 1

def _hidden():
    """Hidden."""

def formatted():
    f"""Not a docstring: {sys}"""

def raw_doc():
    r"""Raw \\d+ docstring."""

def data():
    b"""Bytes are not documentation."""

if sys.version_info >= (3, 8):
    def modern():
        """The modern branch."""
else:
    def modern():
        """The old branch."""

try:
    def optional():
        """Defined when its import works."""
except ImportError:
    pass
`;
  const markdown = docstringsMarkdown(source, "greetlib", "greetlib 1.0: greetlib");
  const headings = markdown.split("\n").filter((line) => line.startsWith("#"));
  assertEquals(headings, [
    "# greetlib 1.0: greetlib",
    "## greetlib.Greeter",
    "## greetlib.Greeter.greet",
    "## greetlib.Greeter.fetch",
    "## greetlib.raw_doc",
    "## greetlib.modern",
    "## greetlib.optional",
  ]);
  match(markdown, /^# greetlib 1\.0: greetlib\n\nThe module's own docstring\.\n/);
  match(
    markdown,
    /Keeps a style\.\n\nIndented detail\.\n\n```python\nclass Greeter\(Base, metaclass=Meta\)\n```/,
  );
  match(markdown, /```python\ndef greet\(self, name: str = "\(", \*, punctuation="!"\) -> str\n```/);
  match(markdown, /async def fetch\(self\)/);
  match(markdown, /Raw \\d\+ docstring\./);
  match(markdown, /The modern branch\./);
  ok(!markdown.includes("old branch") && !markdown.includes("inner helper"), markdown);
  assertEquals(docstringsMarkdown("x = 1\n", "m", "m"), "");
  // Not Python at all: whatever parses is read, nothing throws.
  assertEquals(typeof docstringsMarkdown("def (:\n  '''x", "m", "m"), "string");
});

async function write(path: string, text = ""): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

const dist = (name: string, version: string) =>
  `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n\nAbout.\n`;

Deno.test("the environment: the activated one, else the project's virtualenv, else the python3 on PATH", async () => {
  await withDir(async (dir) => {
    const project = `${dir}/app`;
    await write(`${project}/.venv/pyvenv.cfg`, "home = /usr/bin\n");
    await write(`${project}/.venv/lib/python3.12/site-packages/.keep`);
    await write(`${dir}/active/lib/python3.11/site-packages/.keep`);
    const venv = pythonEnvironment(project, noEnv(), os);
    assertEquals(venv, {
      prefix: `${project}/.venv`,
      sitePackages: [`${project}/.venv/lib/python3.12/site-packages`],
    });
    assertEquals(
      pythonEnvironment(project, noEnv({ VIRTUAL_ENV: `${dir}/active` }), os)?.prefix,
      `${dir}/active`,
    );
    // A folder named venv without pyvenv.cfg is not one.
    await Deno.remove(`${project}/.venv/pyvenv.cfg`);
    await write(`${dir}/usr/bin/python3.13`, "\x7fELF");
    await Deno.symlink(`${dir}/usr/bin/python3.13`, `${dir}/usr/bin/python3`);
    await write(`${dir}/usr/lib/python3.13/site-packages/.keep`);
    await write(`${dir}/usr/lib/python3.9/site-packages/.keep`);
    await write(`${dir}/home/.local/lib/python3.13/site-packages/.keep`);
    const system = pythonEnvironment(
      project,
      noEnv({ PATH: `${dir}/nowhere:${dir}/usr/bin`, HOME: `${dir}/home` }),
      os,
    );
    assertEquals(system, {
      prefix: `${dir}/usr`,
      sitePackages: [
        `${dir}/home/.local/lib/python3.13/site-packages`,
        `${dir}/usr/lib/python3.13/site-packages`,
        `${dir}/usr/lib/python3.9/site-packages`,
      ],
    });
  });
});

Deno.test("a pyenv shim is followed to the version pyenv selects: PYENV_VERSION, the project's .python-version, the global one", async () => {
  await withDir(async (dir) => {
    const root = `${dir}/.pyenv`;
    await write(`${root}/shims/python3`, '#!/usr/bin/env bash\nexec pyenv exec "$0" "$@"\n');
    await write(`${root}/version`, "3.11.7\n");
    for (const version of ["3.11.7", "3.12.1", "3.13.0"]) {
      await write(`${root}/versions/${version}/lib/python${version.slice(0, 4)}/site-packages/.keep`);
    }
    const project = `${dir}/app`;
    await Deno.mkdir(project);
    const env = (vars: Record<string, string> = {}) => noEnv({ PATH: `${root}/shims`, ...vars });
    assertEquals(pythonEnvironment(project, env(), os)?.prefix, `${root}/versions/3.11.7`);
    await write(`${project}/.python-version`, "3.12.1\n");
    assertEquals(pythonEnvironment(project, env(), os)?.prefix, `${root}/versions/3.12.1`);
    assertEquals(
      pythonEnvironment(project, env({ PYENV_VERSION: "3.13.0" }), os)?.prefix,
      `${root}/versions/3.13.0`,
    );
  });
});

Deno.test("installed distributions: dist-info and egg-info, by normalized name, the first folder on the path winning", async () => {
  await withDir(async (dir) => {
    const first = `${dir}/first`;
    const second = `${dir}/second`;
    await write(`${first}/typing_extensions-4.15.0.dist-info/METADATA`, dist("typing_extensions", "4.15.0"));
    await write(`${first}/PyYAML-6.0.egg-info/PKG-INFO`, dist("PyYAML", "6.0"));
    await write(`${first}/oldstyle-0.1-py3.11.egg-info`, dist("oldstyle", "0.1"));
    await write(`${first}/broken-1.0.dist-info/METADATA`, "Name: broken\n");
    await write(`${second}/typing_extensions-4.0.0.dist-info/METADATA`, dist("typing_extensions", "4.0.0"));
    await write(`${second}/unwanted-1.0.dist-info/METADATA`, dist("unwanted", "1.0"));
    const wanted = new Set(["typing-extensions", "pyyaml", "oldstyle", "broken", "unwanted-not"]);
    const found = installedDistributions([first, second], wanted, os);
    assertEquals([...found.keys()].sort(), ["oldstyle", "pyyaml", "typing-extensions"]);
    assertEquals(found.get("typing-extensions")?.version, "4.15.0");
    assertEquals(found.get("pyyaml")?.metadata, `${first}/PyYAML-6.0.egg-info`);
    assertEquals(found.get("oldstyle")?.name, "oldstyle");
  });
});

Deno.test("a project's Python dependencies: installed ones at their versions, the rest missing; the lockfile or site-packages is the stamp", async () => {
  await withDir(async (dir) => {
    const project = `${dir}/app`;
    const site = `${project}/venv/lib/python3.12/site-packages`;
    await write(`${project}/venv/pyvenv.cfg`);
    await write(`${site}/Flask-3.1.3.dist-info/METADATA`, dist("Flask", "3.1.3"));
    await write(`${project}/requirements.txt`, "flask>=3\nnot-installed\n");
    const found = pythonDependencies(project, noEnv(), os);
    assertEquals(found?.packages, [{
      ecosystem: "pypi",
      name: "Flask",
      version: "3.1.3",
      dir: `${site}/Flask-3.1.3.dist-info`,
    }]);
    assertEquals(found?.missing, ["not-installed"]);
    assertEquals(found?.lockfiles, [site]);
    await write(`${project}/uv.lock`, "version = 1\n");
    assertEquals(pythonDependencies(project, noEnv(), os)?.lockfiles, [`${project}/uv.lock`]);
    assertEquals(pythonDependencies(`${dir}/none`, noEnv(), os), undefined);
    // A manifest that is not TOML is the project's to fix: said, with where.
    await write(`${dir}/bad/pyproject.toml`, "[project\n");
    throws(
      () => pythonDependencies(`${dir}/bad`, noEnv(), os),
      /bad\/pyproject\.toml is not valid TOML \(line 1, column \d+\): /,
    );
  });
});
