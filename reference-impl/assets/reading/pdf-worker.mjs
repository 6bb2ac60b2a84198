// The PDF reading worker (a worker thread; plain JavaScript, because Node runs it as is whether
// the server runs from its sources or from the bundle). pdf.js has no real worker in Node and
// parses and renders on the thread that calls it, so a big PDF would stall every request on the
// main thread; here it stalls only this thread.
//
// Message in:  { id, bytes: Uint8Array, maxPagePixels: number }
// Message out: { id, pages: Array<{ text: string } | { image: Uint8Array<ArrayBuffer> }> } — a page with a text
//              layer gives its text; a page without one (a scan) is rendered to a PNG for OCR —
//              or { id, failure: 'undecodable' } when pdf.js cannot read the file.
// Nothing here logs: the file's content, its text and its pictures stay inside the messages.
import { parentPort } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { safePdfSource } from '../pdf-options.mjs';

/** Scans are rendered at up to 300 dpi (72 dpi is scale 1): enough for OCR of 8-pt text. */
const MAX_RENDER_SCALE = 300 / 72;

/** @type {Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined} */
let pdfjsLoading;

/**
 * A page's text layer as lines: pdf.js marks the end of each line with hasEOL.
 * @param {import('pdfjs-dist/types/src/display/api').TextContent} content
 */
function pageText(content) {
  let text = '';
  for (const item of content.items) {
    // Marked-content items carry no string.
    if (!('str' in item) || typeof item.str !== 'string') continue;
    text += item.str;
    text += item.hasEOL ? '\n' : item.str === '' ? '' : ' ';
  }
  return text.replace(/[ \t]+\n/g, '\n').trim();
}

/**
 * The page as a PNG on white, as large as the pixel budget allows up to MAX_RENDER_SCALE.
 * @param {import('pdfjs-dist/types/src/display/api').PDFPageProxy} page
 * @param {number} maxPagePixels
 */
async function renderPage(page, maxPagePixels) {
  const unit = page.getViewport({ scale: 1 });
  const scale = Math.min(MAX_RENDER_SCALE, Math.sqrt(maxPagePixels / (unit.width * unit.height)));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // @napi-rs/canvas draws with the part of the canvas API pdf.js uses, but is typed as its own
  // classes, not as the DOM's HTMLCanvasElement and CanvasRenderingContext2D pdf.js declares.
  /** @typedef {import('pdfjs-dist/types/src/display/api').RenderParameters} RenderParameters */
  const domCanvas = /** @type {RenderParameters['canvas']} */ (/** @type {unknown} */ (canvas));
  const domContext = /** @type {RenderParameters['canvasContext']} */ (/** @type {unknown} */ (context));
  await page.render({ canvasContext: domContext, canvas: domCanvas, viewport }).promise;
  return new Uint8Array(await canvas.encode('png'));
}

/**
 * @param {Uint8Array} bytes
 * @param {number} maxPagePixels
 * @returns {Promise<{ pages: Array<{ text: string } | { image: Uint8Array<ArrayBuffer> }>, failure?: undefined } | { pages?: undefined, failure: 'undecodable' }>}
 */
async function readPdf(bytes, maxPagePixels) {
  pdfjsLoading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjs = await pdfjsLoading;
  const task = pdfjs.getDocument(safePdfSource(bytes, pdfjs.VerbosityLevel.ERRORS));
  try {
    const document = await task.promise;
    /** @type {Array<{ text: string } | { image: Uint8Array<ArrayBuffer> }>} */
    const pages = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const text = pageText(await page.getTextContent());
      // A text layer with no letter or digit (stray spaces, a page number drawn as a path) is no
      // text layer: the words, if any, are in the picture.
      pages.push(/[\p{L}\p{N}]/u.test(text) ? { text } : { image: await renderPage(page, maxPagePixels) });
      page.cleanup();
    }
    return { pages };
  } catch {
    return { failure: 'undecodable' };
  } finally {
    await task.destroy();
  }
}

const port = parentPort;
if (!port) throw new Error('pdf-worker.mjs runs as a worker thread (new Worker), not as a script of its own');
port.on('message', async (/** @type {{ id: number, bytes: Uint8Array, maxPagePixels: number }} */ { id, bytes, maxPagePixels }) => {
  const result = await readPdf(bytes, maxPagePixels);
  const transfer = (result.pages ?? []).flatMap((page) => ('image' in page ? [page.image.buffer] : []));
  port.postMessage({ id, ...result }, transfer);
});
