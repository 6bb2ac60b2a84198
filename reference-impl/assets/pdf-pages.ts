// The page count of a PDF, with pdf.js (legacy build, for Node). pdf.js parses in-process here: in
// Node it has no real worker and runs its "fake worker" on the main thread. It opens the file with
// pdf-options.mjs: nothing that could evaluate code, load fonts, fetch or log.
import { loadPdfJs, safePdfSource } from './pdf-options.mjs';

// Adobe's readers require %%EOF within the last 1024 bytes. pdf.js is more forgiving: it rebuilds a
// damaged cross-reference table by scanning and reads a file that lost its end, so a PDF cut off in
// transit could otherwise pass.
function endsLikePdf(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-1024);
  return tail.includes('%%EOF', 0, 'latin1');
}

/** The number of pages, or undefined when the PDF cannot be read (broken, truncated, encrypted). */
export async function pdfPageCount(bytes: Uint8Array): Promise<number | undefined> {
  if (!endsLikePdf(bytes)) return undefined;
  const pdfjs = await loadPdfJs();
  // pdf.js takes ownership of (detaches) the buffer it is given, hence the copy.
  const task = pdfjs.getDocument(safePdfSource(new Uint8Array(bytes), pdfjs.VerbosityLevel.ERRORS));
  try {
    const document = await task.promise;
    const pages = document.numPages;
    if (pages < 1) return undefined;
    // pdf.js checks the page tree's /Count against its kids; loading the first and last page
    // proves the tree leads to real page objects without walking every page of a huge file.
    await document.getPage(1);
    await document.getPage(pages);
    return pages;
  } catch {
    return undefined;
  } finally {
    await task.destroy();
  }
}
