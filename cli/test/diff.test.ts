// decision-conformance diff as CI runs it: exit statuses, formats, git references.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { expect, test } from 'vitest';
import { openapiDocument } from '../../spec/index.ts';
import { diffCommand } from '../diff.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function run(args: string[]) {
  let out = '';
  let err = '';
  const code = diffCommand(args, { out: (text) => (out += text), err: (text) => (err += text) }, root);
  return { code, out, err };
}

function specFile(edit: (doc: any) => void, asJson = false): string {
  const doc = structuredClone(openapiDocument) as any;
  edit(doc);
  const file = join(mkdtempSync(join(tmpdir(), 'decision-diff-')), asJson ? 'openapi.json' : 'openapi.yaml');
  writeFileSync(file, asJson ? JSON.stringify(doc) : stringify(doc));
  return file;
}

test('no change exits 0; the committed spec read through git compares with the working file', () => {
  const ran = run(['HEAD:spec/openapi.yaml', 'spec/openapi.yaml']);
  expect(ran.err).toBe('');
  expect(ran.code).toBe(0);
  expect(ran.out).toContain('no breaking change');
});

test('a breaking change exits 1 in every format, with rule id, pointers and operation', () => {
  const broken = specFile((doc) => doc.components.schemas.FeedbackRequest.required.push('comment'), true);
  const text = run(['spec/openapi.yaml', broken]);
  expect(text.code).toBe(1);
  expect(text.out).toMatch(/BREAKING\s+request-property-became-required/);
  expect(text.out).toContain('POST /v1/feedback');
  const json = JSON.parse(run(['spec/openapi.yaml', broken, '--format', 'json']).out);
  expect(json.findings[0]).toMatchObject({
    ruleId: 'request-property-became-required',
    class: 'breaking',
    oldPointer: '/components/schemas/FeedbackRequest/properties/comment',
    operations: ['POST /v1/feedback'],
  });
  const markdown = run(['spec/openapi.yaml', broken, '--format', 'markdown']);
  expect(markdown.code).toBe(1);
  expect(markdown.out).toMatch(/^## Spec changes: ❌ 1 breaking change/);
  expect(markdown.out).toContain('| breaking | `request-property-became-required` |');
});

test('a non-breaking change exits 0', () => {
  const widened = specFile((doc) => (doc.components.schemas.Feedback.properties.channel = { type: 'string' }));
  const ran = run(['spec/openapi.yaml', widened]);
  expect(ran.code).toBe(0);
  expect(ran.out).toMatch(/NON-BREAKING\s+response-property-added/);
});

test('usage errors and unreadable inputs exit 2 with the reason', () => {
  const notYaml = join(mkdtempSync(join(tmpdir(), 'decision-diff-')), 'broken.yaml');
  writeFileSync(notYaml, 'openapi: [unclosed');
  const notOpenApi = join(mkdtempSync(join(tmpdir(), 'decision-diff-')), 'list.json');
  writeFileSync(notOpenApi, '[1, 2]');
  for (const args of [
    ['spec/openapi.yaml'],
    ['spec/openapi.yaml', 'missing.yaml'],
    ['spec/openapi.yaml', notYaml],
    ['spec/openapi.yaml', notOpenApi],
    ['no-such-ref:spec/openapi.yaml', 'spec/openapi.yaml'],
    ['a', 'b', '--format', 'html'],
    ['--bogus'],
  ]) {
    const ran = run(args);
    expect(ran.code, args.join(' ')).toBe(2);
    expect(ran.err, args.join(' ')).toMatch(/^decision-conformance diff: \S/);
    expect(ran.err).not.toMatch(/\n\s+at /);
  }
});

test('--list-rules prints the catalogue from the registry', () => {
  const ran = run(['--list-rules']);
  expect(ran.code).toBe(0);
  expect(ran.out).toMatch(/request-property-became-required\s+request\s+breaking/);
  expect(ran.out).toMatch(/response-property-added\s+response\s+non-breaking/);
  expect(JSON.parse(run(['--list-rules', '--json']).out).length).toBeGreaterThan(100);
});

test('a recursive schema is walked once per side, and an unresolvable $ref exits 2 with the reason', () => {
  const tree = (maxLength: number, ref = '#/components/schemas/Node') => {
    const file = join(mkdtempSync(join(tmpdir(), 'decision-diff-')), 'tree.yaml');
    const node = { type: 'object', properties: { name: { type: 'string', maxLength }, children: { type: 'array', items: { $ref: ref } } } };
    const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } };
    writeFileSync(
      file,
      stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1.0.0' },
        paths: { '/v1/tree': { post: { requestBody: { required: true, ...body }, responses: { '200': { description: 'ok', ...body } } } } },
        components: { schemas: { Node: node } },
      }),
    );
    return file;
  };
  const ran = run([tree(10), tree(5), '--format', 'json']);
  expect(ran.code).toBe(1);
  expect(
    JSON.parse(ran.out)
      .findings.map((f: { ruleId: string }) => f.ruleId)
      .sort(),
  ).toEqual(['request-max-length-decreased', 'response-max-length-decreased']);
  const broken = run([tree(10), tree(10, '#/components/schemas/Nope')]);
  expect(broken.code).toBe(2);
  expect(broken.err).toContain('Unresolvable reference #/components/schemas/Nope');
});
