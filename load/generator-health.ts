// Whether the load generator kept up: a run that measures its generator says nothing about the
// server. A capacity scenario under k6 on a small machine is the usual case: k6 judges every
// response in JavaScript and runs out of CPU long before a fast server does, and the result would
// otherwise read as the server's capacity. Every load result carries this verdict, and
// `load compare` refuses to judge a server from runs whose generator was the limit.
//
// A run is generator-bound when any of these holds:
//  - schedule: an arrival-rate scenario fell behind its plan (iterations dropped because every
//    virtual user was busy, or fewer started than planned): the load it planned was not applied;
//  - saturation: the generator used nearly all the CPU it could (k6: the machine's cores, less
//    what a server on the same machine used; the Node runner: one core, since its JavaScript runs
//    on one thread), unless the server, seen on this machine, used at least as much;
//  - dominance, in a closed loop (a virtual user sends its next request when the last is
//    answered, so the rate is the measurement): the server is seen on this machine and the
//    generator used more than 1.5 times its CPU (a margin over equal cost, so that noise does not
//    flip the verdict). Each request then cost the generator more than the server, and the loop
//    turns at the generator's pace. On a shared machine the generator is often
//    held below saturation by its neighbours, which is why saturation alone is not enough.
// The machine's idle CPU is stated beside the verdict. It never makes a run bound: a machine left
// without idle CPU shows that its neighbours held the generator back, but not that the generator
// wanted more (a closed loop of one virtual user waits on the server whatever is idle). It does
// take back "kept up": with no CPU left over, the generator and the server both ran short, and
// neither is shown to be the limit. Such a run is marked unproven, not bound (a core kept busy by
// another process once made a k6 capacity run read "kept up" at 0.02 cores idle).
// When the generator and the server share one process (the Node runner with the embedded server),
// their CPU cannot be told apart, and the CPU rules are not applied; the result says so.
import type { GeneratorHealth, LoadRun } from '../reports/load-run.ts';
import type { Executor } from './definitions/common.js';
import { durationSeconds, plannedDurationS } from './definitions/executor.js';

/** Share of its capacity at which a generator counts as saturated. */
export const SATURATED_SHARE = 0.9;
/** In a closed loop, the generator dominates when it used more than this many times the server's CPU. */
export const DOMINANCE = 1.5;
/** Share of the planned iterations an arrival-rate run may miss (dropped or never started) before it fell behind. */
export const SCHEDULE_SLACK = 0.02;
/** Under this many idle cores on average, the machine was full: a run not shown bound is not shown to have kept up either. */
export const FULL_MACHINE_IDLE_CORES = 0.1;

export interface CpuUse {
  /** CPU time used during the run, in milliseconds. */
  cpuMs: number;
  /** Which processes were measured. */
  source: string;
}

