// How pdf.js is loaded, and the options every pdf.js document is opened with, here and in the PDF
// reading worker (reading/pdf-worker.mjs, plain JavaScript because Node runs it as is in a worker
// thread). Uploads are untrusted and their content must never reach a log: everything that could
// evaluate code, load fonts or other files, fetch or log is switched off.

/** @type {Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined} */
let pdfjsLoading;

/**
 * pdf.js's legacy build (the one for Node), loaded once on first use: it is large, and most servers
 * never see a PDF before they need to be up. The build carries core-js, which replaces the
 * process's JSON.stringify and JSON.parse wherever JSON.rawJSON is missing (Node before 21): its
 * JSON.stringify calls a replacer on every value and re-reads its own output character by
 * character, so that after the first PDF every response body and every report of the process took
 * 3 to 11 times as long to write, and its JSON.parse parses in JavaScript when given a reviver.
 * pdf.js uses neither JSON.rawJSON nor source text access: the native functions are put back. In
 * Node, pdf.js parses in the calling thread with its "fake worker", whose module (with a copy of
 * core-js of its own) it would import at the first document: it is imported here, before the
 * functions are put back. Evaluated, it registers itself (globalThis.pdfjsWorker), which pdf.js
 * then uses instead of importing it.
 * @returns {Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')>}
 */
export function loadPdfJs() {
  if (!pdfjsLoading) {
    const { stringify, parse } = JSON;
    pdfjsLoading = Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')])
      .then(([pdfjs]) => pdfjs)
      .finally(() => {
        JSON.stringify = stringify;
        JSON.parse = parse;
      });
  }
  return pdfjsLoading;
}

/**
 * @param {Uint8Array} data the file; pdf.js takes ownership of (detaches) the buffer it is given
 * @param {number} errorsOnly pdf.js's VerbosityLevel.ERRORS
 */
export function safePdfSource(data, errorsOnly) {
  return {
    data,
    verbosity: errorsOnly,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    useWasm: false,
    enableXfa: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    stopAtErrors: true,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
  };
}
