// Optical character recognition with tesseract.js: a small pool of tesseract workers (each one a
// worker thread running Tesseract compiled to WebAssembly), created on the first picture and
// reused, so the main thread only hands pictures over and receives text.
//
// - Nothing is downloaded: the engine comes from the installed tesseract.js-core, the English
//   model from the installed @tesseract.js-data/eng (its 4.0.0_best_int LSTM model: the smaller
//   and faster of the two it ships), and tesseract's own cache of the model is switched off
//   (cacheMethod 'none'), so it writes nothing to the working directory either.
// - Bounded concurrency: at most `workers` pictures are read at once; the others wait in order.
// - Time limit: every picture carries its asset's deadline. One that is still waiting at its
//   deadline is not started; one still being read is abandoned and its worker terminated (a
//   Tesseract run cannot be interrupted any other way) and replaced by a new one when needed.
// - Memory (memory-limits.ts): a picture whose header declares more than `maxPixels` is not
//   read ('over-limit'); the others are read under the server's decode budget, reserving what
//   OCR of their declared size may take. A worker that read a large picture is ended after it
//   (WebAssembly memory only grows: the worker would keep its peak), and idle workers end after
//   `idleMs` or when the budget's watchdog asks.
// - Nothing logs: tesseract.js's logger and error handler are silenced, the engine's own prints
//   too (its worker thread runs ocr-worker.mjs), and a failure is reported by kind only, never
//   with the engine's message (it could quote the picture's text).
// - A PNG is read without its metadata chunks (png-metadata.ts): the engine refused a large one.
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { declaredImageSize, IDLE_WORKER_MS, isGreyPicture, limitMessages, MAX_IMAGE_PIXELS, ocrEstimate } from '../memory-limits.ts';
import { createDecodeBudget, type DecodeBudget } from './decode-budget.ts';
import { withoutPngMetadata } from './png-metadata.ts';

export type OcrOutcome = { text: string } | { failure: 'unreadable' | 'timed-out' } | { failure: 'over-limit'; message: string };

export interface OcrPool {
  /**
   * Reads the words in a PNG, JPEG or WebP picture, unless `deadline` (ms since the epoch) passes
   * first. Under the decode budget, or, given `within`, under a reservation its caller holds (a
   * PDF's, for its rendered pages), which aborts the read with it.
   */
  recognise(picture: Uint8Array, deadline: number, within?: AbortSignal): Promise<OcrOutcome>;
  /** Terminates every worker; pictures still waiting get 'timed-out'. */
  close(): Promise<void>;
}

export interface OcrPoolOptions {
  /** How many pictures are read at once (one worker thread each). */
  workers: number;
  /** The server's decode budget (a pool of its own by default). */
  budget?: DecodeBudget;
  /** Pictures declaring more pixels are not read (default MAX_IMAGE_PIXELS). */
  maxPixels?: number;
  /** A worker whose picture's estimate (memory-limits.ts ocrEstimate) passed this is ended after it (default 96 MiB). */
  recycleAboveBytes?: number;
  /** Idle workers end after this long (default IDLE_WORKER_MS). */
  idleMs?: number;
}

type Waiter = (worker: TesseractWorker | undefined) => void;

/** The installed English model's folder: nothing is fetched at run time. */
function englishModelPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** tesseract.js's worker script, started with the thread's console silenced. */
const WORKER_PATH = fileURLToPath(new URL('./ocr-worker.mjs', import.meta.url));

async function startWorker(): Promise<TesseractWorker> {
  const tesseract = await import('tesseract.js');
  const createWorker = tesseract.createWorker ?? (tesseract as unknown as { default: typeof tesseract }).default.createWorker;
  return createWorker('eng', tesseract.OEM?.LSTM_ONLY ?? 1, {
    workerPath: WORKER_PATH,
    langPath: englishModelPath(),
    gzip: true,
    cacheMethod: 'none',
    cachePath: tmpdir(),
    logger: () => undefined,
    errorHandler: () => undefined,
  });
}

