// The decision log is written off the request's critical path, yet loses nothing on a clean
// shutdown: every decision answered 2xx has its record on disk after close, and decisions still
// being scored when the server closes (their callers gone) are recorded too, not a crash.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { expect, test } from 'vitest';
import { choiceQuestion, KEY_A, startServer } from './support/server.ts';

const DECISIONS = 300;

test('N decisions, then callers leave and the server closes while some are in flight: every one answered is on disk', async () => {
  const server = await startServer();
  // Our own connections, ended once every reply is in: the server's close waits for them.
  const agent = new Agent({ connections: 16 });
  try {
    let answered = 0;
    let closing: Promise<void> | undefined;
    const replies = await Promise.all(
      Array.from({ length: DECISIONS }, (_, i) =>
        request(`${server.baseUrl}/v1/decide`, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json', 'x-request-id': `log-${i}` },
          body: JSON.stringify({ context: `Order ${i}: charged twice, refund please.`, questions: { q: choiceQuestion() } }),
        })
          .then(async (reply) => {
            await reply.body.dump();
            answered += 1;
            // When half have been answered, the callers hang up and the server closes: the other
            // half is still queued or being scored, and finishes after the close began.
            if (answered === DECISIONS / 2) {
              void agent.destroy();
              closing = server.app.close();
            }
            return { status: reply.statusCode, headers: reply.headers };
          })
          .catch(() => undefined),
      ),
    );
    await closing;
    // Late decisions are still being finished when close resolves: give them a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const succeeded = replies.filter((reply) => reply && reply.status >= 200 && reply.status < 300).map((reply) => reply!.headers['x-request-id']);
    expect(succeeded.length).toBeGreaterThanOrEqual(DECISIONS / 2);

    const records = readFileSync(join(server.dataDir, 'decisions', 'decisions.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { requestId: string });
    const recorded = new Set(records.map((record) => record.requestId));
    for (const id of succeeded) expect(recorded.has(id as string)).toBe(true);
    expect(recorded.size).toBe(records.length);
    expect(records.length).toBeLessThanOrEqual(DECISIONS);
  } finally {
    rmSync(server.dataDir, { recursive: true, force: true });
  }
});
