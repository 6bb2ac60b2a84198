// The decode budget every reader of the reference server shares (assets/reading/decode-budget.ts):
// steps run at once while their estimates fit and wait in order otherwise; the watchdog lets go of
// idle workers first, then aborts running steps, which are tried again alone; a step that
// overruns alone fails with 'over-memory'. The measure is injected in the scheduling tests: nothing there allocates.
import { describe, expect, test } from 'vitest';
import { createAudioReader } from '../assets/reading/audio.ts';
import { createDecodeBudget, type DecodeBudget, processDecodeBudget, residentOutsideMainHeap } from '../assets/reading/decode-budget.ts';
import { createOcrPool } from '../assets/reading/ocr-pool.ts';
import { createPdfReader } from '../assets/reading/pdf-reader.ts';
import { scannedPdf } from '../../harness/samples/scanned-pdf.ts';
import { call, startServer } from './support/server.ts';

const MiB = 1024 * 1024;
const later = (ms: number) => Date.now() + ms;
const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves when `signal` aborts, or after `ms`. */
const abortedOr = (signal: AbortSignal, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** A step that runs until released, recording when it starts. */
function gatedStep(log: string[], name: string) {
  let release!: (value: string) => void;
  const done = new Promise<string>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(name),
    step: (signal: AbortSignal) => {
      log.push(`start ${name}`);
      signal.addEventListener('abort', () => release(`${name} aborted`));
      return done;
    },
  };
}

describe('scheduling', () => {
  test('steps whose estimates fit run at once; the next waits, in arrival order, until there is room', async () => {
    const budget = createDecodeBudget({ budgetBytes: 100 * MiB, resident: () => 0 });
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => gatedStep(log, name));
    const runs = [
      budget.run(60 * MiB, later(5_000), a!.step),
      budget.run(30 * MiB, later(5_000), b!.step),
      budget.run(50 * MiB, later(5_000), c!.step),
      // Would fit beside a and b, but c came first.
      budget.run(5 * MiB, later(5_000), d!.step),
    ];
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    expect(budget.state).toMatchObject({ reserved: 90 * MiB, running: 2, waiting: 2 });
    a!.release();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
    b!.release();
    c!.release();
    d!.release();
    expect(await Promise.all(runs)).toEqual([{ value: 'a' }, { value: 'b' }, { value: 'c' }, { value: 'd' }]);
    expect(budget.state).toMatchObject({ reserved: 0, running: 0, waiting: 0 });
  });

  test('a step larger than the whole budget runs alone; a step still waiting at its deadline is not started', async () => {
    const budget = createDecodeBudget({ budgetBytes: 100 * MiB, resident: () => 0 });
    const log: string[] = [];
    const big = gatedStep(log, 'big');
    const small = gatedStep(log, 'small');
    const running = budget.run(500 * MiB, later(5_000), big.step);
    const hurried = budget.run(1 * MiB, later(30), small.step);
    await tick(60);
    expect(await hurried).toEqual({ failure: 'timed-out' });
    expect(log).toEqual(['start big']);
    big.release();
    expect(await running).toEqual({ value: 'big' });
  });
});

describe('the watchdog', () => {
  test('over the line: idle workers go first; if that is not enough, running steps are aborted and tried again alone', async () => {
    let rss = 100 * MiB;
    const budget = createDecodeBudget({ budgetBytes: 100 * MiB, watchdogBytes: 50 * MiB, sampleMs: 5, resident: () => rss });
    let releasedIdle = 0;
    budget.onPressure(() => {
      releasedIdle += 1;
    });
    const attempts = { hog: 0, fine: 0 };
    const hog = budget.run(10 * MiB, later(5_000), async (signal) => {
      attempts.hog += 1;
      // Its first attempt overruns, until its worker is ended; alone, it stays within the line.
      if (attempts.hog === 1) rss = 200 * MiB;
      // Until the watchdog ends it (two samples: idle workers first): 20 ms was once too short on a busy machine.
      await abortedOr(signal, attempts.hog === 1 ? 2_000 : 20);
      if (signal.aborted) rss = 100 * MiB;
      return 'hog read';
    });
    const fine = budget.run(10 * MiB, later(5_000), async (signal) => {
      attempts.fine += 1;
      await abortedOr(signal, attempts.fine === 1 ? 2_000 : 20);
      return 'fine read';
    });
    const results = await Promise.all([hog, fine]);
    expect(releasedIdle).toBeGreaterThanOrEqual(1);
    expect(budget.state.aborted).toBe(2);
    expect(attempts).toEqual({ hog: 2, fine: 2 });
    expect(results).toEqual([{ value: 'hog read' }, { value: 'fine read' }]);
  });

  test('a step that overruns while it runs alone fails with over-memory, and the budget is free again', async () => {
    let rss = 100 * MiB;
    const budget = createDecodeBudget({ budgetBytes: 100 * MiB, watchdogBytes: 50 * MiB, sampleMs: 5, resident: () => rss });
    const result = await budget.run(10 * MiB, later(5_000), async (signal) => {
      rss = 300 * MiB;
      await abortedOr(signal, 2_000);
      rss = 100 * MiB; // its worker ended: the memory is back
      return 'never used';
    });
    expect(result).toEqual({ failure: 'over-memory' });
    // Aborted once, then once more alone and measured from its own start: only then is it the file's doing.
    expect(budget.state).toMatchObject({ reserved: 0, running: 0, waiting: 0, aborted: 2 });
    expect(await budget.run(10 * MiB, later(1_000), async () => 'next')).toEqual({ value: 'next' });
  });
});

