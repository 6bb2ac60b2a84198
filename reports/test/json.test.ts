import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../json.ts';
import { sampleColdStartReport, sampleLoadReport, sampleLoadRun, spiky } from './sample-load.ts';
import { sampleRunReport } from './sample-run.ts';

const schema = JSON.parse(readFileSync(new URL('../results.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
// Strict mode catches unknown keywords and formats; strictRequired (off by default) would refuse the
// "response or transport_error" anyOf, whose branches name properties declared beside them.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validate = ajv.compile(schema);

type Mutable = Record<string, any>;
const results = () => JSON.parse(renderJson(sampleRunReport())) as Mutable;
const loadResults = () => JSON.parse(renderJson(sampleLoadReport([sampleLoadRun(false, spiky)]))) as Mutable;
const coldStartResults = () => JSON.parse(renderJson(sampleColdStartReport())) as Mutable;

describe('results.json', () => {
  it('validates against results.schema.json', () => {
    const valid = validate(results());
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('is a JSON Schema 2020-12 document that describes every property it declares', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const undescribed: string[] = [];
    const visit = (node: unknown, path: string) => {
      if (node === null || typeof node !== 'object') return;
      const properties = (node as Mutable).properties as Mutable | undefined;
      for (const [name, child] of Object.entries(properties ?? {})) {
        // A property whose type is a shared definition may carry its description there.
        const definition = typeof child.$ref === 'string' ? (schema.$defs as Mutable)[child.$ref.replace('#/$defs/', '')] : undefined;
        const described = typeof child.description === 'string' || typeof definition?.description === 'string';
        if (!described) undescribed.push(`${path}/${name}`);
      }
      for (const [key, child] of Object.entries(node)) visit(child, `${path}/${key}`);
    };
    visit(schema, '');
    expect(undescribed).toEqual([]);
  });

  it.each<[string, (doc: Mutable) => void]>([
    ['another schema version', (doc) => (doc.schema_version = 1)],
    ['no kind', (doc) => delete doc.kind],
    ['an unknown kind', (doc) => (doc.kind = 'soak')],
    ['the kind of a load run', (doc) => (doc.kind = 'load')],
    ['no summary', (doc) => delete doc.summary],
    ['an unknown status', (doc) => (doc.checks[0].status = 'passed')],
    ['an unknown level', (doc) => (doc.checks[0].level = 'MAY')],
    ['a camelCase field', (doc) => (doc.checks[0].durationMs = doc.checks[0].duration_ms)],
    ['a negative count', (doc) => (doc.summary.fail = -1)],
    ['a start time that is not a date-time', (doc) => (doc.started_at = 'yesterday')],
    ['a spec hash that is not sha256 hex', (doc) => (doc.spec.sha256 = 'abc')],
    ['an exchange with neither response nor transport error', (doc) => delete doc.checks[0].evidence[0].response],
    ['a header value that is not a string', (doc) => (doc.checks[0].evidence[0].request.headers['x-n'] = 1)],
    ['a latency entry without p99', (doc) => delete doc.latency.decide.p99_ms],
    ['a key in the target', (doc) => (doc.target.api_key = 'svc_live_x')],
  ])('rejects a file with %s', (_, mutate) => {
    const doc = results();
    mutate(doc);
    expect(validate(doc)).toBe(false);
  });

  it('is indented JSON ending with a newline, for diffs', () => {
    const text = renderJson(sampleRunReport());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n').slice(1, 3)).toEqual(['  "schema_version": 2,', '  "kind": "conformance",']);
  });

  it('of a load run and of a cold-start run validates too, each kind with its own fields only', () => {
    for (const doc of [loadResults(), coldStartResults()]) {
      const valid = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
    }
    expect(Object.keys(loadResults())).toEqual(['schema_version', 'kind', 'kit', 'spec', 'target', 'started_at', 'finished_at', 'duration_ms', 'load']);
    expect(Object.keys(coldStartResults())).toEqual([
      'schema_version',
      'kind',
      'kit',
      'spec',
      'server',
      'started_at',
      'finished_at',
      'duration_ms',
      'cold_start',
    ]);
  });

  it.each<[string, () => Mutable, (doc: Mutable) => void]>([
    ['a load run with a seed', loadResults, (doc) => (doc.seed = 0)],
    ['a load run with a warm-up', loadResults, (doc) => (doc.warmup = { duration_ms: 0, ok: true })],
    ['a load run with checks and a summary', loadResults, (doc) => Object.assign(doc, { checks: [], summary: results().summary })],
    ['a load run without its load section', loadResults, (doc) => delete doc.load],
    ['a load run with a second key in its target', loadResults, (doc) => (doc.target.second_key = false)],
    ['a load run with cold start in its load section', loadResults, (doc) => (doc.load.cold_start = coldStartResults().cold_start)],
    ['a load run that calls itself a cold-start run', loadResults, (doc) => (doc.kind = 'cold-start')],
    ['a cold-start run with a load section', coldStartResults, (doc) => (doc.load = loadResults().load)],
    ['a cold-start run with a target', coldStartResults, (doc) => (doc.target = loadResults().target)],
    ['a cold-start run without its spawns', coldStartResults, (doc) => delete doc.cold_start],
  ])('rejects %s', (_, build, mutate) => {
    const doc = build();
    expect(validate(doc)).toBe(true);
    mutate(doc);
    expect(validate(doc)).toBe(false);
  });
});
