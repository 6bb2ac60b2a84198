// Bursts: the exchanges of one overlap group are replayed as one group, and those that named an
// asset the same burst deleted are the race replay skips. Open points: a change is labelled only
// when it is the other choice of one.
import { expect, test } from 'vitest';
import { openPointsOf } from '../open-points.ts';
import { racing, replayGroups } from '../groups.ts';
import type { RecordedExchange } from '../recorded.ts';

let index = 0;
const exchange = (method: string, path: string, overlapGroup?: number, body?: string): RecordedExchange => ({
  index: ++index,
  checkId: 'CONCURRENT-DECIDE-WHILE-DELETING',
  checkStatus: 'pass',
  request: { method, url: `http://127.0.0.1:1${path}`, headers: {}, ...(body ? { body } : {}) },
  response: { status: 200, headers: {}, body: '{}' },
  ...(overlapGroup !== undefined ? { overlapGroup } : {}),
});

test('one group per burst, in order; requests sent alone stay alone', () => {
  const upload = exchange('POST', '/v1/assets');
  const decides = [1, 2].map(() => exchange('POST', '/v1/decide', 7, '{"context":[{"asset_id":"asset_abcdefgh12"}]}'));
  const deletion = exchange('DELETE', '/v1/assets/asset_abcdefgh12', 7);
  const next = exchange('POST', '/v1/decide', 8);
  const groups = replayGroups([upload, decides[0]!, deletion, decides[1]!, next]);
  expect(groups.map((group) => group.length)).toEqual([1, 3, 1]);
  // The decides raced the deletion of the asset they use; the deletion did not.
  expect([...racing(groups[1]!)]).toEqual([decides[0], decides[1]]);
  expect(racing([exchange('POST', '/v1/decide', 9), exchange('POST', '/v1/decide', 9)]).size).toBe(0);
});

test('a change is labelled with the open point whose other choice it is, and only then', () => {
  expect(openPointsOf(['status 200 became 201'])).toEqual(['decide-success-status']);
  expect(openPointsOf(['status 200 became 500'])).toBeUndefined();
  expect(openPointsOf(['field "usage" is gone'])).toBeUndefined();
  expect(openPointsOf(['field "data" is gone'], { response: 'models-shape' })).toEqual(['models-shape']);
  // A name-only code answered with another, as the alternate choice maps it.
  expect(openPointsOf(['error code TOO_MANY_IMAGES became INVALID_REQUEST'])).toEqual(['name-only-statuses']);
  // A check about an open point: its changes are that point's, a server error excepted.
  expect(openPointsOf(['status 200 became 400'], { check: ['id-format-and-count'] })).toEqual(['id-format-and-count']);
  expect(openPointsOf(['status 200 became 500'], { check: ['models-shape'] })).toBeUndefined();
});
