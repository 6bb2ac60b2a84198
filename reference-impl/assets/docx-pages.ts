// The page count of a DOCX. Pages are laid out by the word processor, so the file only records
// them: docProps/app.xml's <Pages> (written at the last save) when present, otherwise one more
// than the explicit page breaks in word/document.xml. The archive must hold word/document.xml.
// The parts are inflated by zip-parts.ts, each within MAX_DOCX_PART_BYTES (memory-limits.ts): a
// small archive can expand to gigabytes (a zip bomb), and no real document.xml of a 20-page
// document comes near it.
import { isUtf8 } from 'node:buffer';
import { MAX_DOCX_PART_BYTES } from './memory-limits.ts';
import { readZipParts } from './zip-parts.ts';

export const docxDocumentPart = 'word/document.xml';
const propertiesPart = 'docProps/app.xml';

export type DocxPages = { pages: number } | { failure: 'undecodable' } | { failure: 'over-limit'; part: string };

function statedPageCount(properties: string): number | undefined {
  const match = /<(?:[A-Za-z_][\w.-]*:)?Pages>\s*(\d{1,9})\s*<\//.exec(properties);
  const pages = match ? Number(match[1]) : NaN;
  return pages > 0 ? pages : undefined;
}

const pageBreak = /<w:br\b[^>]*\bw:type\s*=\s*["']page["'][^>]*>/y;

/** Explicit page breaks, found from each "<w:br" in the bytes: the part is never made a string whole. */
function explicitPageBreaks(documentXml: Buffer): number {
  let breaks = 0;
  for (let at = documentXml.indexOf('<w:br'); at !== -1; at = documentXml.indexOf('<w:br', at + 5)) {
    const element = documentXml.toString('latin1', at, Math.min(documentXml.length, at + 512));
    pageBreak.lastIndex = 0;
    if (pageBreak.test(element)) breaks += 1;
  }
  return breaks;
}

const documentElement = /<(?:\w+:)?document$/;

/** Whether the part has a <document> element (any prefix), looked for from each "document" in the bytes. */
function isDocument(documentXml: Buffer): boolean {
  for (let at = documentXml.indexOf('document'); at !== -1; at = documentXml.indexOf('document', at + 8)) {
    const next = documentXml[at + 8];
    if (next !== undefined && /\w/.test(String.fromCharCode(next))) continue;
    if (documentElement.test(documentXml.toString('latin1', Math.max(0, at - 64), at + 8))) return true;
  }
  return false;
}

/** The number of pages, or why it cannot be read: not a readable DOCX archive, or a part over the inflated-size limit. */
export async function docxPageCount(bytes: Uint8Array): Promise<DocxPages> {
  const read = await readZipParts(bytes, [docxDocumentPart, propertiesPart], MAX_DOCX_PART_BYTES);
  if ('failure' in read) return read;
  const documentBytes = read.parts.get(docxDocumentPart);
  if (!documentBytes || !isUtf8(documentBytes)) return { failure: 'undecodable' };
  const documentXml = Buffer.from(documentBytes.buffer, documentBytes.byteOffset, documentBytes.byteLength);
  if (!isDocument(documentXml)) return { failure: 'undecodable' };
  const properties = read.parts.get(propertiesPart);
  const stated = properties ? statedPageCount(new TextDecoder('utf-8').decode(properties)) : undefined;
  return { pages: stated ?? 1 + explicitPageBreaks(documentXml) };
}