export interface HealthFacts {
  /** Cores of the machine the generator ran on; unknown for pods merged afterwards (the CPU rule then needs none). */
  cores?: number;
  /** Cores the generator can use at most: all of them for k6, one for the Node runner. */
  generatorCapacityCores?: number;
  generator?: CpuUse;
  /** The server's CPU, when it runs on this machine and the kit can see it. */
  server?: CpuUse;
  /** The generator and the server are one process: their CPU is not separable. */
  sharedProcess?: boolean;
  /** Idle CPU time of the whole machine during the run (all cores), where the kit can read it. */
  machineIdleMs?: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Iterations per second an arrival-rate executor plans over the run, or undefined for the closed-loop executors. */
export function plannedRate(executor: LoadRun['executor']): number | undefined {
  const { rate, timeUnit, stages, startRate } = executor as {
    rate?: number;
    timeUnit?: string;
    startRate?: number;
    stages?: { target: number; duration: string }[];
  };
  if (executor.executor === 'constant-arrival-rate' && typeof rate === 'number' && timeUnit) return rate / durationSeconds(timeUnit);
  if (executor.executor === 'ramping-arrival-rate' && stages && timeUnit) {
    // Each stage ramps linearly from the previous target: its mean rate is the mean of its ends.
    let previous = startRate ?? 0;
    let iterations = 0;
    let seconds = 0;
    for (const stage of stages) {
      const length = durationSeconds(stage.duration);
      iterations += ((previous + stage.target) / 2) * length;
      seconds += length;
      previous = stage.target;
    }
    return seconds > 0 ? iterations / seconds / durationSeconds(timeUnit) : undefined;
  }
  return undefined;
}

/** Executors whose rate is the measurement: each virtual user sends its next iteration when the last one ends. */
const closedLoop = (executor: LoadRun['executor']) => executor.executor === 'constant-vus' || executor.executor === 'per-vu-iterations';

const vusLimit = (executor: LoadRun['executor']): number | undefined => {
  const { maxVUs, vus } = executor as { maxVUs?: number; vus?: number };
  return maxVUs ?? vus;
};

/** The verdict on one run's generator, from the run and what the kit measured around it. */
export function generatorHealth(run: LoadRun, facts: HealthFacts): GeneratorHealth {
  const seconds = run.duration_ms / 1000;
  const planned = plannedRate(run.executor);
  const achieved = seconds > 0 ? run.iterations / seconds : 0;
  const reasons: string[] = [];
  const limit = vusLimit(run.executor);

  if (planned !== undefined) {
    // The plan's own count (rate × planned duration), not the measured time: slow last responses lengthen a run without adding iterations to its plan.
    const plannedIterations = planned * plannedDurationS(run.executor as unknown as Executor);
    const missed = Math.max(run.dropped_iterations, plannedIterations - run.iterations - run.dropped_iterations);
    if (plannedIterations > 0 && missed / plannedIterations > SCHEDULE_SLACK)
      reasons.push(
        `fell behind its schedule: ${run.iterations} of ${Math.round(plannedIterations)} planned iterations ran (${run.dropped_iterations} dropped${run.vus_peak !== undefined && limit !== undefined && run.vus_peak >= limit ? `, all ${limit} virtual users busy` : ''}); raise the virtual users (VUS) or lower the rate`,
      );
  }

  const cores = (use: CpuUse | undefined) => (use && seconds > 0 ? use.cpuMs / 1000 / seconds : undefined);
  const generatorCores = cores(facts.generator);
  const serverCores = cores(facts.server);
  const idleCores = facts.machineIdleMs !== undefined && seconds > 0 ? facts.machineIdleMs / 1000 / seconds : undefined;
  if (generatorCores !== undefined && !facts.sharedProcess) {
    const serverSetThePace = serverCores !== undefined && serverCores >= generatorCores;
    const available = facts.cores === undefined ? undefined : Math.min(facts.generatorCapacityCores ?? facts.cores, facts.cores - (serverCores ?? 0));
    const against = serverCores !== undefined ? `, the server ${round2(serverCores)}` : '';
    if (available !== undefined && generatorCores >= SATURATED_SHARE * available && !serverSetThePace)
      reasons.push(
        `used the CPU it could: ${round2(generatorCores)} of ${round2(available)} cores available to it${against}; the rate is the generator's, not the server's`,
      );
    else if (closedLoop(run.executor) && serverCores !== undefined && generatorCores > DOMINANCE * serverCores)
      reasons.push(
        `used ${round2(generatorCores)} cores to the server's ${round2(serverCores)}: in a closed loop each request cost the generator more than ${DOMINANCE} times what it cost the server, so the loop turned at the generator's pace`,
      );
  }

  const unproven =
    reasons.length === 0 && generatorCores !== undefined && !facts.sharedProcess && idleCores !== undefined && idleCores < FULL_MACHINE_IDLE_CORES
      ? `the machine had ${round2(idleCores)} cores idle: the generator and the server both ran short of CPU, so neither is shown to be the limit`
      : undefined;

  return {
    bound: reasons.length > 0,
    reasons,
    ...(unproven ? { unproven } : {}),
    ...(planned !== undefined ? { planned_rate_per_s: round2(planned) } : {}),
    achieved_rate_per_s: round2(achieved),
    dropped_iterations: run.dropped_iterations,
    ...(run.vus_peak !== undefined ? { vus_peak: run.vus_peak } : {}),
    ...(limit !== undefined ? { vus_limit: limit } : {}),
    ...(facts.cores !== undefined ? { cores: facts.cores } : {}),
    ...(generatorCores !== undefined ? { generator_cpu: { cores: round2(generatorCores), source: facts.generator!.source } } : {}),
    ...(serverCores !== undefined ? { server_cpu: { cores: round2(serverCores), source: facts.server!.source } } : {}),
    ...(idleCores !== undefined ? { machine_idle_cores: round2(idleCores) } : {}),
    ...(facts.sharedProcess ? { shared_process: true } : {}),
  };
}
