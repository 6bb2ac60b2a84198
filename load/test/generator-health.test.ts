// Whether the generator kept up (load/generator-health.ts): the schedule rule for arrival-rate
// scenarios, the CPU rule where the kit sees the processes, and load compare's refusal to judge a
// server from runs whose generator set the pace.
import { describe, expect, test } from 'vitest';
import type { LoadRun } from '../../reports/load-run.ts';
import { sampleLoadRun, flat } from '../../reports/test/sample-load.ts';
import { compareRuns, GeneratorBoundError } from '../compare.ts';
import { healthLine } from '../../reports/load-section.ts';
import { generatorHealth, plannedRate } from '../generator-health.ts';

const arrival = (iterations: number, dropped: number): LoadRun => ({
  ...sampleLoadRun(true, flat),
  duration_ms: 10_000,
  executor: { executor: 'constant-arrival-rate', rate: 100, timeUnit: '1s', duration: '10s', preAllocatedVUs: 10, maxVUs: 40 },
  iterations,
  dropped_iterations: dropped,
  vus_peak: 40,
});
const closedLoop = (): LoadRun => ({
  ...sampleLoadRun(true, flat),
  duration_ms: 10_000,
  executor: { executor: 'constant-vus', vus: 8, duration: '10s' },
  iterations: 20_000,
  dropped_iterations: 0,
});
const cpu = (cores: number, source = 'measured') => ({ cpuMs: cores * 10_000, source });

describe('the schedule of an arrival-rate scenario', () => {
  test('every planned iteration ran: kept up, with the planned and achieved rates', () => {
    const health = generatorHealth(arrival(1000, 0), {});
    expect(health).toMatchObject({ bound: false, reasons: [], planned_rate_per_s: 100, achieved_rate_per_s: 100, dropped_iterations: 0 });
  });

  test('iterations dropped with every virtual user busy: generator-bound, and the reason says so', () => {
    const health = generatorHealth(arrival(900, 100), {});
    expect(health.bound).toBe(true);
    expect(health.reasons[0]).toMatch(/^fell behind its schedule: 900 of 1000 planned iterations ran \(100 dropped, all 40 virtual users busy\)/);
  });

  test('fewer iterations started than planned, none dropped: still behind', () => {
    expect(generatorHealth(arrival(950, 0), {}).bound).toBe(true);
    // Within the slack (2 %): k6 rounds at the ends of a run.
    expect(generatorHealth(arrival(990, 0), {}).bound).toBe(false);
  });

  test("the plan is the executor's, not the measured time: slow last responses do not make a run fall behind", () => {
    expect(generatorHealth({ ...arrival(1000, 0), duration_ms: 11_500 }, {}).bound).toBe(false);
  });

  test('a ramp plans the mean rate of its stages', () => {
    expect(
      plannedRate({
        executor: 'ramping-arrival-rate',
        startRate: 0,
        timeUnit: '1s',
        stages: [
          { target: 100, duration: '10s' },
          { target: 100, duration: '10s' },
        ],
      }),
    ).toBe(75);
    expect(plannedRate({ executor: 'constant-vus', vus: 8, duration: '10s' })).toBeUndefined();
  });
});

