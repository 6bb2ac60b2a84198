// A recorded run is replayed in the order it sent its requests, which with several workers is not
// the order of its checks: a burst stays whole at the place of its first request, and an exchange
// without a send time (a file of an earlier version) keeps its place after the one before it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readRecordedExchanges } from '../recorded.ts';

const exchange = (path: string, startedAt?: number, group?: number) => ({
  request: { method: 'GET', url: `http://127.0.0.1:1${path}`, headers: {}, body_bytes: 0 },
  response: { status: 200, headers: {}, body: '{}', body_bytes: 2 },
  ...(startedAt !== undefined ? { started_at_ms: startedAt } : {}),
  ...(group !== undefined ? { overlap_group: group } : {}),
  duration_ms: 1,
  curl: 'curl',
});

test('exchanges come back in the order they were sent, bursts whole, untimed ones after the one before them', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'decision-recorded-order-')), 'results.json');
  writeFileSync(
    file,
    JSON.stringify({
      schema_version: 2,
      kind: 'conformance',
      checks: [
        // Ran second, beside the other check: its burst started at 20, one request of it recorded at 35.
        { id: 'LATER', status: 'pass', evidence: [exchange('/later/1', 30), exchange('/burst/a', 20, 7), exchange('/burst/b', 35, 7)] },
        { id: 'EARLIER', status: 'pass', evidence: [exchange('/earlier/1', 10), exchange('/earlier/untimed'), exchange('/earlier/2', 40)] },
      ],
    }),
  );
  const replayed = readRecordedExchanges(file);
  expect(replayed.map((one) => new URL(one.request.url).pathname)).toEqual([
    '/earlier/1',
    '/earlier/untimed',
    '/burst/a',
    '/burst/b',
    '/later/1',
    '/earlier/2',
  ]);
  expect(replayed.map((one) => one.index)).toEqual([1, 2, 3, 4, 5, 6]);
});
