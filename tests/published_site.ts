/**
 * Where a package's docs are published, served on 127.0.0.1 for the tests: a code host with a tag's archive (a
 * real .tar.gz, hostile entries included), a homepage with llms-full.txt, and a small docs site of HTML pages.
 */
import { packTar, type TarEntry } from "modern-tar";

/** A .tar.gz of these entries, as a code host's archive holds them (under `<repo>-<version>/`). */
export async function targz(entries: TarEntry[]): Promise<Uint8Array<ArrayBuffer>> {
  const tar = await packTar(entries);
  const gzipped = ReadableStream.from([tar]).pipeThrough(
    new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
  );
  return new Uint8Array(await new Response(gzipped).arrayBuffer());
}

export const file = (name: string, body: string): TarEntry => ({
  header: { name, size: new TextEncoder().encode(body).length, type: "file" },
  body,
});

export const words = (stem: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${stem}${i}`).join(" ");

export interface Site extends AsyncDisposable {
  origin: string;
  /** Every path asked, in order. */
  asked: string[];
}

/**
 * A code host, a homepage with llms-full.txt, and a small docs site, on 127.0.0.1: `/o/r` has the tag v1.2.0
 * (its archive behind a redirect, as GitHub sends it to codeload), nothing for other versions; `/o/thin` has
 * the tag v3.0.0, a README and nothing else. With `stall`, an archive is sent only once it settles: a host
 * that keeps a fetch waiting.
 */
export async function site({ stall }: { stall?: Promise<unknown> } = {}): Promise<Site> {
  const archive = await targz([
    file("r-1.2.0/README.md", `# widget\n\nThe widget package. ${words("readme", 50)}\n`),
    file("r-1.2.0/docs/guide.md", `# Guide\n\n## Configuring the frobnicator\n\n${words("guide", 1200)}\n`),
    file(
      "r-1.2.0/docs/api.html",
      `<html><head><title>API</title></head><body><h1>API</h1><p>${words("api", 300)}</p></body></html>`,
    ),
    file("r-1.2.0/src/index.js", "module.exports = 1;\n"),
    file("r-1.2.0/docs/../../escape.md", "# Escaped\n\nshould never be read\n"),
    { header: { name: "r-1.2.0/docs/link.md", type: "symlink", linkname: "/etc/passwd", size: 0 } },
  ]);
  // A tag whose README sends the reader to the site, as react's and express's do.
  const thin = await targz([file("thin-3.0.0/README.md", "# thin\n\nThe docs are on the website.\n")]);
  const asked: string[] = [];
  const page = (title: string, body: string, links: string[]) =>
    `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>${
      links.map((href) => `<a href="${href}">${href}</a>`).join(" ")
    }</main></body></html>`;
  const html = (text: string) => new Response(text, { headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const { pathname } = new URL(request.url);
    asked.push(pathname);
    if (stall !== undefined && pathname.endsWith(".tar.gz")) await stall;
    switch (pathname) {
      case "/o/r/archive/refs/tags/v1.2.0.tar.gz":
        return new Response(null, {
          status: 302,
          headers: { location: "/codeload/o/r/tar.gz/refs/tags/v1.2.0" },
        });
      case "/codeload/o/r/tar.gz/refs/tags/v1.2.0":
        return new Response(archive, { headers: { "content-type": "application/x-gzip" } });
      case "/o/thin/archive/refs/tags/v3.0.0.tar.gz":
        return new Response(thin, { headers: { "content-type": "application/x-gzip" } });
      case "/home/llms-full.txt":
        return new Response(
          `# Widget\n\n## Installing\n\n${words("install", 400)}\n\n## Frobnicating\n\n${
            words("frob", 800)
          }\n`,
          { headers: { "content-type": "text/plain" } },
        );
      case "/docs/":
        return html(page("Docs home", words("home", 300), ["/docs/one.html", "/docs/two.html"]));
      case "/docs/one.html":
        return html(page("One", words("one", 500), ["/docs/two.html", "/docs/"]));
      case "/docs/two.html":
        return html(page("Two", words("two", 500), ["/docs/one.html"]));
      default:
        return new Response("not found", { status: 404 });
    }
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    asked,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
