// An open-loop load: requests leave at a fixed rate whatever the server does, so queueing
// shows up as latency (a closed loop would slow down with the server and hide it).
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { send } from '../runner/send.ts';

export interface OpenLoopResult {
  sent: number;
  errors: number;
  /** Latencies in milliseconds, from each request's dispatch to its complete response. */
  p50: number;
  p99: number;
  achievedRate: number;
  /** Every answered request's latency, sorted: results of several runs can be pooled (pooledPercentile). */
  latencies: Float64Array;
}

/** The p (0–1) quantile of ascending latencies, NaN when there are none: one run's or several runs' pooled. */
function quantile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** A percentile of the latencies of several runs taken together. */
export function pooledPercentile(results: readonly OpenLoopResult[], p: number): number {
  const all = new Float64Array(results.reduce((total, result) => total + result.latencies.length, 0));
  let at = 0;
  for (const result of results) {
    all.set(result.latencies, at);
    at += result.latencies.length;
  }
  return quantile(all.sort(), p);
}

export interface OpenLoopOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  ratePerSecond: number;
  durationS: number;
  /**
   * Connections to reuse, e.g. those a warm-up opened: a new pool opens its connections during
   * the measurement, and their set-up then shows in its first latencies. Left open; by default a
   * pool of 64 connections is opened and closed.
   */
  pool?: Pool;
}

export function openLoopPool(url: string): Pool {
  return new Pool(url, { connections: 64, pipelining: 1 });
}

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const pool = options.pool ?? openLoopPool(options.url);
  const total = Math.floor(options.ratePerSecond * options.durationS);
  // Preallocated, and no promise kept per request: at thousands of requests per second the
  // generator's own garbage collection otherwise shows up in the latencies it measures.
  const latencies = new Float64Array(total);
  let answered = 0;
  let errors = 0;
  let outstanding = 0;
  let allAnswered: () => void = () => {};
  const settle = () => {
    outstanding--;
    if (outstanding === 0 && sent === total) allAnswered();
  };
  const start = performance.now();
  let sent = 0;
  // Timers fire about once a millisecond at best: each tick sends every request that is due,
  // so the generator keeps its rate without a timer per request.
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.ratePerSecond));
    for (; sent < due; sent++) {
      const dispatched = performance.now();
      outstanding++;
      send(pool, { method: 'POST', path: options.path, headers: options.headers, body: options.body }).then(
        (reply) => {
          if (reply.status >= 400) errors++;
          latencies[answered++] = performance.now() - dispatched;
          settle();
        },
        () => {
          errors++;
          settle();
        },
      );
    }
    await sleep(1);
  }
  const elapsed = (performance.now() - start) / 1000;
  if (outstanding > 0) await new Promise<void>((resolve) => (allAnswered = resolve));
  if (!options.pool) await pool.close();
  const measured = latencies.subarray(0, answered).sort();
  return { sent: total, errors, p50: quantile(measured, 0.5), p99: quantile(measured, 0.99), achievedRate: total / elapsed, latencies: measured };
}
