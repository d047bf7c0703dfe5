/**
 * The parts of an `.xlsx` the payment reader needs, found and parsed as streams: which part is the
 * first sheet (the workbook and its relationships), and the shared strings table, bounded in count
 * and length. Each part is inflated and decoded with a StringDecoder (`setEncoding`), so a
 * character split between two inflated chunks reaches the XML parser whole.
 */
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { MAX_RECORD_CHARS } from "./limits.ts";
import { entryStream, XlsxRefusedError, type ZipEntry } from "./zip-bounds.ts";

/** The most shared strings a workbook may hold, and their characters together (64 Mi). */
export const MAX_SHARED_STRINGS = 2_000_000;
export const MAX_SHARED_CHARS = 64 * 1024 * 1024;

export interface PartHandlers {
  open(name: string, attributes: Record<string, string>): void;
  text(text: string): void;
  close(name: string): void;
}

/** An element's or attribute's name without its namespace prefix (`x:row` is `row`). */
export function localName(name: string): string {
  return name.slice(name.indexOf(":") + 1);
}

/**
 * Parses one part as it is inflated; `afterChunk` runs after each chunk is parsed (to write out
 * what it completed, waiting for the destination). A parser error (malformed XML, an undefined
 * entity: no DTD entity is ever expanded) is thrown as saxes words it.
 */
export async function parsePart(
  path: string,
  entry: ZipEntry,
  handlers: PartHandlers,
  afterChunk?: () => Promise<void>,
): Promise<void> {
  const parser = new SaxesParser();
  parser.on("opentag", (tag: SaxesTagPlain) => handlers.open(localName(tag.name), tag.attributes));
  parser.on("text", (text) => handlers.text(text));
  parser.on("cdata", (text) => handlers.text(text));
  parser.on("closetag", (tag) => handlers.close(localName(tag.name)));
  const stream = entryStream(path, entry);
  stream.setEncoding("utf8");
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      if (afterChunk) await afterChunk();
    }
    parser.close();
  } finally {
    stream.destroy();
  }
}

/** A relationship's target as a zip entry name: relative to `xl/`, or absolute from the root. */
function partName(target: string): string {
  const parts = (target.startsWith("/") ? target.slice(1) : `xl/${target}`).split("/");
  const out: string[] = [];
  for (const part of parts) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

export interface WorkbookParts {
  sheet: ZipEntry | undefined;
  sharedStrings: ZipEntry | undefined;
}

/** The first sheet of the workbook (in the workbook's order) and its shared strings part. */
export async function findParts(path: string, entries: readonly ZipEntry[]): Promise<WorkbookParts> {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const workbook = byName.get("xl/workbook.xml");
  const rels = byName.get("xl/_rels/workbook.xml.rels");
  let firstSheetId: string | undefined;
  if (workbook) {
    await parsePart(path, workbook, {
      open(name, attributes) {
        if (name !== "sheet" || firstSheetId !== undefined) return;
        const id = Object.entries(attributes).find(([k]) => k.includes(":") && localName(k) === "id");
        firstSheetId = id?.[1] ?? "";
      },
      text() {},
      close() {},
    });
  }
  const targets = new Map<string, string>();
  let sharedStrings: string | undefined;
  if (rels) {
    await parsePart(path, rels, {
      open(name, a) {
        if (name !== "Relationship" || !a.Id || !a.Target) return;
        targets.set(a.Id, partName(a.Target));
        if (a.Type?.endsWith("/sharedStrings")) sharedStrings = partName(a.Target);
      },
      text() {},
      close() {},
    });
  }
  // A workbook without its workbook part or relationships: its first worksheet by zip order.
  const sheet =
    workbook && rels
      ? byName.get(targets.get(firstSheetId ?? "") ?? "")
      : entries.find((e) => /^xl\/worksheets\/[^/]+\.xml$/.test(e.name));
  return { sheet, sharedStrings: byName.get(sharedStrings ?? "xl/sharedStrings.xml") };
}

/**
 * The shared strings table: the text of each `<si>` (its `<t>` runs joined, phonetic runs left
 * out). A string longer than MAX_RECORD_CHARS is kept cut just past it, which is still too long
 * wherever a cell uses it; more than MAX_SHARED_STRINGS strings or MAX_SHARED_CHARS characters
 * is refused.
 */
export async function readSharedStrings(path: string, entry: ZipEntry | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!entry) return strings;
  let total = 0;
  let current = "";
  let inText = false;
  let phonetic = 0;
  const tooMany = () =>
    new XlsxRefusedError("tooManyStrings", { max: MAX_SHARED_STRINGS, chars: MAX_SHARED_CHARS });
  await parsePart(path, entry, {
    open(name) {
      if (name === "si") current = "";
      else if (name === "rPh") phonetic++;
      else if (name === "t") inText = phonetic === 0;
    },
    text(text) {
      if (!inText || current.length > MAX_RECORD_CHARS) return;
      current += text.slice(0, MAX_RECORD_CHARS + 1 - current.length);
    },
    close(name) {
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si") {
        total += current.length;
        if (strings.length >= MAX_SHARED_STRINGS || total > MAX_SHARED_CHARS) throw tooMany();
        strings.push(current);
        current = "";
      }
    },
  });
  return strings;
}