function timeLeft(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

export function createOcrPool(options: OcrPoolOptions): OcrPool {
  const budget = options.budget ?? createDecodeBudget();
  const maxPixels = options.maxPixels ?? MAX_IMAGE_PIXELS;
  const recycleAboveBytes = options.recycleAboveBytes ?? 96 * 1024 * 1024;
  const idleMs = options.idleMs ?? IDLE_WORKER_MS;
  const idle: TesseractWorker[] = [];
  const idleTimers = new Map<TesseractWorker, NodeJS.Timeout>();
  const waiting: Waiter[] = [];
  let started = 0;
  let closed = false;

  /** Ends a worker that is not reading: its slot is free for a fresh one. */
  function end(worker: TesseractWorker): void {
    clearTimeout(idleTimers.get(worker));
    idleTimers.delete(worker);
    void worker.terminate().catch(() => undefined);
    started -= 1;
  }

  function endIdle(): void {
    for (const worker of idle.splice(0)) end(worker);
  }
  // The budget may be the process's, outliving this pool: close() takes the releaser back.
  const stopReleasing = budget.onPressure(endIdle);

  /** A worker for the next picture: an idle one, a new one while under the limit, or the next one released. */
  function acquire(deadline: number): Promise<TesseractWorker | undefined> {
    const worker = idle.pop();
    if (worker) {
      clearTimeout(idleTimers.get(worker));
      idleTimers.delete(worker);
      return Promise.resolve(worker);
    }
    if (started < options.workers) {
      started += 1;
      return startWorker().catch(() => {
        started -= 1;
        return undefined;
      });
    }
    return new Promise((resolve) => {
      const waiter: Waiter = (next) => {
        clearTimeout(timer);
        resolve(next);
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        resolve(undefined);
      }, timeLeft(deadline));
      waiting.push(waiter);
    });
  }

  function release(worker: TesseractWorker): void {
    if (closed) {
      void worker.terminate().catch(() => undefined);
      return;
    }
    const next = waiting.shift();
    if (next) {
      next(worker);
      return;
    }
    idle.push(worker);
    const timer = setTimeout(() => {
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      end(worker);
    }, idleMs);
    timer.unref();
    idleTimers.set(worker, timer);
  }

  /** A worker that was abandoned or grew large: its slot goes to the next waiter, which starts a fresh worker. */
  function discard(worker: TesseractWorker): void {
    end(worker);
    const next = waiting.shift();
    if (next) {
      started += 1;
      startWorker().then(next, () => {
        started -= 1;
        next(undefined);
      });
    }
  }

  async function recogniseNow(picture: Uint8Array, deadline: number, signal: AbortSignal, recycle: boolean): Promise<OcrOutcome> {
    const worker = await acquire(deadline);
    if (!worker) return { failure: 'timed-out' };
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), timeLeft(deadline));
      onAbort = () => resolve('expired');
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      // tesseract.js may detach the buffer it is given: it gets a copy (a PNG without metadata is one already).
      const reading = worker.recognize(withoutPngMetadata(picture) ?? Buffer.from(picture), {}, { text: true }).then(
        (result) => ({ text: result.data.text }),
        () => ({ failure: 'unreadable' as const }),
      );
      const result = await Promise.race([reading, stopped]);
      if (result === 'expired') {
        discard(worker);
        return { failure: 'timed-out' };
      }
      if (recycle) discard(worker);
      else release(worker);
      return result;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    async recognise(picture, deadline, within) {
      if (closed || timeLeft(deadline) <= 0) return { failure: 'timed-out' };
      const size = declaredImageSize(picture);
      const pixels = size ? size.width * size.height : 0;
      if (size && pixels > maxPixels) return { failure: 'over-limit', message: limitMessages.imagePixels(size.width, size.height) };
      const estimate = ocrEstimate(pixels, isGreyPicture(picture));
      if (within) return recogniseNow(picture, deadline, within, estimate > recycleAboveBytes);
      const step = await budget.run(estimate, deadline, (signal) => recogniseNow(picture, deadline, signal, estimate > recycleAboveBytes));
      if ('value' in step) return step.value;
      return step.failure === 'over-memory' ? { failure: 'over-limit', message: limitMessages.memory() } : { failure: 'timed-out' };
    },

    async close() {
      closed = true;
      stopReleasing();
      for (const waiter of waiting.splice(0)) waiter(undefined);
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      await Promise.all(idle.splice(0).map((worker) => worker.terminate().catch(() => undefined)));
    },
  };
}
