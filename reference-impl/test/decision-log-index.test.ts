// The decision index behind feedback: every decision stays findable with its own question ids,
// whether its question set is shared with other decisions or not, and after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openDecisionLog } from '../server/decision-log.ts';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'decision-index-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const record = (requestId: string, questionIds: string[], projectId = 'proj_a') => ({ projectId, requestId, questionIds, createdAt: '2026-01-01T00:00:00.000Z' });

test('decisions sharing a question set each find their ids; a returned list is the caller\'s own', async () => {
  const log = openDecisionLog(freshDir());
  log.recordDecision(record('req_1', ['topic', 'urgent']));
  log.recordDecision(record('req_2', ['topic', 'urgent']));
  const first = log.findDecision('proj_a', 'req_1')!;
  first.questionIds.push('changed');
  expect(log.findDecision('proj_a', 'req_2')).toEqual({ questionIds: ['topic', 'urgent'] });
  expect(log.findDecision('proj_a', 'req_1')).toEqual({ questionIds: ['topic', 'urgent'] });
  expect(log.findDecision('proj_b', 'req_1')).toBeUndefined();
  await log.close();
});

test('more distinct question sets than are shared, a reused request id, and a restart', async () => {
  const dir = freshDir();
  const log = openDecisionLog(dir);
  for (let i = 0; i < 3000; i++) log.recordDecision(record(`req_${i}`, [`q${i}`, '__proto__']));
  log.recordDecision(record('req_7', ['replaced']));
  for (const i of [0, 1023, 1024, 2999]) expect(log.findDecision('proj_a', `req_${i}`)).toEqual({ questionIds: [`q${i}`, '__proto__'] });
  expect(log.findDecision('proj_a', 'req_7')).toEqual({ questionIds: ['replaced'] });
  await log.close();

  const reopened = openDecisionLog(dir);
  expect(reopened.findDecision('proj_a', 'req_2999')).toEqual({ questionIds: ['q2999', '__proto__'] });
  expect(reopened.findDecision('proj_a', 'req_7')).toEqual({ questionIds: ['replaced'] });
  await reopened.close();
});
