// The PDF reading worker (a worker thread; plain JavaScript, because Node runs it as is whether
// the server runs from its sources or from the bundle). pdf.js has no real worker in Node and
// parses and renders on the thread that calls it, so a big PDF would stall every request on the
// main thread; here it stalls only this thread.
//
// Messages in, each answered by one message with the same id:
//   { id, type: 'open', bytes, maxPagePixels, maxImagePixels, maxPages, maxTextChars }
//        → { id, pages }                     the pages to read (at most maxPages)
//   { id, type: 'page', number }            → { id, page: { text } | { image } }: a page with a text
//        layer gives its text; a page without one (a scan) is rendered to a grey PNG for OCR
//   { id, type: 'close' }                   (no answer) forgets the file
// or { id, failure: 'undecodable' } when pdf.js cannot read the file, { id, failure: 'over-limit',
// limit: 'text' } when the text read passes maxTextChars. An image whose dictionary declares more
// than maxImagePixels is left out of the page (pdf.js's maxImageSize, checked before decoding; it
// says nothing of it): the images a scan of the file can see were refused before it got here
// (pdf-images.ts), this catches those it cannot (inline images inside compressed content).
// Nothing here logs: the file's content, its text and its pictures stay inside the messages.
import { crc32, deflateSync } from 'node:zlib';
import { parentPort } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { loadPdfJs, safePdfSource } from '../pdf-options.mjs';

/** Scans are rendered at up to 300 dpi (72 dpi is scale 1): enough for OCR of 8-pt text. */
const MAX_RENDER_SCALE = 300 / 72;

/**
 * @typedef {{ task: import('pdfjs-dist/types/src/display/api').PDFDocumentLoadingTask, document: import('pdfjs-dist/types/src/display/api').PDFDocumentProxy, maxPagePixels: number, maxTextChars: number, textChars: number }} OpenFile
 * @type {Map<number, OpenFile>}
 */
const files = new Map();

class TextLimit extends Error {}

/**
 * A page's text layer as lines: pdf.js marks the end of each line with hasEOL. Read as a stream,
 * so that a page whose content inflates to gigabytes stops at the file's text limit.
 * @param {import('pdfjs-dist/types/src/display/api').PDFPageProxy} page
 * @param {OpenFile} file
 */
async function pageText(page, file) {
  let text = '';
  const reader = page.streamTextContent().getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const item of value.items) {
      // Marked-content items carry no string.
      if (!('str' in item) || typeof item.str !== 'string') continue;
      text += item.str;
      text += item.hasEOL ? '\n' : item.str === '' ? '' : ' ';
      if (file.textChars + text.length > file.maxTextChars) {
        await reader.cancel();
        throw new TextLimit();
      }
    }
  }
  text = text.replace(/[ \t]+\n/g, '\n').trim();
  file.textChars += text.length;
  return text;
}

const pngSignature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** @param {string} type @param {Uint8Array} data */
function pngChunk(type, data) {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  chunk.set(data, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/** Rows converted to grey at a time: the page's pixels are never copied out whole. */
const BAND_ROWS = 128;

/**
 * The canvas as an 8-bit grey PNG (Rec. 601 luma), read in bands of rows: OCR reads grey, and
 * tesseract keeps half the memory for it that it keeps for colour.
 * @param {import('@napi-rs/canvas').SKRSContext2D} context @param {number} width @param {number} height
 */
function greyPng(context, width, height) {
  const rows = new Uint8Array((width + 1) * height);
  for (let top = 0, at = 0; top < height; top += BAND_ROWS) {
    const band = context.getImageData(0, top, width, Math.min(BAND_ROWS, height - top)).data;
    for (let from = 0; from < band.length; ) {
      rows[at++] = 0; // filter: none
      for (let x = 0; x < width; x += 1, from += 4)
        rows[at++] = ((band[from] ?? 0) * 299 + (band[from + 1] ?? 0) * 587 + (band[from + 2] ?? 0) * 114 + 500) / 1000;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 0, 0, 0, 0], 8);
  // A copy with a buffer of its own, which can be transferred (Buffer.concat may hand out a slice of Node's pool).
  return new Uint8Array(
    Buffer.concat([pngSignature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows, { level: 6 })), pngChunk('IEND', new Uint8Array(0))]),
  );
}

