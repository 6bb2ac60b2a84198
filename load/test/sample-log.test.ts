// The Node runner keeps no sample per request: counts, failures and latency are taken as each
// request completes, and the load result says what it said when every sample was kept.
import { expect, test } from 'vitest';
import { latencyFigures } from '../percentiles.ts';
import { loadDefinition } from '../runner/definition.ts';
import { nodeLoadResult } from '../runner/result.ts';
import { type RequestSample, SampleLog } from '../runner/samples.ts';

test('requests, requests by name, the error rate and latency come from requests counted as they complete', async () => {
  const definition = await loadDefinition('mixed', { BASE_URL: 'http://127.0.0.1:1', API_KEY: 'svc_live_x', DURATION: '4', RATE: '10', WINDOW_S: '1' });
  const requests: RequestSample[] = [
    { name: 'decide', startedMs: 10, durationMs: 12, status: 200 },
    { name: 'decide', startedMs: 1200, durationMs: 30, status: 200 },
    // No response: a failure, and its duration (a timeout) is no latency.
    { name: 'decide', startedMs: 1300, durationMs: 180_000, status: 0 },
    { name: 'decide', startedMs: 2500, durationMs: 8, status: 503 },
    // A refusal of the feedback shape the seed leaves open: not a failure.
    { name: 'feedback', startedMs: 2600, durationMs: 3, status: 400, refused: true },
    { name: 'feedback', startedMs: 3100, durationMs: 4, status: 404 },
    { name: 'models', startedMs: 3900, durationMs: 2, status: 200 },
  ];
  const log = new SampleLog(definition);
  for (const request of requests) log.recordRequest(request);
  const run = nodeLoadResult(definition, log, {
    baseUrl: 'http://127.0.0.1:1',
    startedAt: new Date(0),
    durationMs: 3500,
    nodeVersion: 'v20',
    validateEvery: 1,
  });
  expect(run.requests).toBe(7);
  expect(run.requests_by_name).toEqual({ decide: 4, upload_asset: 0, decide_on_asset: 0, feedback: 2, models: 1, health: 0 });
  expect(run.throughput_rps).toBe(2);
  // Failed: no response, 503, 404.
  expect(run.error_rate).toBeCloseTo(3 / 7, 12);
  expect(run.latency.all!.count).toBe(6);
  expect({ latency: run.latency, timeline: run.timeline }).toEqual(latencyFigures(definition, requests));
  expect(run.timeline.map((window) => [window.start_s, window.count])).toEqual([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 2],
  ]);
});
