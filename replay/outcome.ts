// What the old run relied on in a response, and whether a new response still gives it:
//  - the status;
//  - the error code (error.code) of an error body;
//  - every top-level field of a JSON object body (new fields are fine: seed 9.3);
//  - every answer id of `answers`, with the same answer type and every field it had;
//  - the X-Request-ID header.
// Values other than these (probabilities, ids, timestamps) may differ between runs.
import { isObject, type Json } from '../spec/index.ts';

export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A recorded body excerpt, cut at about 2,000 characters, cannot be read as JSON. */
export const isExcerpt = (body: string) => /… \(\d+ characters\)$/.test(body);

function parseJson(body: string): Json | undefined {
  try {
    return JSON.parse(body) as Json;
  } catch {
    return undefined;
  }
}

/** Differences between what the old response gave and the new one gives; empty when nothing the old run relied on changed. */
export function outcomeChanges(old: ObservedResponse, now: ObservedResponse): string[] {
  const changes: string[] = [];
  if (old.status !== now.status) changes.push(`status ${old.status} became ${now.status}`);
  const header = (r: ObservedResponse) => Object.entries(r.headers).find(([name]) => name.toLowerCase() === 'x-request-id')?.[1];
  if (header(old) !== undefined && header(now) === undefined) changes.push('the X-Request-ID header is gone');
  if (isExcerpt(old.body)) return changes;
  const before = parseJson(old.body);
  const after = parseJson(now.body);
  if (!isObject(before)) return changes;
  if (!isObject(after)) return [...changes, 'the body is no longer a JSON object'];

  const oldCode = isObject(before.error) ? before.error.code : undefined;
  const newCode = isObject(after.error) ? after.error.code : undefined;
  if (oldCode !== undefined && oldCode !== newCode) changes.push(`error code ${String(oldCode)} became ${newCode === undefined ? 'none' : String(newCode)}`);

  for (const field of Object.keys(before)) if (!(field in after)) changes.push(`field "${field}" is gone`);
  if (isObject(before.answers) && isObject(after.answers)) {
    for (const [id, answer] of Object.entries(before.answers)) {
      const next = after.answers[id];
      if (next === undefined) {
        changes.push(`answer "${id}" is gone`);
        continue;
      }
      if (!isObject(answer) || !isObject(next)) continue;
      if (answer.type !== next.type) changes.push(`answer "${id}" type ${String(answer.type)} became ${String(next.type)}`);
      for (const field of Object.keys(answer)) if (!(field in next)) changes.push(`field "${field}" of answer "${id}" is gone`);
    }
  }
  return changes;
}
