// pdfjs-dist ships no declarations for its worker module, which assets/pdf-options.mjs imports
// only for its effect (it registers itself as globalThis.pdfjsWorker).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
