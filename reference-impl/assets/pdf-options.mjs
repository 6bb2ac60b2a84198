// The options every pdf.js document is opened with, here and in the PDF reading worker
// (reading/pdf-worker.mjs, plain JavaScript because Node runs it as is in a worker thread).
// Uploads are untrusted and their content must never reach a log: everything that could evaluate
// code, load fonts or other files, fetch or log is switched off.

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
