// The exchange a response rule judges reads a raw request body as JSON exactly when it is JSON,
// whatever its first bytes, without decoding uploads that cannot be (response-rules/exchange.ts).
import { describe, expect, test } from 'vitest';
import { judgedExchange } from '../response-rules/exchange.ts';
import type { Reply } from '../http.ts';
import { latin1 } from '../samples/bytes.ts';
import { pdfWithPages } from '../samples/pdf.ts';
import { plainTextOfSize } from '../samples/text.ts';

const reply: Reply = { status: 400, headers: {}, text: '', json: undefined, durationMs: 1 };
const requestJsonOf = (raw: string | Uint8Array) =>
  judgedExchange({ method: 'POST', path: '/v1/decide', raw, contentType: 'application/json' }, reply, []).requestJson;

describe('a raw request body', () => {
  test.each([
    ['an object', '{"context":"x"}', { context: 'x' }],
    ['an object after whitespace', ' \t\r\n{"a":1}', { a: 1 }],
    ['an array', '[1,2]', [1, 2]],
    ['a string', '"text"', 'text'],
    ['a negative number', '-1.5', -1.5],
    ['a number', '0', 0],
    ['true', 'true', true],
    ['false', 'false', false],
    ['null', 'null', null],
  ])('that is JSON (%s) is read as JSON, as text and as bytes', (_, text, value) => {
    expect(requestJsonOf(text)).toEqual(value);
    expect(requestJsonOf(latin1(text))).toEqual(value);
  });

  test.each([
    ['empty', ''],
    ['whitespace only', '  \n'],
    ['JSON with a byte order mark', '\ufeff{"a":1}'],
    ['JSON cut short', '{"context":'],
    ['a word that starts like a literal', 'nothing'],
    ['text', 'The quick brown fox'],
  ])('that is not JSON (%s) is not', (_, text) => {
    expect(requestJsonOf(text)).toBeUndefined();
    expect(requestJsonOf(new TextEncoder().encode(text))).toBeUndefined();
  });

  test('that is an upload is not, however large', () => {
    expect(requestJsonOf(pdfWithPages(1, { totalBytes: 1_000_000 }))).toBeUndefined();
    expect(requestJsonOf(plainTextOfSize(1_000_000))).toBeUndefined();
    expect(requestJsonOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
  });
});
