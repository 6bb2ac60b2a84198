// A PDF 1.4 file with N pages of text (Helvetica, one of the standard 14 fonts, so nothing is
// embedded). Offsets in the cross-reference table are computed from the bytes actually written.
import { latin1 } from './bytes.ts';

export interface PdfOptions {
  /** The text on page i (1-based); "Page i of n" by default. Printable ASCII only. */
  pageText?: (page: number, pageCount: number) => string;
  /** Total file size in bytes, reached with an object no page refers to: a stream of spaces. */
  totalBytes?: number;
}

function pdfString(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new RangeError('Sample PDF text must be printable ASCII');
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

export function pdfWithPages(pageCount: number, options: PdfOptions = {}): Uint8Array {
  if (!Number.isInteger(pageCount) || pageCount < 1) throw new RangeError('A PDF needs at least one page');
  const pageText = options.pageText ?? ((page, count) => `Page ${page} of ${count}`);
  // Object numbers: 1 catalog, 2 page tree, 3 font, then a page object and its content stream per page.
  const pageObject = (page: number): number => 4 + (page - 1) * 2;
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  const kids = Array.from({ length: pageCount }, (_, i) => `${pageObject(i + 1)} 0 R`).join(' ');
  objects[2] = `<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  for (let page = 1; page <= pageCount; page += 1) {
    const content = `BT /F1 24 Tf 72 720 Td ${pdfString(pageText(page, pageCount))} Tj ET`;
    objects[pageObject(page)] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObject(page) + 1} 0 R >>`;
    objects[pageObject(page) + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  }
  if (options.totalBytes === undefined) return pdfFromObjects(objects);
  // The padding's length field and the xref offset grow with the digits of the padding's length:
  // the size of a padding of `length` bytes follows from the file with none, so one file is built.
  const padded = (length: number) => pdfFromObjects([...objects, `<< /Length ${length} >>\nstream\n${' '.repeat(length)}\nendstream`]);
  const empty = padded(0);
  const xref = Number(/startxref\n(\d+)/.exec(String.fromCharCode(...empty.slice(-40)))?.[1]);
  const digits = (value: number) => String(value).length;
  const sizeWith = (length: number) => empty.length + length + digits(length) - 1 + digits(xref + length + digits(length) - 1) - digits(xref);
  let length = Math.max(0, options.totalBytes - empty.length);
  while (length > 0 && sizeWith(length) > options.totalBytes) length -= 1;
  const file = padded(length);
  if (file.length !== options.totalBytes) throw new RangeError(`Cannot grow this PDF to ${options.totalBytes} bytes`);
  return file;
}

/**
 * A whole PDF file around numbered objects (objects[1] must be the catalog): header, bodies,
 * cross-reference table and trailer. Object text is Latin-1, one byte per character, so binary
 * stream data passes through as Latin-1 characters.
 */
export function pdfFromObjects(objects: readonly string[]): Uint8Array {
  // A binary comment after the header tells transfer tools the file is not plain text.
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let number = 1; number < objects.length; number += 1) {
    offsets[number] = body.length; // one byte per character: the body is Latin-1
    body += `${number} 0 obj\n${objects[number]}\nendobj\n`;
  }
  const xrefOffset = body.length;
  const entries = offsets.slice(1).map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`);
  body +=
    `xref\n0 ${objects.length}\n0000000000 65535 f \n${entries.join('')}` +
    `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return latin1(body);
}
