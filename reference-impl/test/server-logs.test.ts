// Logs carry request ids but never request contexts, media bytes, extracted text or keys (seed 2.5).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, choiceQuestion, KEY_A, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.stop());

const MARKERS = ['ZEBRA-CONTEXT-7731', 'QUOKKA-PART-4410', 'NARWHAL-UPLOAD-2208', 'OCELOT-INSTRUCTIONS-9051', 'PANGOLIN-BROKEN-1234'];

test('distinctive request content never reaches the logs, while request ids do', async () => {
  await call(server, 'POST', '/v1/decide', {
    body: { context: `My note: ${MARKERS[0]}`, questions: { q: choiceQuestion() } },
    headers: { 'x-request-id': 'log-check-1' },
  });
  await call(server, 'POST', '/v1/decide', {
    body: { context: [{ type: 'text', text: MARKERS[1] }], questions: { q: { type: 'noul', instructions: MARKERS[3] } } },
  });
  const upload = await call(server, 'POST', '/v1/assets', { raw: `Secret text ${MARKERS[2]}\n`, contentType: 'text/plain' });
  expect(upload.status).toBe(201);
  await call(server, 'POST', '/v1/decide', { body: { context: [{ type: 'document', asset_id: upload.json.id }], questions: { q: choiceQuestion() } } });
  await call(server, 'POST', '/v1/decide', { raw: `{"context": "${MARKERS[4]}`, contentType: 'application/json' });
  await call(server, 'POST', '/v1/decide', { body: { context: MARKERS[0], questions: { q: choiceQuestion() }, extra: MARKERS[0] } });

  const logs = server.logs.join('');
  expect(logs).toContain('log-check-1');
  for (const marker of MARKERS) expect(logs).not.toContain(marker);
  expect(logs).not.toContain(KEY_A);
});
