// The error-code table (x-codes on the error code schema, seed 7): a code clients handle that
// disappears, or moves to another status, breaks them.
import { isObject, type JsonObject } from '../../spec/index.ts';
import { rule } from '../findings.ts';
import type { DocumentStage, RuleFamily } from '../family.ts';
import { child } from '../pointer.ts';

const RULES = {
  removed: rule('error-code-removed', 'response', 'breaking', 'an error code was removed from the error-code table (x-codes)'),
  statusChanged: rule('error-code-status-changed', 'response', 'breaking', 'an error code moved to another status, or no longer states the one it had'),
  statusStated: rule('error-code-status-stated', 'response', 'info', 'a name-only error code now has a stated status'),
  added: rule('error-code-added', 'response', 'non-breaking', 'an error code was added to the error-code table'),
  conditionChanged: rule('error-code-condition-changed', 'response', 'info', "an error code's condition changed"),
};

/** Every x-codes table of the document's schemas, by schema name. */
function tablesOf(doc: JsonObject): Map<string, { codes: JsonObject; pointer: string }> {
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  return new Map(
    Object.entries(schemas).flatMap(([name, schema]) =>
      isObject(schema) && isObject(schema['x-codes'])
        ? [[name, { codes: schema['x-codes'], pointer: child('/components/schemas', name, 'x-codes') }] as const]
        : [],
    ),
  );
}

function compareErrorCodes({ pair, collector }: DocumentStage): void {
  const before = tablesOf(pair.old);
  const after = tablesOf(pair.new);
  for (const [schema, was] of before) {
    const now = after.get(schema) ?? { codes: {}, pointer: '/components/schemas' };
    for (const [code, entry] of Object.entries(was.codes)) {
      const oldPointer = child(was.pointer, code);
      const next = now.codes[code];
      if (!isObject(next)) {
        collector.report(RULES.removed, { oldPointer, newPointer: now.pointer, message: `Error code ${code} was removed from the error-code table.` });
        continue;
      }
      const newPointer = child(now.pointer, code);
      const oldStatus = isObject(entry) ? (entry.status ?? null) : null;
      const newStatus = next.status ?? null;
      if (oldStatus !== newStatus) {
        const moved = oldStatus !== null;
        collector.report(moved ? RULES.statusChanged : RULES.statusStated, {
          oldPointer,
          newPointer,
          message: moved
            ? `Error code ${code} moved from status ${String(oldStatus)} to ${String(newStatus)}.`
            : `Error code ${code} ${newStatus === null ? `no longer states a status (was ${String(oldStatus)})` : `now states status ${String(newStatus)}`}.`,
        });
      }
      if (isObject(entry) && entry.condition !== next.condition) {
        collector.report(RULES.conditionChanged, {
          oldPointer,
          newPointer,
          message: `The condition of error code ${code} changed to "${String(next.condition)}".`,
        });
      }
    }
    for (const code of Object.keys(now.codes).filter((c) => !(c in was.codes))) {
      collector.report(RULES.added, {
        oldPointer: was.pointer,
        newPointer: child(now.pointer, code),
        message: `Error code ${code} was added to the error-code table.`,
      });
    }
  }
}

export const errorCodeFamily: RuleFamily = { name: 'error codes', stage: 'document', rules: Object.values(RULES), compare: compareErrorCodes };