describe('memory that does not come back', () => {
  test('after an abort, memory the allocator keeps does not fail the retry: alone, a step is judged by its own growth', async () => {
    let rss = 100 * MiB;
    const budget = createDecodeBudget({ budgetBytes: 100 * MiB, watchdogBytes: 50 * MiB, sampleMs: 5, resident: () => rss });
    let attempts = 0;
    const result = await budget.run(10 * MiB, later(5_000), async (signal) => {
      attempts += 1;
      if (attempts === 1) {
        // The first attempt runs up 200 MiB, which stays resident after its worker ends.
        rss = 300 * MiB;
        await abortedOr(signal, 2_000);
        return 'aborted';
      }
      await tick(20);
      return 'read alone';
    });
    expect(result).toEqual({ value: 'read alone' });
    expect(attempts).toBe(2);
  });
});

describe('what the watchdog measures', () => {
  // The server may share its process with a host that grows (a test run embedding it): what the
  // main thread holds must not count as decoding, or ordinary files are refused as over-memory.
  test('memory the main thread holds moves the resident set, not the decoders’ measure', () => {
    const rssBefore = process.memoryUsage.rss();
    const before = residentOutsideMainHeap();
    const held = Buffer.alloc(256 * MiB, 1);
    const strings = Array.from({ length: 400_000 }, (_, index) => `entry ${index} ${'x'.repeat(200)}`);
    const rssGrowth = process.memoryUsage.rss() - rssBefore;
    const measuredGrowth = residentOutsideMainHeap() - before;
    expect(held.length + strings.length).toBeGreaterThan(0);
    expect(rssGrowth).toBeGreaterThan(256 * MiB);
    expect(measuredGrowth).toBeLessThan(64 * MiB);
  });

  test('memory a worker thread holds counts', async () => {
    const { Worker } = await import('node:worker_threads');
    const before = residentOutsideMainHeap();
    const worker = new Worker(
      "const { parentPort } = require('node:worker_threads'); globalThis.held = new Uint8Array(256 * 1024 * 1024).fill(1); parentPort.postMessage('held');",
      { eval: true },
    );
    try {
      await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(residentOutsideMainHeap() - before).toBeGreaterThan(200 * MiB);
    } finally {
      await worker.terminate();
    }
  });
});

describe('one budget per process', () => {
  test('every server started in a process reads its files under the process’s budget', async () => {
    expect(processDecodeBudget()).toBe(processDecodeBudget());
    const server = await startServer();
    try {
      const upload = await call(server, 'POST', '/v1/assets', { raw: scannedPdf([['Customer note', 'a refund']]), contentType: 'application/pdf' });
      expect(upload.status, upload.text).toBe(201);
      // The upload starts its read in the background: the process's budget sees it run.
      let seen = false;
      for (const until = Date.now() + 20_000; !seen && Date.now() < until; await tick(2)) seen = processDecodeBudget().state.running > 0;
      expect(seen).toBe(true);
    } finally {
      await server.stop();
    }
  }, 60_000);

  // The process's budget outlives the servers that use it: a reader left registered after its
  // server stopped would be called under every later pressure, and kept from collection.
  test('each reader gives its releaser back when it closes', async () => {
    const registered = new Set<() => void>();
    const budget: DecodeBudget = {
      ...createDecodeBudget(),
      onPressure(release) {
        registered.add(release);
        return () => registered.delete(release);
      },
    };
    const readers = [createOcrPool({ workers: 1, budget }), createPdfReader({ budget }), createAudioReader({ budget })];
    expect(registered.size).toBe(3);
    for (const reader of readers) await reader.close();
    expect(registered.size).toBe(0);
  });
});
