// The text of a DOCX: the runs of word/document.xml in order, a line per paragraph, tabs and line
// breaks kept. The part is inflated off the main thread by node:zlib (zip-parts.ts), within the
// same inflated-size limit as the page count (docx-pages.ts) against zip bombs; scanning the XML
// for its text runs is a single linear pass, stopped at the text limit (memory-limits.ts);
// character references are decoded by the entities package (the five XML names, decimal and hex).
//
// Why not mammoth: it converts to HTML with styles, lists and images, none of which the scorer
// reads; it would add jszip, xmldom and four more packages, and jszip inflates a part whatever
// its declared size.
import { decodeXML } from 'entities';
import { docxDocumentPart } from '../docx-pages.ts';
import { MAX_DOCX_PART_BYTES, MAX_READ_TEXT_CHARS } from '../memory-limits.ts';
import { readZipParts } from '../zip-parts.ts';

export type DocxText = { text: string } | { failure: 'undecodable' } | { failure: 'over-limit'; part?: string };

// One token per match: a text run's content (<w:t>, not <w:delText>: deleted revisions are not
// the document's text), a tab, a line break, or the end of a paragraph.
const tokens = /<(?:\w+:)?t(?:\s[^>]*)?>([^<]*)<\/(?:\w+:)?t>|<(?:\w+:)?(tab|br|cr)\b[^>]*\/>|<\/(?:\w+:)?p>/g;

/** The text of document.xml; undefined once it passes `maxChars` (before trimming). */
export function documentXmlText(documentXml: string, maxChars = Number.POSITIVE_INFINITY): string | undefined {
  let text = '';
  for (const match of documentXml.matchAll(tokens)) {
    if (match[1] !== undefined) text += decodeXML(match[1]);
    else if (match[2] === 'tab') text += '\t';
    else text += '\n';
    if (text.length > maxChars) return undefined;
  }
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The document's text, or why there is none: not a readable DOCX archive, or over a limit (inflated part, text). */
export async function docxText(bytes: Uint8Array): Promise<DocxText> {
  const read = await readZipParts(bytes, [docxDocumentPart], MAX_DOCX_PART_BYTES);
  if ('failure' in read) return read;
  const documentBytes = read.parts.get(docxDocumentPart);
  if (!documentBytes) return { failure: 'undecodable' };
  let documentXml: string;
  try {
    documentXml = new TextDecoder('utf-8', { fatal: true }).decode(documentBytes);
  } catch {
    return { failure: 'undecodable' };
  }
  const text = documentXmlText(documentXml, MAX_READ_TEXT_CHARS);
  return text === undefined ? { failure: 'over-limit' } : { text };
}
