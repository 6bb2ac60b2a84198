// PDF reading off the main thread: one worker thread (pdf-worker.mjs), started on the first PDF,
// reading one PDF at a time in the order asked, one page at a time: each page comes back as its
// text layer or, for a page without one (a scan), as a rendered grey picture for OCR, which the
// caller reads before the next page is asked for, so at most one rendered page is held.
//
// Memory (memory-limits.ts): the worker opens files with pdf.js's maxImageSize, so an image whose
// dictionary declares more than `maxImagePixels` is left out instead of decoded (the caller has
// refused the files whose images it can see, pdf-images.ts); pages render within `maxPagePixels`; at most `maxPages` pages and MAX_READ_TEXT_CHARS
// of text are read. Each page is read under the server's decode budget, reserving what drawing
// the file's largest declared image and the page's canvas may take. The worker ends when idle
// for `idleMs`, or when the budget's watchdog asks.
//
// Time limit: a PDF still waiting at its deadline is not started; one still being read is
// abandoned and the worker terminated (pdf.js cannot be interrupted any other way); the next PDF
// starts a new worker.
import { Worker } from 'node:worker_threads';
import { IDLE_WORKER_MS, limitMessages, MAX_PDF_IMAGE_PIXELS, MAX_PDF_RENDER_PIXELS, MAX_READ_TEXT_CHARS } from '../memory-limits.ts';
import type { DecodeBudget } from './decode-budget.ts';

export type PdfPage = { text: string } | { image: Uint8Array };
export type PdfFailure = { failure: 'undecodable' | 'timed-out' } | { failure: 'over-limit'; message: string };
export type PdfOutcome = { pages: number } | PdfFailure;

export interface PdfReader {
  /**
   * Reads the pages in order, handing each to `onPage`, which is awaited before the next page is
   * read; a failure it returns ends the read with that failure. `signal` (the decode budget's)
   * ends the worker and the read ('timed-out').
   */
  read(bytes: Uint8Array, deadline: number, onPage: (page: PdfPage) => Promise<PdfFailure | undefined>, signal?: AbortSignal): Promise<PdfOutcome>;
  close(): Promise<void>;
}

export interface PdfReaderOptions {
  /** The pixel budget of one rendered page (width × height). */
  maxPagePixels?: number;
  /** Images declaring more pixels fail the file. */
  maxImagePixels?: number;
  /** Pages read at most (the seed's 20: larger files are refused at upload). */
  maxPages?: number;
  /** The decode budget: its watchdog may ask an idle worker to end. */
  budget?: DecodeBudget;
  idleMs?: number;
}

type WorkerReply =
  | { id: number; pages: number }
  | { id: number; page: PdfPage }
  | { id: number; failure: 'undecodable' }
  | { id: number; failure: 'over-limit'; limit: 'text' };

const workerUrl = new URL('./pdf-worker.mjs', import.meta.url);
const PAGE_LIMIT = 20;

