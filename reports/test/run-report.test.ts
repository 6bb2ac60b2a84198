import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPoint, specSha256, specVersion } from '../../spec/index.ts';
import { latencyByOperation, percentile } from '../latency.ts';
import { maskOf, redactDeep, redactText } from '../../harness/redaction.ts';
import { summarize, verdictOf } from '../run-report.ts';
import { DECIDE_DURATIONS, FINISHED_AT, KEY_A, KEY_B, SECRETS, STARTED_AT, sampleResults, sampleRunReport } from './sample-run.ts';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

describe('buildRunReport', () => {
  const report = sampleRunReport();

  it('states the kit, the spec, the target and the run facts', () => {
    expect(report.schema_version).toBe(2);
    expect(report.kind).toBe('conformance');
    expect(report.kit).toEqual({ name: manifest.name, version: manifest.version });
    expect(report.spec).toEqual({ version: specVersion, sha256: specSha256 });
    expect(report.target).toEqual({
      base_url: 'http://127.0.0.1:47123',
      embedded: true,
      capabilities: ['multimodal', 'noul', 'score', 'multi'],
      second_key: false,
    });
    expect(report.started_at).toBe(STARTED_AT.toISOString());
    expect(report.finished_at).toBe(FINISHED_AT.toISOString());
    expect(report.duration_ms).toBe(FINISHED_AT.getTime() - STARTED_AT.getTime());
    expect(report.warmup).toMatchObject({ duration_ms: 1834.6, ok: true });
    expect(report.seed).toBe(20251122);
  });

  it('counts outcomes, MUST failures apart', () => {
    expect(report.summary).toEqual({ total: 11, pass: 4, fail: 3, skip: 2, observed: 2, must_failed: 2 });
    expect(verdictOf(report.summary)).toBe('fail');
  });

  it('maps each result to snake_case, keeping run order, and rounds durations to a tenth of a millisecond', () => {
    expect(report.checks.map((check) => check.id)).toEqual(sampleResults().map((result) => result.id));
    const failed = report.checks.find((check) => check.id === 'DECIDE-CHOICE-MARGIN')!;
    expect(failed).toMatchObject({ level: 'MUST', area: 'decide', seed_sections: ['2.4', '4.1'], status: 'fail', duration_ms: 1432.8 });
    expect(failed.evidence).toHaveLength(DECIDE_DURATIONS.length);
    expect(failed.evidence[0]).toMatchObject({ operation_id: 'decide', request: { method: 'POST' }, response: { status: 200 } });
    expect(Object.keys(failed.evidence[0]!.request)).toEqual(['method', 'url', 'headers', 'body']);
    const observed = report.checks.find((check) => check.id === 'OBSERVE-UNKNOWN-ROUTE')!;
    expect(observed.open_point).toBe('unknown-route');
    expect(observed.observation).toMatchObject({ matches_reference: false, reference: '404 NOT_FOUND in the error body.' });
    const timedOut = report.checks.find((check) => check.id === 'DECIDE-COLD-START-TIMEOUT')!;
    expect(timedOut.evidence[0]!.response).toBeUndefined();
    expect(timedOut.evidence[0]!.transport_error).toMatch(/^timeout/);
  });

  it("lists the open points the OBSERVE checks cite, with the spec's reference choice", () => {
    expect(report.open_points.map((point) => point.id).sort()).toEqual(['asset-ttl', 'decide-success-status', 'unknown-route']);
    const unknownRoute = report.open_points.find((point) => point.id === 'unknown-route')!;
    expect(unknownRoute.reference_choice).toBe(openPoint('unknown-route').referenceChoice.summary);
    expect(unknownRoute.open).toBe(openPoint('unknown-route').open);
  });

  it('computes nearest-rank latency per operation from responses only', () => {
    // decide: the 12 timed calls, the 401 of AUTH-MISSING-KEY, the 400 and the OBSERVE call; the timeout is left out.
    expect(report.latency.decide).toEqual({ count: 15, p50_ms: 40, p90_ms: 110, p99_ms: 250, max_ms: 250 });
    expect(report.latency.listModels).toEqual({ count: 2, p50_ms: 3.2, p90_ms: 5.4, p99_ms: 5.4, max_ms: 5.4 });
    expect(Object.keys(report.latency)).toEqual(['decide', 'getHealth', 'listModels', 'uploadAsset']);
  });

  it('leaves no key anywhere, even where a check wrote one in clear or URL-encoded', () => {
    const text = JSON.stringify(report);
    for (const secret of SECRETS) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }
    const planted = report.checks.find((check) => check.id === 'AUTH-VALID-KEY')!;
    expect(planted.notes[0]).toBe('accepted the key svc_live_*** on the first try');
    expect(planted.evidence[0]!.request.headers.authorization).toBe('Bearer svc_live_***');
    expect(report.warmup.message).not.toContain(KEY_A);
  });

  it('does not change the results it was given', () => {
    const results = sampleResults();
    const before = JSON.stringify(results);
    sampleRunReport(results);
    expect(JSON.stringify(results)).toBe(before);
  });
});

describe('verdictOf', () => {
  it('fails on a MUST failure, warns on a SHOULD failure only, and does not call a run of skips a pass', () => {
    expect(verdictOf({ total: 3, pass: 1, fail: 1, skip: 1, observed: 0, must_failed: 1 })).toBe('fail');
    expect(verdictOf({ total: 3, pass: 2, fail: 1, skip: 0, observed: 0, must_failed: 0 })).toBe('warn');
    expect(verdictOf({ total: 3, pass: 2, fail: 0, skip: 0, observed: 1, must_failed: 0 })).toBe('pass');
    expect(verdictOf({ total: 2, pass: 0, fail: 0, skip: 2, observed: 0, must_failed: 0 })).toBe('empty');
    expect(verdictOf(summarize([]))).toBe('empty');
  });
});

describe('latency', () => {
  it('takes nearest-rank percentiles: always a measured value', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 90)).toBe(9);
    expect(percentile(sorted, 99)).toBe(10);
    expect(percentile([7], 99)).toBe(7);
  });

  it('leaves out transport errors and requests without an operation', () => {
    expect(
      latencyByOperation([
        { operation_id: 'decide', duration_ms: 5 },
        { operation_id: 'decide', duration_ms: 180_000, transport_error: 'timeout: no complete response' },
        { duration_ms: 3 },
      ]),
    ).toEqual({ decide: { count: 1, p50_ms: 5, p90_ms: 5, p99_ms: 5, max_ms: 5 } });
  });
});

describe('redaction', () => {
  it('keeps the svc_live_ prefix and never any part of the secret', () => {
    expect(maskOf(KEY_A)).toBe('svc_live_***');
    expect(maskOf('short')).toBe('***');
    // A key shorter than a prefix would otherwise be shown whole.
    expect(redactText('key=abc123', ['abc123'])).toBe('key=***');
  });

  it('masks URL-encoded spellings, property names, and a longer secret before the one it contains', () => {
    expect(redactText(`q=${encodeURIComponent(KEY_B)}`, [KEY_B])).toBe('q=svc_live_***');
    expect(redactDeep({ [KEY_A]: [KEY_A, 1, null, { inner: `x ${KEY_A} y` }] }, [KEY_A])).toEqual({
      'svc_live_***': ['svc_live_***', 1, null, { inner: 'x svc_live_*** y' }],
    });
    expect(redactText('svc_live_abcdef', ['svc_live_abc', 'svc_live_abcdef'])).toBe('svc_live_***');
  });
});
