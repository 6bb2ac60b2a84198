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
// - Nothing logs: tesseract.js's logger and error handler are silenced, and a failure is reported
//   by kind only, never with the engine's message (it could quote the picture's text).
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Worker as TesseractWorker } from 'tesseract.js';

export type OcrOutcome = { text: string } | { failure: 'unreadable' | 'timed-out' };

export interface OcrPool {
  /** Reads the words in a PNG, JPEG or WebP picture, unless `deadline` (ms since the epoch) passes first. */
  recognise(picture: Uint8Array, deadline: number): Promise<OcrOutcome>;
  /** Terminates every worker; pictures still waiting get 'timed-out'. */
  close(): Promise<void>;
}

export interface OcrPoolOptions {
  /** How many pictures are read at once (one worker thread each). */
  workers: number;
}

type Waiter = (worker: TesseractWorker | undefined) => void;

/** The installed English model's folder: nothing is fetched at run time. */
function englishModelPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

async function startWorker(): Promise<TesseractWorker> {
  const tesseract = await import('tesseract.js');
  const createWorker = tesseract.createWorker ?? (tesseract as unknown as { default: typeof tesseract }).default.createWorker;
  return createWorker('eng', tesseract.OEM?.LSTM_ONLY ?? 1, {
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
  const idle: TesseractWorker[] = [];
  const waiting: Waiter[] = [];
  let started = 0;
  let closed = false;

  /** A worker for the next picture: an idle one, a new one while under the limit, or the next one released. */
  function acquire(deadline: number): Promise<TesseractWorker | undefined> {
    const worker = idle.pop();
    if (worker) return Promise.resolve(worker);
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
    if (next) next(worker);
    else idle.push(worker);
  }

  /** A worker that was abandoned: its slot goes to the next waiter, which starts a fresh worker. */
  function discard(worker: TesseractWorker): void {
    void worker.terminate().catch(() => undefined);
    started -= 1;
    const next = waiting.shift();
    if (next) {
      started += 1;
      startWorker().then(next, () => {
        started -= 1;
        next(undefined);
      });
    }
  }

  return {
    async recognise(picture, deadline) {
      if (closed || timeLeft(deadline) <= 0) return { failure: 'timed-out' };
      const worker = await acquire(deadline);
      if (!worker) return { failure: 'timed-out' };
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        timer = setTimeout(() => resolve('expired'), timeLeft(deadline));
      });
      try {
        // tesseract.js may detach the buffer it is given: it gets a copy.
        const reading = worker.recognize(Buffer.from(picture), {}, { text: true }).then(
          (result) => ({ text: result.data.text }),
          () => ({ failure: 'unreadable' as const }),
        );
        const result = await Promise.race([reading, expired]);
        if (result === 'expired') {
          discard(worker);
          return { failure: 'timed-out' };
        }
        release(worker);
        return result;
      } finally {
        clearTimeout(timer);
      }
    },

    async close() {
      closed = true;
      for (const waiter of waiting.splice(0)) waiter(undefined);
      await Promise.all(idle.splice(0).map((worker) => worker.terminate().catch(() => undefined)));
    },
  };
}
