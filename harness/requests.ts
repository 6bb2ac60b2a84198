// Request builders shared by the decide checks: the plain bodies of request-bodies.ts (valid
// bodies, N questions, N parts, raw JSON text for ids such as "__proto__"), bodies of exact byte
// sizes, uploaded assets for media parts, and the short form of a reply that observations quote.
import type { ApiClient, CheckContext } from './context.ts';
import type { Reply } from './http.ts';
import { isSuccess } from './status.ts';
import { pngImage, sampleFor, type SampleMimeType } from './samples/media.ts';
import type { MediaPartType } from './request-bodies.ts';

export * from './request-bodies.ts';

/**
 * A valid decide body of exactly `bytes` bytes of UTF-8: one choice question whose `billing`
 * description is padded with `filler` (ASCII by default, one byte a character; a multi-byte
 * filler makes a body with fewer characters than bytes), topped up with ASCII letters.
 */
export function decideTextOfBytes(bytes: number, filler = 'refund '): string {
  const build = (padding: string) =>
    JSON.stringify({
      context: 'Which team handles a refund for a double charge?',
      questions: { topic: { type: 'choice', options: { billing: padding, shipping: 'Delivery and tracking' } } },
    });
  const missing = bytes - Buffer.byteLength(build(''));
  if (missing < 0) throw new Error(`A decide body cannot be as small as ${bytes} bytes`);
  const fillerBytes = Buffer.byteLength(filler);
  const repeats = Math.floor(missing / fillerBytes);
  const text = build(`${filler.repeat(repeats)}${'x'.repeat(missing - repeats * fillerBytes)}`);
  if (Buffer.byteLength(text) !== bytes) throw new Error(`Built ${Buffer.byteLength(text)} bytes instead of ${bytes}`);
  return text;
}

/** POST /v1/decide with a body sent exactly as given. */
export function postDecideText(client: ApiClient, text: string, contentType = 'application/json', headers?: Record<string, string>): Promise<Reply> {
  return client.send({ method: 'POST', path: '/v1/decide', raw: text, contentType, ...(headers ? { headers } : {}) });
}

/** The sample type uploaded for a part of each media type. */
export const SAMPLE_TYPE_OF: Record<MediaPartType, SampleMimeType> = { image: 'image/png', document: 'application/pdf', audio: 'audio/wav' };

/**
 * Uploads `count` small valid files for parts of `type` with the first project's key, runs `use`
 * with their ids, then deletes them. An upload that fails skips the check: the assets area judges
 * uploads; here they only prepare a request.
 */
export async function withUploadedAssets(t: CheckContext, type: MediaPartType, count: number, use: (assetIds: string[]) => Promise<void>): Promise<void> {
  const mimeType = SAMPLE_TYPE_OF[type];
  const ids: string[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const reply = await t.a.upload(type === 'image' ? pngImage() : sampleFor(mimeType), mimeType);
      const id = reply.json?.id;
      if (!isSuccess(reply) || typeof id !== 'string') {
        t.skip(`could not prepare the request: uploading a ${mimeType} sample answered status ${reply.status}`);
      }
      ids.push(id);
    }
    await use(ids);
  } finally {
    for (const id of ids) await t.a.deleteAsset(id).catch(() => undefined);
  }
}

/** "status 200", or "status 400 with code INVALID_REQUEST": what an observation quotes of a reply. */
export function replyOutcome(reply: Reply): string {
  const code = reply.json?.error?.code;
  return `status ${reply.status}${typeof code === 'string' ? ` with code ${code}` : ''}`;
}
