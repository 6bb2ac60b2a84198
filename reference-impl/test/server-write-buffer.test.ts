// Log lines and decision records leave in batches: within the interval, at once when many wait,
// and on demand before a close or an exit.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { WRITE_INTERVAL_MS, writeBuffer } from '../server/write-buffer.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

test('lines added within one interval leave in one write, at the end of it', () => {
  const writes: string[] = [];
  const buffer = writeBuffer((text) => writes.push(text));
  buffer.add('a\n');
  vi.advanceTimersByTime(WRITE_INTERVAL_MS - 1);
  buffer.add('b\n');
  expect(writes).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(writes).toEqual(['a\nb\n']);
  vi.advanceTimersByTime(10 * WRITE_INTERVAL_MS);
  expect(writes).toHaveLength(1);
});

test('flush hands on what waits, synchronously; nothing is written twice', () => {
  const writes: string[] = [];
  const buffer = writeBuffer((text) => writes.push(text));
  buffer.add('last\n');
  buffer.flush();
  expect(writes).toEqual(['last\n']);
  vi.advanceTimersByTime(WRITE_INTERVAL_MS);
  buffer.flush();
  expect(writes).toEqual(['last\n']);
});

test('a large backlog is written at once instead of waiting for the interval', () => {
  const writes: string[] = [];
  const buffer = writeBuffer((text) => writes.push(text));
  const line = `${'x'.repeat(1023)}\n`;
  for (let i = 0; i < 256; i += 1) buffer.add(line);
  expect(writes).toHaveLength(1);
  expect(writes[0]!.length).toBe(256 * 1024);
});
