// The page count of a DOCX. Pages are laid out by the word processor, so the file only records
// them: docProps/app.xml's <Pages> (written at the last save) when present, otherwise one more
// than the explicit page breaks in word/document.xml. The archive must hold word/document.xml.
// fflate is loaded with the first DOCX upload, not at start.
import type { UnzipFileInfo } from 'fflate';

let fflateLoading: Promise<typeof import('fflate')> | undefined;

export const docxDocumentPart = 'word/document.xml';
const propertiesPart = 'docProps/app.xml';

// Only these two parts are inflated, and only up to this size: a small archive can expand to
// gigabytes (a zip bomb), and no real document.xml of a 20-page document comes near it.
export const maxInflatedPartBytes = 64 * 1024 * 1024;

function wanted(file: UnzipFileInfo): boolean {
  return (file.name === docxDocumentPart || file.name === propertiesPart) && file.originalSize <= maxInflatedPartBytes;
}

function statedPageCount(properties: string): number | undefined {
  const match = /<(?:[A-Za-z_][\w.-]*:)?Pages>\s*(\d{1,9})\s*<\//.exec(properties);
  const pages = match ? Number(match[1]) : NaN;
  return pages > 0 ? pages : undefined;
}

function explicitPageBreaks(documentXml: string): number {
  return documentXml.match(/<w:br\b[^>]*\bw:type\s*=\s*["']page["'][^>]*>/g)?.length ?? 0;
}

/** The number of pages, or undefined when the file is not a readable DOCX archive. */
export async function docxPageCount(bytes: Uint8Array): Promise<number | undefined> {
  fflateLoading ??= import('fflate');
  const { unzipSync } = await fflateLoading;
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, { filter: wanted });
  } catch {
    return undefined;
  }
  const documentBytes = parts[docxDocumentPart];
  if (!documentBytes) return undefined;
  let documentXml: string;
  try {
    documentXml = new TextDecoder('utf-8', { fatal: true }).decode(documentBytes);
  } catch {
    return undefined;
  }
  if (!/<(?:\w+:)?document\b/.test(documentXml)) return undefined;
  const properties = parts[propertiesPart];
  const stated = properties ? statedPageCount(new TextDecoder('utf-8').decode(properties)) : undefined;
  return stated ?? 1 + explicitPageBreaks(documentXml);
}
