// The Node runner: executes a shared scenario definition with undici where k6 is absent, under
// the same executor semantics (iterations at planned instants for arrival-rate executors,
// dropped when every virtual user is busy; back-to-back loops for constant-vus and per-vu-iterations).
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, type Dispatcher } from 'undici';
import { connectionDispatcher } from '../../harness/connection.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { exampleOf, responseJudge, target, targetProblem, validateEvery } from '../definitions/common.js';
import { durationSeconds } from '../definitions/executor.js';
import { seedFigures } from '../definitions/seed-figures.js';
import type { LoadRequest, LoadResponse, ScenarioDefinition } from './definition.ts';
import { nodeLoadResult } from './result.ts';
import { SampleLog } from './samples.ts';
import { send } from './send.ts';
import { arrivalTimes } from './schedule.ts';

/** How a deployed server is reached, as `run` takes it: headers every request carries, a proxy, a CA, any certificate. */
export interface LoadDeployment {
  /** Names in lower case; under each request's own. */
  headers: Record<string, string>;
  /** The values among them to redact like keys. */
  secretHeaderValues: string[];
  /** The proxy, the CA's PEM text, whether to accept any certificate (harness/connection.ts). */
  connection?: { proxy?: string; caCert?: string; insecure?: boolean };
}

export async function runWithNode(definition: ScenarioDefinition, settings: Record<string, string | undefined>, deployment?: LoadDeployment): Promise<LoadRun> {
  const problem = targetProblem(settings);
  if (problem) throw new Error(problem);
  const { baseUrl } = target(settings);
  const { executor } = definition;
  const concurrency = executor.executor === 'per-vu-iterations' || executor.executor === 'constant-vus' ? executor.vus : executor.maxVUs;
  const timeoutMs = seedFigures.clientTimeoutS * 1000;
  // Through a proxy (--proxy, HTTPS_PROXY...) or with a CA of the user's, the connection's own
  // dispatcher, as `run` reaches the server; else a pool of one connection per virtual user.
  // A server under a path prefix (https://host/svc): the pool and the agent take the origin alone.
  const { origin: serverOrigin, pathname } = new URL(baseUrl);
  const basePath = pathname.replace(/\/$/, '');
  const connection = connectionDispatcher(deployment?.connection ?? {});
  const pool: Dispatcher =
    connection ??
    new Pool(serverOrigin, { connections: concurrency, pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 30_000 });
  const origin = connection ? serverOrigin : undefined;
  const log = new SampleLog(definition);
  const judge = responseJudge(validateEvery(settings));
  const startedAt = new Date();
  const start = performance.now();

  const io = {
    async send(request: LoadRequest): Promise<LoadResponse> {
      const dispatched = performance.now();
      let response: LoadResponse;
      try {
        response = await send(pool, {
          ...(origin !== undefined ? { origin } : {}),
          method: request.method,
          path: `${basePath}${request.path}`,
          headers: { ...deployment?.headers, ...request.headers },
          ...(request.body !== undefined ? { body: request.body } : {}),
        });
      } catch {
        response = { status: 0, headers: {}, body: '' };
      }
      const durationMs = performance.now() - dispatched;
      const judgement = judge(request, response);
      log.recordRequest({
        name: request.name,
        startedMs: dispatched - start,
        durationMs,
        status: response.status,
        ...(judgement.refused ? { refused: true } : {}),
      });
      log.recordJudgement(judgement, (failure) => exampleOf(failure, request, response));
      return response;
    },
    pause: (seconds: number) => sleep(seconds * 1000),
  };

  let inFlight = 0;
  const runIteration = async (index: number) => {
    log.iterations++;
    log.vusPeak = Math.max(log.vusPeak, ++inFlight);
    try {
      await definition.iteration(index, io);
    } catch {
      // An iteration that throws is over; its requests are already recorded (k6 does the same).
    } finally {
      inFlight--;
    }
  };

  try {
    if (executor.executor === 'per-vu-iterations') {
      await Promise.all(
        Array.from({ length: executor.vus }, async (_, vu) => {
          for (let n = 0; n < executor.iterations; n++) await runIteration(vu * executor.iterations + n);
        }),
      );
    } else if (executor.executor === 'constant-vus') {
      // Closed loop: each virtual user starts its next iteration when the last one ends, until the duration is over.
      const endMs = durationSeconds(executor.duration) * 1000;
      let next = 0;
      await Promise.all(
        Array.from({ length: executor.vus }, async () => {
          while (performance.now() - start < endMs) await runIteration(next++);
        }),
      );
    } else {
      const times = arrivalTimes(executor);
      const running = new Set<Promise<void>>();
      // Each tick starts every iteration that is due, so the rate holds without a timer per iteration.
      for (let index = 0; index < times.length; ) {
        const now = performance.now() - start;
        for (; index < times.length && times[index]! <= now; index++) {
          if (running.size >= executor.maxVUs) {
            log.droppedIterations++;
            continue;
          }
          const iteration = runIteration(index).finally(() => running.delete(iteration));
          running.add(iteration);
        }
        if (index < times.length) await sleep(Math.min(5, Math.max(0, times[index]! - (performance.now() - start))));
      }
      await Promise.all(running);
    }
  } finally {
    await pool.close();
  }
  return nodeLoadResult(definition, log, {
    baseUrl,
    startedAt,
    durationMs: performance.now() - start,
    nodeVersion: process.version,
    validateEvery: validateEvery(settings),
  });
}
