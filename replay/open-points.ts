// Which of the spec's open points (x-open-points) a change is one of: a server may make either
// choice the seed allows, and a replay against a server that made the other one reports the
// change labelled as such (still a change: the outcome the old run relied on is not given).
import { isObject, openPoints, type Json } from '../spec/index.ts';

/** Each field of a choice with its values, nested fields by their own name: "status" -> {"200"}. */
function fieldValues(choice: Json, into = new Map<string, Set<string>>(), field = ''): Map<string, Set<string>> {
  if (Array.isArray(choice)) for (const item of choice) fieldValues(item, into, field);
  else if (isObject(choice)) for (const [name, value] of Object.entries(choice)) fieldValues(value, into, name);
  else if ((typeof choice === 'number' || typeof choice === 'string') && field !== 'summary')
    into.set(field, (into.get(field) ?? new Set()).add(String(choice)));
  return into;
}

const choices = openPoints.map((point) => ({ id: point.id, reference: fieldValues(point.referenceChoice), alternate: fieldValues(point.alternateChoice) }));

/** The two values a change is about: "status 200 became 201", "error code ASSET_NOT_FOUND became ASSET_DELETED". */
const VALUE_CHANGE = /^(?:status|error code) (\S+) became (\S+)$/;

/**
 * Whether one field of `from` holds `before` where the same field of `to` holds `after`, or `to`
 * maps `before` itself to `after` (name-only-statuses: `TOO_MANY_IMAGES: INVALID_REQUEST`).
 */
const turns = (from: Map<string, Set<string>>, to: Map<string, Set<string>>, before: string, after: string) =>
  to.get(before)?.has(after) === true || [...from].some(([field, values]) => values.has(before) && to.get(field)?.has(after) === true);

/** A server error is never one of an open point's choices: every choice is an answer or a refusal. */
const SERVER_ERROR = /became 5\d\d$|^no response: /;

/** Where else an exchange names open points: its check's (its own, or those whose bounds it enforces), and its old response's documentation (x-open-point). */
export interface OpenPointContext {
  check?: readonly string[];
  response?: string;
}

/**
 * The open points the changes are choices of, when every change is one; undefined when any is
 * not. A change of a check about open points is one of theirs (the check exists to see which
 * choice a server made), a server error excepted. Otherwise a value turned is one when an open
 * point's choices turn it; a field or the body gone, when the status change that came with it
 * is one, or when the old response is documented as an open point's.
 */
export function openPointsOf(changes: readonly string[], context: OpenPointContext = {}): string[] | undefined {
  if (changes.some((change) => SERVER_ERROR.test(change))) return undefined;
  if (context.check && context.check.length > 0) return [...context.check];
  const ids = new Set<string>();
  const others: string[] = [];
  for (const change of changes) {
    const values = VALUE_CHANGE.exec(change);
    if (!values) {
      others.push(change);
      continue;
    }
    const [, before, after] = values as unknown as [string, string, string];
    const point = choices.find(({ reference, alternate }) => turns(reference, alternate, before, after) || turns(alternate, reference, before, after));
    if (!point) return undefined;
    ids.add(point.id);
  }
  if (others.length > 0) {
    const owner = [...ids][0] ?? context.response;
    if (owner === undefined) return undefined;
    ids.add(owner);
  }
  return ids.size > 0 ? [...ids] : undefined;
}
