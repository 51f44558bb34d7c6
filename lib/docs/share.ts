/**
 * An index as one file to share (`index export` / `index import`): a first line that says what the file is,
 * a line of JSON that describes it (name, source, counts, layout, size and SHA-256 of the index), then the
 * index's SQLite bytes. A team builds an index once; everyone else imports it and gets the same results.
 * Pure: bytes in, bytes out; the commands read and write the files.
 */
import { LAYOUT } from "./store.ts";

/** The first line: a file that does not start so is not an index export, whatever its name says. */
const MAGIC = "docsearch-hook index export\n";
/** The description line is small; a longer one is not ours (or is damaged), and is not read as JSON. */
const MAX_HEADER_BYTES = 64 * 1024;

export interface ExportHeader {
  format: 1;
  /** The index's layout (store.ts): an index of another layout is refused, not searched wrongly. */
  layout: number;
  name: string;
  /** The folder, file or URL it was built from. */
  source?: string;
  documents: number;
  chunks: number;
  /** The docsearch-hook version that wrote it. */
  writtenBy: string;
  /** The size and SHA-256 (hex) of the index bytes that follow. */
  bytes: number;
  sha256: string;
}

/** The file cannot be imported: what is wrong with it, said so a user knows whether to fetch it again. */
export class ImportRefusedError extends Error {
  override name = "ImportRefusedError";
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The export file of an index whose SQLite bytes are `index`. */
export async function packIndex(
  about: Omit<ExportHeader, "format" | "layout" | "bytes" | "sha256">,
  index: Uint8Array,
): Promise<Uint8Array> {
  const header: ExportHeader = {
    format: 1,
    layout: LAYOUT,
    ...about,
    bytes: index.length,
    sha256: await sha256Hex(index),
  };
  const head = new TextEncoder().encode(`${MAGIC}${JSON.stringify(header)}\n`);
  const file = new Uint8Array(head.length + index.length);
  file.set(head);
  file.set(index, head.length);
  return file;
}

/**
 * The header and index bytes of an export file, checked: ours, complete (not cut short, nothing after), the
 * bytes those the header's checksum names, and of the layout this version searches.
 */
export async function unpackIndex(file: Uint8Array): Promise<{ header: ExportHeader; index: Uint8Array }> {
  const magic = new TextEncoder().encode(MAGIC);
  if (file.length < magic.length || !magic.every((byte, i) => file[i] === byte)) {
    throw new ImportRefusedError("it is not an index exported by docsearch-hook (index export)");
  }
  const end = file.subarray(magic.length, magic.length + MAX_HEADER_BYTES).indexOf(10);
  if (end === -1) throw new ImportRefusedError("its description line is missing or cut short");
  let header: ExportHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(file.subarray(magic.length, magic.length + end)));
  } catch {
    throw new ImportRefusedError("its description line is not valid JSON");
  }
  const numbers = ["format", "layout", "documents", "chunks", "bytes"] as const;
  const strings = ["name", "sha256"] as const;
  const wrong = [
    ...numbers.filter((key) => typeof header?.[key] !== "number"),
    ...strings.filter((key) => typeof header?.[key] !== "string"),
    ...header?.source !== undefined && typeof header.source !== "string" ? ["source"] : [],
  ];
  if (wrong.length > 0) throw new ImportRefusedError(`its description has no valid ${wrong.join(", ")}`);
  if (header.format !== 1) {
    throw new ImportRefusedError(`it is in export format ${header.format}; this version reads format 1`);
  }
  if (header.layout !== LAYOUT) {
    throw new ImportRefusedError(
      `its index has layout ${header.layout} (written by docsearch-hook ${header.writtenBy}); this version ` +
        `searches layout ${LAYOUT}`,
    );
  }
  const index = file.subarray(magic.length + end + 1);
  if (index.length < header.bytes) {
    throw new ImportRefusedError(`it is truncated: ${index.length} of ${header.bytes} index bytes`);
  }
  if (index.length > header.bytes) {
    throw new ImportRefusedError(
      `it has ${index.length - header.bytes} bytes more than its description says`,
    );
  }
  const actual = await sha256Hex(index);
  if (actual !== header.sha256) {
    throw new ImportRefusedError(
      `its index does not match its checksum (sha256 ${actual}, not ${header.sha256})`,
    );
  }
  return { header, index };
}
