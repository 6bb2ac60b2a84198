// PDF reading off the main thread: one worker thread (pdf-worker.mjs), started on the first PDF
// and kept, reading one PDF at a time in the order asked. Each page comes back as its text layer
// or, for a page without one (a scan), as a rendered picture for OCR.
//
// Time limit: a PDF still waiting at its deadline is not started; one still being read is
// abandoned and the worker terminated (pdf.js cannot be interrupted any other way); the next PDF
// starts a new worker.
import { Worker } from 'node:worker_threads';

export type PdfPage = { text: string } | { image: Uint8Array };
export type PdfOutcome = { pages: PdfPage[] } | { failure: 'undecodable' | 'timed-out' };

export interface PdfReader {
  read(bytes: Uint8Array, deadline: number): Promise<PdfOutcome>;
  close(): Promise<void>;
}

export interface PdfReaderOptions {
  /** The pixel budget of one rendered page (width × height). */
  maxPagePixels: number;
}

interface WorkerReply {
  id: number;
  pages?: PdfPage[];
  failure?: 'undecodable';
}

const workerUrl = new URL('./pdf-worker.mjs', import.meta.url);

export function createPdfReader(options: PdfReaderOptions): PdfReader {
  let worker: Worker | undefined;
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  function currentWorker(): Worker {
    if (!worker) {
      worker = new Worker(workerUrl);
      // An idle reader does not keep the process alive; close() ends it.
      worker.unref();
    }
    return worker;
  }

  function stop(): void {
    if (!worker) return;
    void worker.terminate().catch(() => undefined);
    worker = undefined;
  }

  function readNow(bytes: Uint8Array, deadline: number): Promise<PdfOutcome> {
    const remaining = deadline - Date.now();
    if (closed || remaining <= 0) return Promise.resolve({ failure: 'timed-out' });
    const thread = currentWorker();
    const id = nextId++;
    return new Promise<PdfOutcome>((resolve) => {
      const finish = (outcome: PdfOutcome): void => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onCrash);
        thread.off('exit', onCrash);
        resolve(outcome);
      };
      const onMessage = (reply: WorkerReply): void => {
        if (reply.id !== id) return;
        finish(reply.pages ? { pages: reply.pages } : { failure: 'undecodable' });
      };
      // A crash (out of memory on a hostile file, say) is the file's doing: it cannot be read.
      const onCrash = (): void => {
        if (worker === thread) worker = undefined;
        finish({ failure: 'undecodable' });
      };
      const timer = setTimeout(() => {
        stop();
        finish({ failure: 'timed-out' });
      }, remaining);
      thread.on('message', onMessage);
      thread.once('error', onCrash);
      thread.once('exit', onCrash);
      // A copy, transferred: the caller keeps its bytes, and nothing is copied twice.
      const copy = new Uint8Array(bytes);
      thread.postMessage({ id, bytes: copy, maxPagePixels: options.maxPagePixels }, [copy.buffer]);
    });
  }

  return {
    read(bytes, deadline) {
      const outcome = queue.then(() => readNow(bytes, deadline));
      queue = outcome.catch(() => undefined);
      return outcome;
    },
    async close() {
      closed = true;
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate().catch(() => undefined);
    },
  };
}
