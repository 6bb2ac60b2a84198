// A scanned PDF: every page is one picture (an image XObject, 8-bit grey, Flate-compressed) and
// there is no text layer at all, so a reader has to render the page and read it by OCR. The
// picture fills a US Letter page at 240 dpi by default.
import { deflateSync } from 'node:zlib';
import { pdfFromObjects } from './pdf.ts';
import { textPictureGrey, type TextPictureOptions } from './text-picture.ts';

/** One page per entry; each page shows its lines of text as a picture. */
export function scannedPdf(pages: readonly (readonly string[])[], options: TextPictureOptions = {}): Uint8Array {
  if (pages.length < 1) throw new RangeError('A PDF needs at least one page');
  // Object numbers: 1 catalog, 2 page tree, then per page: page, content stream, image.
  const pageObject = (index: number): number => 3 + index * 3;
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pages.map((_, index) => `${pageObject(index)} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  pages.forEach((lines, index) => {
    const picture = textPictureGrey(lines, { width: 2040, ...options });
    // The picture spans the page's width; the page is as tall as the picture at that scale.
    const pageWidth = 612;
    const pageHeight = Math.round((picture.height * pageWidth) / picture.width);
    const page = pageObject(index);
    objects[page] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth} ${pageHeight}] /Resources << /XObject << /Scan ${page + 2} 0 R >> >> /Contents ${page + 1} 0 R >>`;
    const content = `q ${pageWidth} 0 0 ${pageHeight} 0 0 cm /Scan Do Q`;
    objects[page + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
    const compressed = Buffer.from(deflateSync(picture.grey, { level: 9 })).toString('latin1');
    objects[page + 2] =
      `<< /Type /XObject /Subtype /Image /Width ${picture.width} /Height ${picture.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${compressed.length} >>\nstream\n${compressed}\nendstream`;
  });
  return pdfFromObjects(objects);
}
