// The text of a DOCX: the runs of word/document.xml in order, a line per paragraph, tabs and line
// breaks kept. The archive is inflated by fflate's asynchronous unzip (worker threads), with the
// same part-size cap as the page count (docx-pages.ts) against zip bombs; scanning the XML for
// its text runs is a single linear pass; character references are decoded by the entities
// package (the five XML names, decimal and hex).
//
// Why not mammoth: it converts to HTML with styles, lists and images, none of which the scorer
// reads; it would add jszip, xmldom and four more packages, and jszip inflates a part whatever
// its declared size. The page count already reads the archive with fflate.
import { decodeXML } from 'entities';
import type { UnzipFileInfo } from 'fflate';
import { docxDocumentPart, maxInflatedPartBytes } from '../docx-pages.ts';

let fflateLoading: Promise<typeof import('fflate')> | undefined;

const wanted = (file: UnzipFileInfo): boolean => file.name === docxDocumentPart && file.originalSize <= maxInflatedPartBytes;

// One token per match: a text run's content (<w:t>, not <w:delText>: deleted revisions are not
// the document's text), a tab, a line break, or the end of a paragraph.
const tokens = /<(?:\w+:)?t(?:\s[^>]*)?>([^<]*)<\/(?:\w+:)?t>|<(?:\w+:)?(tab|br|cr)\b[^>]*\/>|<\/(?:\w+:)?p>/g;

export function documentXmlText(documentXml: string): string {
  let text = '';
  for (const match of documentXml.matchAll(tokens)) {
    if (match[1] !== undefined) text += decodeXML(match[1]);
    else if (match[2] === 'tab') text += '\t';
    else text += '\n';
  }
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The document's text, or undefined when the file is not a readable DOCX archive. */
export async function docxText(bytes: Uint8Array): Promise<string | undefined> {
  fflateLoading ??= import('fflate');
  const { unzip } = await fflateLoading;
  const parts = await new Promise<Record<string, Uint8Array> | undefined>((resolve) => {
    try {
      unzip(bytes, { filter: wanted }, (error, files) => resolve(error ? undefined : files));
    } catch {
      resolve(undefined);
    }
  });
  const documentBytes = parts?.[docxDocumentPart];
  if (!documentBytes) return undefined;
  try {
    return documentXmlText(new TextDecoder('utf-8', { fatal: true }).decode(documentBytes));
  } catch {
    return undefined;
  }
}
