// Limits the spec carries in kit extensions on schemas because no schema keyword can count
// them: media parts per request (x-media-limits, seed 8) and upload families (x-families:
// accepted types, file size, pages, seconds; seed 4.5 and 8). Both bound what clients send.
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import { rule } from '../findings.ts';
import type { DocumentStage, RuleFamily } from '../family.ts';
import { child } from '../pointer.ts';

const RULES = {
  decreased: rule(
    'request-media-limit-decreased',
    'request',
    'breaking',
    'a media limit (x-media-limits count, x-families size, pages or seconds) went down or was added',
  ),
  increased: rule('request-media-limit-increased', 'request', 'non-breaking', 'a media limit went up or was removed'),
  codeChanged: rule('media-limit-code-changed', 'response', 'breaking', 'the error code answered over a media limit changed'),
  typeRemoved: rule('upload-type-removed', 'request', 'breaking', 'an upload family no longer accepts a MIME type'),
  typeAdded: rule('upload-type-added', 'request', 'non-breaking', 'an upload family accepts a new MIME type'),
};

/** Every x-media-limits and x-families entry of the component schemas: pointer -> entry. */
function entriesOf(doc: JsonObject): Map<string, JsonObject> {
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const found = new Map<string, JsonObject>();
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema)) continue;
    for (const keyword of ['x-media-limits', 'x-families']) {
      const table = schema[keyword];
      if (!isObject(table)) continue;
      for (const [kind, entry] of Object.entries(table)) if (isObject(entry)) found.set(child('/components/schemas', name, keyword, kind), entry);
    }
  }
  return found;
}

/** "10 MB" -> 10; numbers stay numbers; anything else is not a figure. */
function figure(value: Json | undefined): number | undefined {
  if (typeof value === 'number') return value;
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)\s*[A-Za-z]*$/.exec(value) : null;
  return match ? Number(match[1]) : undefined;
}

function compareMediaLimits({ pair, collector }: DocumentStage): void {
  const before = entriesOf(pair.old);
  const after = entriesOf(pair.new);
  for (const [pointer, was] of before) {
    const now = after.get(pointer);
    if (!now) continue;
    const kind = pointer.split('/').at(-1);
    for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
      if (key === 'code' || key === 'types') continue;
      const oldValue = figure(was[key]);
      const newValue = figure(now[key]);
      if (oldValue === newValue || (oldValue === undefined && newValue === undefined)) continue;
      const down = oldValue === undefined || (newValue !== undefined && newValue < oldValue);
      collector.report(down ? RULES.decreased : RULES.increased, {
        oldPointer: child(pointer, key),
        newPointer: child(pointer, key),
        message: `The ${kind} limit ${key} went from ${String(was[key] ?? 'none')} to ${String(now[key] ?? 'none')}.`,
      });
    }
    if (was.code !== undefined && was.code !== now.code) {
      collector.report(RULES.codeChanged, {
        oldPointer: child(pointer, 'code'),
        newPointer: child(pointer, 'code'),
        message: `Over the ${kind} limit, the error code ${String(was.code)} became ${String(now.code ?? 'none')}.`,
      });
    }
    const types = (entry: JsonObject) => (Array.isArray(entry.types) ? entry.types.map(String) : []);
    for (const type of types(was).filter((t) => !types(now).includes(t))) {
      collector.report(RULES.typeRemoved, {
        oldPointer: child(pointer, 'types'),
        newPointer: child(pointer, 'types'),
        message: `Uploads of the ${kind} family no longer accept ${type}.`,
      });
    }
    for (const type of types(now).filter((t) => !types(was).includes(t))) {
      collector.report(RULES.typeAdded, {
        oldPointer: child(pointer, 'types'),
        newPointer: child(pointer, 'types'),
        message: `Uploads of the ${kind} family now accept ${type}.`,
      });
    }
  }
}

export const mediaLimitFamily: RuleFamily = { name: 'media limits', stage: 'document', rules: Object.values(RULES), compare: compareMediaLimits };
