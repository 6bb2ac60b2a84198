// Durable, append-only records of decisions (ids only, never content) and of feedback on them,
// so that feedback can be linked to a decision of the same project, across restarts.
import { appendFileSync, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { isObject } from '../../spec/index.ts';
import { createDecisionIndex } from './decision-index.ts';
import { readJsonLines } from './json-lines.ts';
import { writeBuffer } from './write-buffer.ts';

export interface DecisionRecord {
  projectId: string;
  requestId: string;
  questionIds: string[];
  createdAt: string;
}

export interface FeedbackRecord {
  id: string;
  projectId: string;
  requestId: string;
  answers: Record<string, { correct: boolean }>;
  comment?: string;
  createdAt: string;
}

/** What feedback needs to know of a decision. */
export interface DecisionSummary {
  questionIds: string[];
}

export interface DecisionLog {
  recordDecision(record: DecisionRecord): void;
  findDecision(projectId: string, requestId: string): DecisionSummary | undefined;
  hasFeedback(projectId: string, requestId: string, questionId: string): boolean;
  recordFeedback(record: FeedbackRecord): void;
  close(): Promise<void>;
}

const keyOf = (projectId: string, requestId: string): string => `${projectId}\u0000${requestId}`;

const isString = (value: unknown): value is string => typeof value === 'string';

/** A line the server could have written: any other JSON value (a hand edit, another program's file) is reported as corrupt. */
function isDecisionRecord(value: unknown): value is DecisionRecord {
  return isObject(value) && isString(value.projectId) && isString(value.requestId) && Array.isArray(value.questionIds) && value.questionIds.every(isString);
}

function isFeedbackRecord(value: unknown): value is FeedbackRecord {
  return isObject(value) && isString(value.projectId) && isString(value.requestId) && isObject(value.answers);
}

/** Reads a JSON-lines file record by record, skipping a torn last line or any corrupt line instead of failing. */
function readRecords<T>(path: string, isRecord: (value: unknown) => value is T, onRecord: (record: T) => void, onCorrupt: (line: number) => void): void {
  readJsonLines(path, (value, line) => (isRecord(value) ? onRecord(value) : onCorrupt(line)), onCorrupt);
}

export function openDecisionLog(dataDir: string, onCorrupt: (file: string, line: number) => void = () => {}): DecisionLog {
  mkdirSync(dataDir, { recursive: true });
  const decisionsPath = join(dataDir, 'decisions.jsonl');
  const feedbackPath = join(dataDir, 'feedback.jsonl');

  // Every decision ever made stays findable: the index (decision-index.ts) keeps each key and
  // its question ids as JSON off the JavaScript heap, so that a long-running server's garbage
  // collections do not grow with the number of decisions it has made.
  const decisions = createDecisionIndex();
  const answered = new Set<string>();
  // What a record adds to the indexes, whether it is read back at start or made now.
  const indexDecision = (record: DecisionRecord): void => decisions.set(keyOf(record.projectId, record.requestId), JSON.stringify(record.questionIds));
  const indexFeedback = (record: FeedbackRecord): void => {
    for (const questionId of Object.keys(record.answers)) answered.add(keyOf(keyOf(record.projectId, record.requestId), questionId));
  };
  readRecords(decisionsPath, isDecisionRecord, indexDecision, (line) => onCorrupt(decisionsPath, line));
  readRecords(feedbackPath, isFeedbackRecord, indexFeedback, (line) => onCorrupt(feedbackPath, line));

  // Records wait in memory for a few milliseconds (write-buffer.ts), then go to the file in one
  // asynchronous write: file I/O stays off the decision's critical path.
  const decisionsOut = appender(decisionsPath);
  const feedbackOut = appender(feedbackPath);

  return {
    recordDecision(record) {
      // A caller may reuse its own request id; feedback then links to the latest decision.
      indexDecision(record);
      decisionsOut.write(`${JSON.stringify(record)}\n`);
    },
    findDecision(projectId, requestId) {
      const questionIds = decisions.get(keyOf(projectId, requestId));
      return questionIds === undefined ? undefined : { questionIds: JSON.parse(questionIds) as string[] };
    },
    hasFeedback: (projectId, requestId, questionId) => answered.has(keyOf(keyOf(projectId, requestId), questionId)),
    recordFeedback(record) {
      indexFeedback(record);
      feedbackOut.write(`${JSON.stringify(record)}\n`);
    },
    async close() {
      await Promise.all([decisionsOut.close(), feedbackOut.close()]);
    },
  };
}

/**
 * Appends lines to a file, in batches (write-buffer.ts). After close (requests still in flight
 * while the server shuts down), lines are appended synchronously: a record is never lost.
 */
function appender(path: string): { write(line: string): void; close(): Promise<void> } {
  const stream: WriteStream = createWriteStream(path, { flags: 'a' });
  const pending = writeBuffer((text) => stream.write(text));
  let closed = false;
  return {
    write(line) {
      if (closed) appendFileSync(path, line);
      else pending.add(line);
    },
    close() {
      if (closed) return Promise.resolve();
      pending.flush();
      closed = true;
      return new Promise<void>((resolve) => stream.end(resolve));
    },
  };
}
