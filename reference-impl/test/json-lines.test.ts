// The JSON-lines reader behind the decision log: read through a small reused buffer, a file gives
// the same records, line numbers and corrupt lines as the whole file split at its newlines, for
// any chunk size: lines longer than a chunk, multi-byte characters cut by a chunk's end, blank
// lines, a torn last line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, test } from 'vitest';
import { readJsonLines } from '../server/json-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'json-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Reading {
  records: Array<[unknown, number]>;
  corrupt: number[];
}

function read(path: string, chunkBytes?: number): Reading {
  const reading: Reading = { records: [], corrupt: [] };
  readJsonLines(
    path,
    (value, line) => reading.records.push([value, line]),
    (line) => reading.corrupt.push(line),
    chunkBytes,
  );
  return reading;
}

/** What the whole file, split at its newlines, holds. */
function expected(text: string): Reading {
  const reading: Reading = { records: [], corrupt: [] };
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      reading.records.push([JSON.parse(line), index + 1]);
    } catch {
      reading.corrupt.push(index + 1);
    }
  });
  return reading;
}

const line = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.record({ projectId: fc.string({ unit: 'grapheme' }), requestId: fc.string({ unit: 'binary' }) }).map((value) => JSON.stringify(value)),
  fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => !text.includes('\n')),
  fc.constantFrom('', '   ', '{"torn": "é👍', 'null', '42'),
);

test('any file, any chunk size: the same records, line numbers and corrupt lines as the whole file split at newlines', () => {
  let file = 0;
  fc.assert(
    fc.property(fc.array(line, { maxLength: 30 }), fc.boolean(), fc.integer({ min: 1, max: 64 }), (lines, trailingNewline, chunkBytes) => {
      const text = lines.join('\n') + (trailingNewline && lines.length > 0 ? '\n' : '');
      const path = join(dir, `lines-${file++}.jsonl`);
      writeFileSync(path, text, 'utf8');
      const wanted = expected(text);
      expect(read(path, chunkBytes)).toEqual(wanted);
      expect(read(path)).toEqual(wanted);
    }),
    { numRuns: 300 },
  );
});

test('a missing file has no lines', () => {
  expect(read(join(dir, 'missing.jsonl'))).toEqual({ records: [], corrupt: [] });
});