describe('the CPU the generator used', () => {
  test('k6 using nearly every core the server left it, the server less: generator-bound', () => {
    const health = generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 2, generator: cpu(1.3, 'k6 processes'), server: cpu(0.6, 'server') });
    expect(health.bound).toBe(true);
    expect(health.reasons[0]).toBe("used the CPU it could: 1.3 of 1.4 cores available to it, the server 0.6; the rate is the generator's, not the server's");
    expect(health).toMatchObject({ generator_cpu: { cores: 1.3, source: 'k6 processes' }, server_cpu: { cores: 0.6 }, cores: 2 });
  });

  test('in a closed loop, a generator held below saturation by its neighbours but using over 1.5 times the server CPU: bound', () => {
    const health = generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 2, generator: cpu(1.19), server: cpu(0.26) });
    expect(health.reasons).toEqual([
      "used 1.19 cores to the server's 0.26: in a closed loop each request cost the generator more than 1.5 times what it cost the server, so the loop turned at the generator's pace",
    ]);
    // 1.33 times is not more than 1.5; and an arrival-rate run on schedule is judged by its schedule and saturation only.
    expect(generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 2, generator: cpu(0.4), server: cpu(0.3) }).bound).toBe(false);
    expect(generatorHealth(arrival(1000, 0), { cores: 2, generatorCapacityCores: 2, generator: cpu(1.19), server: cpu(0.26) }).bound).toBe(false);
  });

  // Seen with a spinning process on one of two cores: k6 0.78 cores, the server 0.61, 0.03 idle.
  // Nothing shows k6 wanted more than it got, so the run is not bound; nothing shows it kept up
  // either, so it is not said to have.
  test('a machine left without idle CPU makes a run unproven, never bound', () => {
    const full = generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 2, generator: cpu(0.78), server: cpu(0.61), machineIdleMs: 0.03 * 10_000 });
    expect(full).toMatchObject({ bound: false, machine_idle_cores: 0.03 });
    expect(healthLine(full)).toBe(
      'generator not shown to keep up (the machine had 0.03 cores idle: the generator and the server both ran short of CPU, so neither is shown to be the limit); achieved 2000 iterations/s; generator 0.78 cores, server 0.61 cores, idle 0.03 (of 2)',
    );
    // With CPU left over, the same figures kept up; a bound run stays bound however full the machine.
    const spare = generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 2, generator: cpu(0.78), server: cpu(0.61), machineIdleMs: 0.3 * 10_000 });
    expect(spare.unproven).toBeUndefined();
    expect(healthLine(spare)).toMatch(/^generator kept up;/);
    const bound = generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 2, generator: cpu(1.19), server: cpu(0.26), machineIdleMs: 0 });
    expect([bound.bound, bound.unproven]).toEqual([true, undefined]);
  });

  test('the server used at least as much as the generator: it set the pace, not bound', () => {
    expect(generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 1, generator: cpu(0.95), server: cpu(1.0) }).bound).toBe(false);
  });

  test('the Node runner near one core with the server out of sight: bound; at half a core: kept up', () => {
    expect(generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 1, generator: cpu(0.95) }).bound).toBe(true);
    expect(generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 1, generator: cpu(0.5) }).bound).toBe(false);
  });

  test('generator and server in one process: the CPU rule is not applied, and the result says why', () => {
    const health = generatorHealth(closedLoop(), { cores: 2, generatorCapacityCores: 1, generator: cpu(1.0), server: cpu(1.0), sharedProcess: true });
    expect(health).toMatchObject({ bound: false, shared_process: true });
  });
});

describe('load compare and generator-bound runs', () => {
  const kept = (throughput: number): LoadRun => ({
    ...closedLoop(),
    throughput_rps: throughput,
    generator_health: { bound: false, reasons: [], achieved_rate_per_s: 2000, dropped_iterations: 0 },
  });
  const bound = (throughput: number): LoadRun => ({
    ...kept(throughput),
    generator_health: { bound: true, reasons: ['used the CPU it could: 1.9 of 2 cores available to it'], achieved_rate_per_s: 2000, dropped_iterations: 0 },
  });

  test('runs that kept up are compared: a 40 % loss is a regression', () => {
    expect(compareRuns([kept(1000), kept(1010), kept(990)], [kept(600), kept(610), kept(590)]).regression).toBe(true);
  });

  test('one bound run on either side: no verdict, and the reason names it', () => {
    expect(() => compareRuns([kept(1000), kept(1010), kept(990)], [kept(600), bound(610), kept(590)])).toThrow(GeneratorBoundError);
    expect(() => compareRuns([bound(1000), kept(1010), kept(990)], [kept(1000), kept(1010), kept(990)])).toThrow(
      /^cannot judge the server: the generator set the pace in 1 of 6 runs, e.g. baseline run 1 \(used the CPU it could/,
    );
  });
});
