// Scores requests that arrive together in one session run, as model servers batch dynamically.
//
// onnxruntime-node runs a session on the main thread, in a later turn of the event loop
// (setImmediate). So, instead of one run per request, requests are queued, and the queue is
// scored on the next check phase: every request whose body was read in the same turn shares
// one run, and the per-run cost (tensors, the native call, the graph's fixed work) is paid once.
// A lone request waits for nothing but that turn, as it did with a run of its own.
//
// Only requests of the same grid width share a run: a row's softmax then sees exactly the cells
// it sees alone, so a request's answers are the same bits whether it was batched or not.
import { packRequests, type ProbeVectors, type ScoringRequest } from './batch.ts';
import type { ScoringOutputs, ScoringSession } from './session.ts';

/** Enough to amortise a run many times over, while a run stays well under a millisecond. */
export const MAX_BATCH_REQUESTS = 32;

/** A request's share of a run: the run's outputs and the first of the request's rows. */
export interface ScoredRows {
  outputs: ScoringOutputs;
  firstRow: number;
}

export interface BatchingScorer {
  score(request: ScoringRequest): Promise<ScoredRows>;
  readonly stats: { readonly requests: number; readonly runs: number };
}

interface Waiting {
  request: ScoringRequest;
  resolve(rows: ScoredRows): void;
  reject(error: unknown): void;
}

const widthOf = (request: ScoringRequest): number => Math.max(...request.rows.map((cells) => cells.length));

export function createBatchingScorer(
  session: ScoringSession,
  temperature: number,
  probeVectors: ProbeVectors,
  maxRequests = MAX_BATCH_REQUESTS,
): BatchingScorer {
  let queue: Waiting[] = [];
  let scheduled = false;
  let requests = 0;
  let runs = 0;

  async function run(waiting: Waiting[]): Promise<void> {
    runs += 1;
    try {
      const batch = packRequests(
        waiting.map((item) => item.request),
        temperature,
        probeVectors,
      );
      const outputs = await session.run(batch);
      waiting.forEach((item, index) => item.resolve({ outputs, firstRow: batch.firstRows[index]! }));
    } catch (error) {
      for (const item of waiting) item.reject(error);
    }
  }

  function flush(): void {
    scheduled = false;
    const waiting = queue;
    queue = [];
    const byWidth = new Map<number, Waiting[]>();
    for (const item of waiting) {
      const width = widthOf(item.request);
      const group = byWidth.get(width);
      if (group) group.push(item);
      else byWidth.set(width, [item]);
    }
    for (const group of byWidth.values()) {
      for (let start = 0; start < group.length; start += maxRequests) void run(group.slice(start, start + maxRequests));
    }
  }

  return {
    score(request) {
      if (request.rows.length === 0 || widthOf(request) === 0) return Promise.reject(new Error('A request needs at least one row with one cell'));
      requests += 1;
      return new Promise<ScoredRows>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    stats: {
      get requests() {
        return requests;
      },
      get runs() {
        return runs;
      },
    },
  };
}
