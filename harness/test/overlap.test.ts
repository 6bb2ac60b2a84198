// The overlap figures on made-up timings: a server that batches, one behind a lock, and the
// kit's own stall bunching the answers of one burst.
import { expect, test } from 'vitest';
import { answeredTogether, bursts, maxInFlight, overlapAchieved, overlapOf, type Timed } from '../overlap.ts';

/** `count` requests sent at `at` (a tenth of a millisecond apart), answered at the times `answerAt` gives. */
function burst(at: number, count: number, answerAt: (index: number) => number): Timed[] {
  return Array.from({ length: count }, (_, index) => ({ startedAtMs: at + index * 0.1, durationMs: answerAt(index) - (at + index * 0.1) }));
}

/** One request sent alone at `at`, answered after `latency`. */
const alone = (at: number, latency: number): Timed => ({ startedAtMs: at, durationMs: latency });

test('requests in flight: the most open at one instant; an answer and a send at the same instant do not overlap', () => {
  expect(maxInFlight([alone(0, 10), alone(10, 10), alone(20, 10)])).toBe(1);
  expect(maxInFlight(burst(0, 8, () => 30))).toBe(8);
  expect(maxInFlight([])).toBe(0);
});

test('bursts: runs of requests sent before the earlier ones were answered; requests alone are left out', () => {
  const found = bursts([alone(0, 10), ...burst(100, 4, () => 120), alone(200, 10), ...burst(300, 3, (i) => 310 + i)]);
  expect(found.map((group) => group.length)).toEqual([4, 3]);
});

test('a server that batches answers a burst together; one behind a lock, one service time apart', () => {
  const warm = [alone(0, 10), alone(20, 10)];
  const batched = [...warm, ...burst(100, 8, () => 112), ...burst(200, 8, (i) => 212 + i * 0.05), ...burst(300, 8, () => 311)];
  expect(answeredTogether(batched)).toBe(8);
  // Service time 10 ms, latency alone 10 ms: window 5 ms, answers 10 ms apart.
  const locked = [...warm, ...burst(100, 8, (i) => 110 + i * 10), ...burst(300, 8, (i) => 310 + i * 10), ...burst(500, 8, (i) => 510 + i * 10)];
  expect(answeredTogether(locked)).toBe(1);
  expect(overlapAchieved(overlapOf(locked, 8))).toBe(false);
  expect(overlapOf(locked, 8)).toEqual({ target: 8, maxInFlight: 8, answeredTogether: 1 });
});

test("a stall of the kit's own process that bunches one burst's answers does not count as overlap", () => {
  const warm = [alone(0, 10)];
  const stalled = burst(100, 8, (i) => (i < 3 ? 150 : 150 + (i - 2) * 10)); // three answers read at once after a 40 ms stall
  const locked = (at: number) => burst(at, 8, (i) => at + 10 + i * 10);
  expect(answeredTogether([...warm, ...stalled, ...locked(300), ...locked(500)])).toBe(1);
  // Bunched in most bursts, it is the server's doing.
  expect(answeredTogether([...warm, ...stalled, ...burst(300, 8, () => 315), ...locked(500)])).toBe(3);
});
