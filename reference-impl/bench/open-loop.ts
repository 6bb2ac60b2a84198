// An open-loop load: requests leave at a fixed rate whatever the server does, so queueing
// shows up as latency (a closed loop would slow down with the server and hide it).
import { Pool } from 'undici';

export interface OpenLoopResult {
  sent: number;
  errors: number;
  /** Latencies in milliseconds, measured from each request's scheduled start. */
  p50: number;
  p99: number;
  achievedRate: number;
}

export async function openLoop(options: { url: string; path: string; headers: Record<string, string>; body: string; ratePerSecond: number; durationS: number }): Promise<OpenLoopResult> {
  const pool = new Pool(options.url, { connections: 64, pipelining: 1 });
  const intervalMs = 1000 / options.ratePerSecond;
  const total = Math.floor(options.ratePerSecond * options.durationS);
  const latencies: number[] = [];
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * intervalMs;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 0.5));
    while (performance.now() < scheduled) {
      /* spin for the last fraction of a millisecond */
    }
    inFlight.push(
      pool
        .request({ method: 'POST', path: options.path, headers: options.headers, body: options.body })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode >= 400) errors++;
          latencies.push(performance.now() - scheduled);
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { sent: total, errors, p50: at(0.5), p99: at(0.99), achievedRate: total / elapsed };
}