/**
 * The page as a grey PNG on white, as large as the pixel budget allows up to MAX_RENDER_SCALE.
 * @param {import('pdfjs-dist/types/src/display/api').PDFPageProxy} page
 * @param {number} maxPagePixels
 */
async function renderPage(page, maxPagePixels) {
  const unit = page.getViewport({ scale: 1 });
  const scale = Math.min(MAX_RENDER_SCALE, Math.sqrt(maxPagePixels / (unit.width * unit.height)));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.min(Math.floor(viewport.width), maxPagePixels));
  const height = Math.max(1, Math.min(Math.floor(viewport.height), Math.floor(maxPagePixels / width)));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // @napi-rs/canvas draws with the part of the canvas API pdf.js uses, but is typed as its own
  // classes, not as the DOM's HTMLCanvasElement and CanvasRenderingContext2D pdf.js declares.
  /** @typedef {import('pdfjs-dist/types/src/display/api').RenderParameters} RenderParameters */
  const domCanvas = /** @type {RenderParameters['canvas']} */ (/** @type {unknown} */ (canvas));
  const domContext = /** @type {RenderParameters['canvasContext']} */ (/** @type {unknown} */ (context));
  await page.render({ canvasContext: domContext, canvas: domCanvas, viewport }).promise;
  const png = greyPng(context, width, height);
  // Gives the canvas's pixels back now rather than when the collector finds the canvas.
  canvas.width = 1;
  canvas.height = 1;
  return png;
}

/**
 * @param {number} id
 * @param {{ bytes: Uint8Array, maxPagePixels: number, maxImagePixels: number, maxPages: number, maxTextChars: number }} request
 */
async function open(id, request) {
  const pdfjs = await loadPdfJs();
  // maxImageSize: pdf.js checks each image's declared size before decoding it, and leaves out larger ones.
  const task = pdfjs.getDocument({ ...safePdfSource(request.bytes, pdfjs.VerbosityLevel.ERRORS), maxImageSize: request.maxImagePixels });
  try {
    const document = await task.promise;
    files.set(id, { task, document, maxPagePixels: request.maxPagePixels, maxTextChars: request.maxTextChars, textChars: 0 });
    return { id, pages: Math.min(document.numPages, request.maxPages) };
  } catch {
    await task.destroy();
    return { id, failure: 'undecodable' };
  }
}

/** @param {number} id @param {number} number */
async function readPage(id, number) {
  const file = files.get(id);
  if (!file || number < 1 || number > file.document.numPages) return { id, failure: 'undecodable' };
  try {
    const page = await file.document.getPage(number);
    try {
      const text = await pageText(page, file);
      // A text layer with no letter or digit (stray spaces, a page number drawn as a path) is no
      // text layer: the words, if any, are in the picture.
      if (/[\p{L}\p{N}]/u.test(text)) return { id, page: { text } };
      return { id, page: { image: await renderPage(page, file.maxPagePixels) } };
    } finally {
      page.cleanup();
    }
  } catch (error) {
    return error instanceof TextLimit ? { id, failure: 'over-limit', limit: 'text' } : { id, failure: 'undecodable' };
  }
}

const port = parentPort;
if (!port) throw new Error('pdf-worker.mjs runs as a worker thread (new Worker), not as a script of its own');
port.on('message', async (/** @type {{ id: number, type: 'open' | 'page' | 'close', number?: number } & Parameters<typeof open>[1]} */ message) => {
  const { id, type } = message;
  if (type === 'close') {
    const file = files.get(id);
    files.delete(id);
    await file?.task.destroy();
    return;
  }
  const reply = type === 'open' ? await open(id, message) : await readPage(id, message.number ?? 0);
  const image = 'page' in reply && reply.page && 'image' in reply.page ? reply.page.image : undefined;
  port.postMessage(reply, image ? [/** @type {ArrayBuffer} */ (image.buffer)] : []);
});
