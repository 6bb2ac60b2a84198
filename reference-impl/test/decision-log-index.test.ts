// The decision index behind feedback: every decision stays findable with its own question ids,
// whether its question set is shared with other decisions or not, and after a restart, even over
// files a crash or a hand edit left with lines that are not records.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

const record = (requestId: string, questionIds: string[], projectId = 'proj_a') => ({
  projectId,
  requestId,
  questionIds,
  createdAt: '2026-01-01T00:00:00.000Z',
});

test("decisions sharing a question set each find their ids; a returned list is the caller's own", async () => {
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

test('a restart over files with a torn last line and lines of other JSON skips those lines, names them, and keeps every record around them', async () => {
  const dir = freshDir();
  const log = openDecisionLog(dir);
  log.recordDecision(record('req_before', ['topic']));
  log.recordFeedback({
    id: 'fb_1',
    projectId: 'proj_a',
    requestId: 'req_before',
    answers: { topic: { correct: true } },
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  await log.close();
  // Lines a hand edit or another program could leave, then a record, then a write cut short.
  const junk = [
    'null',
    '42',
    '"text"',
    '[]',
    '{"projectId":1,"requestId":"req_x","questionIds":[]}',
    '{"projectId":"proj_a","requestId":"req_y","questionIds":[7]}',
  ];
  appendFileSync(join(dir, 'decisions.jsonl'), `${junk.join('\n')}\n${JSON.stringify(record('req_after', ['urgent']))}\n{"projectId":"proj_a","requ`);
  appendFileSync(join(dir, 'feedback.jsonl'), '{"projectId":"proj_a","requestId":"req_after","answers":null}\n');

  const skipped: string[] = [];
  const reopened = openDecisionLog(dir, (file, line) => skipped.push(`${basename(file)}:${line}`));
  expect(skipped).toEqual([
    'decisions.jsonl:2',
    'decisions.jsonl:3',
    'decisions.jsonl:4',
    'decisions.jsonl:5',
    'decisions.jsonl:6',
    'decisions.jsonl:7',
    'decisions.jsonl:9',
    'feedback.jsonl:2',
  ]);
  expect(reopened.findDecision('proj_a', 'req_before')).toEqual({ questionIds: ['topic'] });
  expect(reopened.findDecision('proj_a', 'req_after')).toEqual({ questionIds: ['urgent'] });
  expect(reopened.findDecision('proj_a', 'req_y')).toBeUndefined();
  expect(reopened.hasFeedback('proj_a', 'req_before', 'topic')).toBe(true);
  expect(reopened.hasFeedback('proj_a', 'req_after', 'urgent')).toBe(false);
  await reopened.close();
});
