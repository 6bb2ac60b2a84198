// Paths and operations: what exists, its operationId, and whether it needs a key. Three
// families, one per stage: paths and operations that appear or disappear (document), what
// changed on an operation both documents have (operation), and the security schemes
// (document).
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import { rule } from '../findings.ts';
import type { DocumentStage, RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import type { OperationContext } from '../operation-context.ts';
import { METHODS } from '../path-pairs.ts';
import { child } from '../pointer.ts';
import { canonical } from '../schema-walk.ts';

const PATH_RULES = {
  pathRemoved: rule('path-removed', 'document', 'breaking', 'a path and all its operations were removed'),
  pathAdded: rule('path-added', 'document', 'non-breaking', 'a path was added'),
  operationRemoved: rule('operation-removed', 'document', 'breaking', 'an operation (method on a path) was removed'),
  operationAdded: rule('operation-added', 'document', 'non-breaking', 'an operation was added'),
};

const RULES = {
  operationIdChanged: rule('operation-id-changed', 'document', 'breaking', 'the operationId changed (generated clients rename the method)'),
  securityAdded: rule('security-added', 'request', 'breaking', 'an operation that needed no key now needs one'),
  securityRemoved: rule('security-removed', 'request', 'non-breaking', 'an operation no longer needs a key'),
  securityChanged: rule('security-changed', 'request', 'breaking', 'an operation needs a different security scheme than before'),
};

const SCHEME_RULES = {
  securitySchemeChanged: rule('security-scheme-changed', 'document', 'breaking', 'a security scheme was removed or its type, scheme, location or name changed'),
};

function comparePaths({ paths, collector }: DocumentStage): void {
  const methodsOf = (item: JsonObject) => METHODS.filter((m) => isObject(item[m]));
  for (const { old: was, new: now } of paths) {
    if (was && !now) {
      collector.report(PATH_RULES.pathRemoved, {
        oldPointer: was.pointer,
        newPointer: '/paths',
        operation: was.path,
        message: `Path ${was.path} was removed with all its operations (${methodsOf(was.item)
          .map((m) => m.toUpperCase())
          .join(', ')}).`,
      });
    } else if (!was && now) {
      collector.report(PATH_RULES.pathAdded, { oldPointer: '/paths', newPointer: now.pointer, operation: now.path, message: `Path ${now.path} was added.` });
    } else if (was && now) {
      for (const method of METHODS) {
        const label = `${method.toUpperCase()} ${now.path}`;
        if (isObject(was.item[method]) && !isObject(now.item[method])) {
          collector.report(PATH_RULES.operationRemoved, {
            oldPointer: child(was.pointer, method),
            newPointer: now.pointer,
            operation: `${method.toUpperCase()} ${was.path}`,
            message: `${method.toUpperCase()} ${was.path} was removed.`,
          });
        } else if (!isObject(was.item[method]) && isObject(now.item[method])) {
          collector.report(PATH_RULES.operationAdded, {
            oldPointer: was.pointer,
            newPointer: child(now.pointer, method),
            operation: label,
            message: `${label} was added.`,
          });
        }
      }
    }
  }
}

/** The security requirements that apply: the operation's own, else the document's. */
function requirementsOf(doc: JsonObject, operation: JsonObject): JsonObject[] {
  const list = (operation.security ?? doc.security ?? []) as Json[];
  return list.filter(isObject);
}

/** Open when there is no requirement or one of them is empty (`{}`: the key is optional). */
const isOpen = (requirements: JsonObject[]) => requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0);
const schemesOf = (requirements: JsonObject[]) => requirements.map((r) => Object.keys(r).sort().join('+'));

function compareOperationBasics(ctx: OperationContext): void {
  const oldId = ctx.old.operation.operationId;
  const newId = ctx.new.operation.operationId;
  const report = (r: Rule, message: string, oldPointer = ctx.old.pointer, newPointer = ctx.new.pointer) =>
    ctx.collector.report(r, { oldPointer, newPointer, operation: ctx.label, message });
  if (oldId !== undefined && oldId !== newId) {
    report(
      RULES.operationIdChanged,
      `The operationId of ${ctx.label} changed from "${String(oldId)}" to "${String(newId)}".`,
      child(ctx.old.pointer, 'operationId'),
      child(ctx.new.pointer, 'operationId'),
    );
  }
  const before = requirementsOf(ctx.pair.old, ctx.old.operation);
  const after = requirementsOf(ctx.pair.new, ctx.new.operation);
  if (isOpen(before) && !isOpen(after)) {
    report(RULES.securityAdded, `${ctx.label} now needs ${schemesOf(after).join(' or ')}; it needed no key before.`);
  } else if (!isOpen(before) && isOpen(after)) {
    report(RULES.securityRemoved, `${ctx.label} no longer needs a key.`);
  } else if (!isOpen(before) && !isOpen(after)) {
    const accepted = new Set(schemesOf(after));
    const lost = schemesOf(before).filter((scheme) => !accepted.has(scheme));
    if (lost.length > 0) report(RULES.securityChanged, `${ctx.label} no longer accepts ${lost.join(' or ')}; it needs ${schemesOf(after).join(' or ')}.`);
  }
}

function compareSecuritySchemes({ pair, collector }: DocumentStage): void {
  const schemesIn = (doc: JsonObject) => {
    const components = isObject(doc.components) ? doc.components : {};
    return isObject(components.securitySchemes) ? components.securitySchemes : {};
  };
  const before = schemesIn(pair.old);
  const after = schemesIn(pair.new);
  const essentials = (scheme: Json | undefined) =>
    isObject(scheme) ? canonical({ type: scheme.type ?? null, scheme: scheme.scheme ?? null, in: scheme.in ?? null, name: scheme.name ?? null }) : 'none';
  for (const [name, scheme] of Object.entries(before)) {
    if (essentials(scheme) === essentials(after[name])) continue;
    const pointer = `/components/securitySchemes/${name}`;
    collector.report(SCHEME_RULES.securitySchemeChanged, {
      oldPointer: pointer,
      newPointer: name in after ? pointer : '/components/securitySchemes',
      message:
        name in after
          ? `Security scheme "${name}" changed: ${essentials(scheme)} became ${essentials(after[name])}.`
          : `Security scheme "${name}" was removed.`,
    });
  }
}

export const pathFamily: RuleFamily = { name: 'paths', stage: 'document', rules: Object.values(PATH_RULES), compare: comparePaths };
export const operationFamily: RuleFamily = { name: 'operations', stage: 'operation', rules: Object.values(RULES), compare: compareOperationBasics };
export const securitySchemeFamily: RuleFamily = {
  name: 'security schemes',
  stage: 'document',
  rules: Object.values(SCHEME_RULES),
  compare: compareSecuritySchemes,
};
