// Parameters (path, query, header, cookie), matched by where they go and their name; a
// parameter that disappears while another with the same schema appears in the same place is a
// rename. Their schemas are walked on the request side.
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import { rule } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import type { OperationContext, OperationSide } from '../operation-context.ts';
import { child, follow } from '../pointer.ts';
import { canonical } from '../schema-walk.ts';

const RULES = {
  addedRequired: rule('request-parameter-added-required', 'request', 'breaking', 'a new required parameter (query, header, cookie)'),
  addedOptional: rule('request-parameter-added', 'request', 'non-breaking', 'a new optional parameter'),
  removed: rule('request-parameter-removed', 'request', 'breaking', 'a parameter was removed'),
  renamed: rule('request-parameter-renamed', 'request', 'breaking', 'a query, header or cookie parameter was renamed (same place, same schema, new name)'),
  pathRenamed: rule('request-path-parameter-renamed', 'request', 'info', 'a path parameter was renamed (the URL clients send is unchanged)'),
  becameRequired: rule('request-parameter-became-required', 'request', 'breaking', 'an optional parameter became required'),
  becameOptional: rule('request-parameter-became-optional', 'request', 'non-breaking', 'a required parameter became optional'),
  locationChanged: rule('request-parameter-location-changed', 'request', 'breaking', 'a parameter moved (e.g. from query to header)'),
};

interface Parameter {
  key: string;
  name: string;
  in: string;
  required: boolean;
  definition: JsonObject;
  pointer: string;
}

/** The operation's parameters: the path item's, overridden by the operation's own. */
function parametersOf(ctx: OperationContext, side: 'old' | 'new'): Map<string, Parameter> {
  const doc = ctx.pair[side];
  const at: OperationSide = ctx[side];
  const found = new Map<string, Parameter>();
  const add = (list: Json[] | undefined, pointer: string) => {
    (list ?? []).forEach((entry, index) => {
      const { node, pointer: resolved } = follow(doc, { node: entry, pointer: child(pointer, index) });
      if (!isObject(node)) return;
      const where = String(node.in);
      const name = String(node.name);
      // Header names are case-insensitive on the wire.
      const key = `${where}:${where === 'header' ? name.toLowerCase() : name}`;
      found.set(key, { key, name, in: where, required: node.required === true || where === 'path', definition: node, pointer: resolved });
    });
  };
  add(at.pathParameters, at.pathParametersPointer);
  add(Array.isArray(at.operation.parameters) ? at.operation.parameters : undefined, child(at.pointer, 'parameters'));
  return found;
}

function compareParameters(ctx: OperationContext): void {
  const before = parametersOf(ctx, 'old');
  const after = parametersOf(ctx, 'new');
  const removed = [...before.values()].filter((p) => !after.has(p.key));
  const added = [...after.values()].filter((p) => !before.has(p.key));
  const report = (ruleToReport: Rule, oldPointer: string, newPointer: string, message: string) =>
    ctx.collector.report(ruleToReport, { oldPointer, newPointer, operation: ctx.label, message });

  for (const gone of removed) {
    const sameSchema = (p: Parameter) => canonical(p.definition.schema) === canonical(gone.definition.schema);
    const renamed = added.find((p) => p.in === gone.in && sameSchema(p));
    const moved = added.find((p) => p.name.toLowerCase() === gone.name.toLowerCase() && p.in !== gone.in);
    if (renamed) {
      added.splice(added.indexOf(renamed), 1);
      report(
        gone.in === 'path' ? RULES.pathRenamed : RULES.renamed,
        gone.pointer,
        renamed.pointer,
        `The ${gone.in} parameter "${gone.name}" of ${ctx.label} was renamed to "${renamed.name}".`,
      );
      compareParameter(ctx, gone, renamed);
    } else if (moved) {
      added.splice(added.indexOf(moved), 1);
      report(RULES.locationChanged, gone.pointer, moved.pointer, `The parameter "${gone.name}" of ${ctx.label} moved from ${gone.in} to ${moved.in}.`);
    } else {
      report(RULES.removed, gone.pointer, ctx.new.pointer, `The ${gone.in} parameter "${gone.name}" of ${ctx.label} was removed.`);
    }
  }
  for (const fresh of added) {
    report(
      fresh.required ? RULES.addedRequired : RULES.addedOptional,
      ctx.old.pointer,
      fresh.pointer,
      `${fresh.required ? 'Required' : 'Optional'} ${fresh.in} parameter "${fresh.name}" was added to ${ctx.label}.`,
    );
  }
  for (const [key, was] of before) {
    const now = after.get(key);
    if (now) compareParameter(ctx, was, now);
  }
}

function compareParameter(ctx: OperationContext, was: Parameter, now: Parameter): void {
  if (!was.required && now.required) {
    ctx.collector.report(RULES.becameRequired, {
      oldPointer: was.pointer,
      newPointer: now.pointer,
      operation: ctx.label,
      message: `The ${now.in} parameter "${now.name}" of ${ctx.label} became required.`,
    });
  } else if (was.required && !now.required) {
    ctx.collector.report(RULES.becameOptional, {
      oldPointer: was.pointer,
      newPointer: now.pointer,
      operation: ctx.label,
      message: `The ${now.in} parameter "${now.name}" of ${ctx.label} became optional.`,
    });
  }
  if (was.definition.schema !== undefined && now.definition.schema !== undefined) {
    ctx.walkSchemas(
      'request',
      { name: `${now.in}:${now.name}` },
      { node: was.definition.schema, pointer: child(was.pointer, 'schema') },
      { node: now.definition.schema, pointer: child(now.pointer, 'schema') },
    );
  }
}

export const parameterFamily: RuleFamily = { name: 'parameters', stage: 'operation', rules: Object.values(RULES), compare: compareParameters };
