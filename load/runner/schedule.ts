// When each iteration starts, under k6's executor semantics: arrival-rate executors start
// iterations at planned instants whatever the server does (open loop); per-vu-iterations runs
// each virtual user's iterations back to back (closed loop).
import { durationSeconds, plannedIterations } from '../definitions/executor.js';
import type { Executor } from './definition.ts';

/** Start offsets in milliseconds of every iteration an arrival-rate executor plans. */
export function arrivalTimes(executor: Executor): number[] {
  if (executor.executor === 'constant-arrival-rate') {
    const perSecond = executor.rate / durationSeconds(executor.timeUnit);
    const count = plannedIterations(executor) ?? 0;
    return Array.from({ length: count }, (_, index) => (index / perSecond) * 1000);
  }
  if (executor.executor === 'ramping-arrival-rate') {
    // The rate moves linearly within each stage; an iteration starts each time the integral of
    // the rate reaches the next whole number (the first at 0, as with a constant rate), in 1 ms steps.
    const unitS = durationSeconds(executor.timeUnit);
    const times: number[] = [];
    let accumulated = 0;
    let elapsedMs = 0;
    let from = executor.startRate;
    for (const stage of executor.stages) {
      const stageMs = durationSeconds(stage.duration) * 1000;
      for (let t = 0; t < stageMs; t++) {
        while (times.length <= accumulated) times.push(elapsedMs + t);
        accumulated += (from + ((stage.target - from) * t) / stageMs) / unitS / 1000;
      }
      elapsedMs += stageMs;
      from = stage.target;
    }
    return times;
  }
  throw new Error(`${executor.executor} has no arrival schedule`);
}
