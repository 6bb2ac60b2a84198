// A witness as a curl line: each part where it travels, quoted so any text is one shell word.
import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { openapiDocument } from '../../spec/index.ts';
import { diffDocuments } from '../diff.ts';
import { formatDiff } from '../format.ts';
import { witnessLine } from '../witness-line.ts';

test('a JSON body is sent as JSON, a quote inside it closed and reopened so the shell keeps it', () => {
  const line = witnessLine({ operation: 'POST /v1/decide', part: 'body', value: { context: "it's" }, mediaType: 'application/json' });
  expect(line).toBe(`curl -X POST "$BASE_URL"'/v1/decide' -H 'content-type: application/json' --data-raw '{"context":"it'\\''s"}'`);
  // The shell reads back exactly the JSON.
  const words = execFileSync('sh', ['-c', `printf '%s\\n' ${line.replace(/^curl /, '')}`], { env: { BASE_URL: 'http://h' }, encoding: 'utf8' })
    .trim()
    .split('\n');
  expect(words.at(-1)).toBe('{"context":"it\'s"}');
  expect(words).toContain('http://h/v1/decide');
});

test('an upload sends a string as its bytes; a query, a path and a header parameter go where they travel', () => {
  expect(witnessLine({ operation: 'POST /v1/assets', part: 'body', value: 'abc', mediaType: 'image/png' })).toContain(`--data-raw 'abc'`);
  expect(witnessLine({ operation: 'GET /v1/items', part: 'query:limit', value: 7 })).toBe(`curl -X GET "$BASE_URL"'/v1/items?limit=7'`);
  expect(witnessLine({ operation: 'GET /v1/assets/{asset_id}', part: 'path:asset_id', value: 'a/b' })).toBe(`curl -X GET "$BASE_URL"'/v1/assets/a%2Fb'`);
  expect(witnessLine({ operation: 'GET /health', part: 'header:X-Request-ID', value: 'x' })).toBe(`curl -X GET "$BASE_URL"'/health' -H 'X-Request-ID: x'`);
  expect(witnessLine({ operation: 'POST /v1/decide', part: 'response:200', value: { a: 1 } })).toBe('a response:200 value valid now and not before: {"a":1}');
});

test('the text and Markdown formats show each breaking finding with its witness, the server-free text made safe for a terminal', () => {
  const old = structuredClone(openapiDocument) as any;
  old.components.schemas.FeedbackRequest.properties.probe = { enum: ['ok', 'x\u009b31m'] };
  const changed = structuredClone(old);
  changed.components.schemas.FeedbackRequest.properties.probe = { enum: ['ok'] };
  const result = diffDocuments(old, changed);
  const text = formatDiff(result, 'text', { old: 'a', new: 'b' });
  expect(text).toMatch(/witness: curl -X POST "\$BASE_URL"'\/v1\/feedback' .*\\u009b31m/);
  // A C1 control (CSI) that JSON leaves as it is never reaches the terminal raw.
  expect(text).not.toContain('\u009b');
  const markdown = formatDiff(result, 'markdown', { old: 'a', new: 'b' });
  expect(markdown).toContain('### Witnesses');
  expect(markdown).toMatch(/- `request-enum-value-removed` at `[^`]+`: `curl -X POST/);
  expect(markdown).not.toContain('\u009b');
});
