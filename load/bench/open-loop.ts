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
}

export async function openLoop(options: { url: string; path: string; headers: Record<string, string>; body: string; ratePerSecond: number; durationS: number }): Promise<OpenLoopResult> {
  const pool = new Pool(options.url, { connections: 64, pipelining: 1 });
  const total = Math.floor(options.ratePerSecond * options.durationS);
  const latencies: number[] = [];
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  // Timers fire about once a millisecond at best: each tick sends every request that is due,
  // so the generator keeps its rate without a timer per request.
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.ratePerSecond));
    for (; sent < due; sent++) {
      const dispatched = performance.now();
      inFlight.push(
        send(pool, { method: 'POST', path: options.path, headers: options.headers, body: options.body })
          .then((reply) => {
            if (reply.status >= 400) errors++;
            latencies.push(performance.now() - dispatched);
          })
          .catch(() => {
            errors++;
          }),
      );
    }
    await sleep(1);
  }
  const elapsed = (performance.now() - start) / 1000;
  await Promise.all(inFlight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { sent: total, errors, p50: at(0.5), p99: at(0.99), achievedRate: total / elapsed };
}
