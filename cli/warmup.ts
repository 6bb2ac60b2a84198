// The warm-up call: the seed warns that the first call after a quiet period may take about two
// minutes (cold start), so it gets its own long timeout and its duration is reported.
import { createHttp, TransportError } from '../harness/http.ts';

export interface Warmup {
  ok: boolean;
  durationMs: number;
  status?: number;
  message?: string;
}

export async function warmUp(baseUrl: string, key: string, timeoutMs: number): Promise<Warmup> {
  const http = createHttp({ baseUrl, timeoutMs, secrets: [key], record: () => {} });
  const started = performance.now();
  try {
    const reply = await http({
      method: 'POST',
      path: '/v1/decide',
      key,
      json: { context: 'Warm-up call of the conformance kit.', questions: { warmup: { type: 'choice', options: { ready: 'The service is ready', other: '' } } } },
    });
    const durationMs = performance.now() - started;
    if (reply.status === 401) return { ok: false, durationMs, status: 401, message: 'the target refused the key given for project A (401): check --api-key or DECISION_API_KEY' };
    return { ok: true, durationMs, status: reply.status };
  } catch (error) {
    const durationMs = performance.now() - started;
    const what = error instanceof TransportError ? error.message : (error as Error).message;
    const hint =
      error instanceof TransportError && error.kind === 'timeout'
        ? `raise --warmup-timeout-ms if the server starts slowly`
        : 'check that the server is running and that --base-url is right';
    return { ok: false, durationMs, message: `${baseUrl} did not answer a decide call: ${what}; ${hint}` };
  }
}