export function createPdfReader(options: PdfReaderOptions = {}): PdfReader {
  const limits = {
    maxPagePixels: options.maxPagePixels ?? MAX_PDF_RENDER_PIXELS,
    maxImagePixels: options.maxImagePixels ?? MAX_PDF_IMAGE_PIXELS,
    maxPages: options.maxPages ?? PAGE_LIMIT,
    maxTextChars: MAX_READ_TEXT_CHARS,
  };
  const idleMs = options.idleMs ?? IDLE_WORKER_MS;
  let worker: Worker | undefined;
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  let busy = false;
  let idleTimer: NodeJS.Timeout | undefined;

  function currentWorker(): Worker {
    clearTimeout(idleTimer);
    if (!worker) {
      worker = new Worker(workerUrl);
      // An idle reader does not keep the process alive; close() ends it.
      worker.unref();
    }
    return worker;
  }

  function stop(): void {
    clearTimeout(idleTimer);
    if (!worker) return;
    void worker.terminate().catch(() => undefined);
    worker = undefined;
  }

  // The budget may be the process's, outliving this reader: close() takes the releaser back.
  const stopReleasing = options.budget?.onPressure(() => {
    if (!busy) stop();
  });

  /** One request to the worker, answered by the reply with its id; 'stopped' when the worker ended or `signal` aborted first. */
  function ask(thread: Worker, message: { id: number } & Record<string, unknown>, signal: AbortSignal, deadline: number, transfer: ArrayBuffer[] = []) {
    return new Promise<WorkerReply | 'stopped' | 'timed-out'>((resolve) => {
      const finish = (reply: WorkerReply | 'stopped' | 'timed-out'): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        thread.off('message', onMessage);
        thread.off('error', onCrash);
        thread.off('exit', onCrash);
        resolve(reply);
      };
      const onMessage = (reply: WorkerReply): void => {
        if (reply.id === message.id) finish(reply);
      };
      // A crash (out of memory on a hostile file, say) is the file's doing: it cannot be read.
      const onCrash = (): void => {
        if (worker === thread) worker = undefined;
        finish('stopped');
      };
      const onAbort = (): void => {
        if (worker === thread) stop();
        finish('stopped');
      };
      const timer = setTimeout(
        () => {
          if (worker === thread) stop();
          finish('timed-out');
        },
        Math.max(0, deadline - Date.now()),
      );
      signal.addEventListener('abort', onAbort, { once: true });
      thread.on('message', onMessage);
      thread.once('error', onCrash);
      thread.once('exit', onCrash);
      thread.postMessage(message, transfer);
    });
  }

  async function readNow(
    bytes: Uint8Array,
    deadline: number,
    onPage: (page: PdfPage) => Promise<PdfFailure | undefined>,
    signal: AbortSignal,
  ): Promise<PdfOutcome> {
    if (closed || signal.aborted || deadline - Date.now() <= 0) return { failure: 'timed-out' };
    const id = nextId++;
    const failed = (reply: WorkerReply): PdfFailure | undefined => {
      if (!('failure' in reply)) return undefined;
      return reply.failure === 'undecodable' ? { failure: 'undecodable' } : { failure: 'over-limit', message: limitMessages.text() };
    };
    busy = true;
    const thread = currentWorker();
    let opened = false;
    try {
      // A copy, transferred: the caller keeps its bytes, and nothing is copied twice.
      const copy = new Uint8Array(bytes);
      const open = await ask(thread, { id, type: 'open', bytes: copy, ...limits }, signal, deadline, [copy.buffer]);
      // Stopped without the budget asking: the worker crashed on this file (out of memory, say).
      if (open === 'stopped') return signal.aborted ? { failure: 'timed-out' } : { failure: 'undecodable' };
      if (open === 'timed-out') return { failure: 'timed-out' };
      const refused = failed(open);
      if (refused) return refused;
      opened = true;
      const pages = 'pages' in open ? open.pages : 0;
      for (let number = 1; number <= pages; number += 1) {
        const reply = await ask(thread, { id, type: 'page', number }, signal, deadline);
        if (reply === 'stopped') return signal.aborted ? { failure: 'timed-out' } : { failure: 'undecodable' };
        if (reply === 'timed-out') return { failure: 'timed-out' };
        const failure = failed(reply);
        if (failure) return failure;
        if (!('page' in reply)) return { failure: 'undecodable' };
        const stop = await onPage(reply.page);
        if (stop) return stop;
      }
      return { pages };
    } finally {
      busy = false;
      if (worker === thread) {
        if (opened) thread.postMessage({ id, type: 'close' });
        idleTimer = setTimeout(() => {
          if (!busy && worker === thread) stop();
        }, idleMs);
        idleTimer.unref();
      }
    }
  }

  return {
    read(bytes, deadline, onPage, signal = new AbortController().signal) {
      const outcome = queue.then(() => readNow(bytes, deadline, onPage, signal));
      queue = outcome.catch(() => undefined);
      return outcome;
    },
    async close() {
      closed = true;
      stopReleasing?.();
      clearTimeout(idleTimer);
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate().catch(() => undefined);
    },
  };
}
