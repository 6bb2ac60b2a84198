// OpenAPI links let stateful tools (Schemathesis, Prism's proxy users, contract testers) chain
// real resources: an uploaded asset's id into GET and DELETE, a decision's request id into
// feedback. Each link must name a real operation and parameter, and each runtime expression must
// point at something the source response always carries, or the chain silently breaks.
import { describe, expect, test } from 'vitest';
import { deref, isObject, operation, operations, resolvePointer, type Json, type JsonObject } from '../index.ts';

interface LinkUse {
  source: string;
  status: string;
  name: string;
  link: JsonObject;
  response: JsonObject;
}

function allLinks(): LinkUse[] {
  const uses: LinkUse[] = [];
  for (const op of operations) {
    for (const [status, listed] of Object.entries(op.definition.responses as JsonObject)) {
      const response = deref(listed as JsonObject);
      for (const [name, link] of Object.entries((response.links as JsonObject | undefined) ?? {})) {
        uses.push({ source: op.operationId, status, name, link: deref(link as JsonObject), response });
      }
    }
  }
  return uses;
}

/** Every runtime expression in a link's parameters and request body, bare or embedded in `{...}`. */
function expressionsOf(value: Json): string[] {
  if (typeof value === 'string') {
    if (value.startsWith('$')) return [value];
    return [...value.matchAll(/\{(\$[^}]+)\}/g)].map((match) => match[1]!);
  }
  if (Array.isArray(value)) return value.flatMap(expressionsOf);
  if (isObject(value)) return Object.values(value).flatMap(expressionsOf);
  return [];
}

/** The names of the parameters an operation takes, its path item's included. */
function parameterNames(operationId: string): string[] {
  const op = operation(operationId);
  const pathItem = (resolvePointer('#/paths') as JsonObject)[op.path] as JsonObject;
  const listed = [...((pathItem.parameters as Json[] | undefined) ?? []), ...((op.definition.parameters as Json[] | undefined) ?? [])];
  return listed.map((parameter) => String(deref(parameter as JsonObject).name));
}

/** True when every instance of the response's JSON schema has the property at this top-level pointer. */
function bodyAlwaysHas(response: JsonObject, pointer: string): boolean {
  const schema = deref(((response.content as JsonObject)['application/json'] as JsonObject).schema as JsonObject);
  const property = pointer.replace(/^\//, '');
  return !property.includes('/') && Array.isArray(schema.required) && schema.required.includes(property);
}

function expressionHolds(expression: string, response: JsonObject): boolean {
  const body = /^\$response\.body#(\/.*)$/.exec(expression);
  if (body) return bodyAlwaysHas(response, body[1]!);
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header) {
    const declared = deref(((response.headers as JsonObject | undefined)?.[header[1]!] as JsonObject | undefined) ?? {});
    return declared.required === true;
  }
  return false;
}

describe('OpenAPI links chain real resources', () => {
  test('upload (201) links to GET and DELETE by the asset id; a decision links to feedback by its request id', () => {
    const summary = allLinks().map(
      ({ source, status, link }) =>
        `${source} ${status} -> ${String(link.operationId)} ${JSON.stringify(expressionsOf((link.parameters ?? link.requestBody) as Json))}`,
    );
    expect(summary.sort()).toEqual([
      'decide 200 -> submitFeedback ["$response.header.X-Request-ID"]',
      'uploadAsset 201 -> deleteAsset ["$response.body#/id"]',
      'uploadAsset 201 -> getAsset ["$response.body#/id"]',
    ]);
  });

  test.each(allLinks().map((use) => [`${use.source} ${use.status} ${use.name}`, use] as const))(
    '%s names a real operation and its parameters, and reads what the response always carries',
    (_label, { link, response }) => {
      const target = String(link.operationId);
      expect(operations.map((op) => op.operationId)).toContain(target);
      for (const name of Object.keys((link.parameters as JsonObject | undefined) ?? {}))
        expect(parameterNames(target)).toContain(name.replace(/^(path|query|header|cookie)\./, ''));
      const expressions = expressionsOf([(link.parameters ?? null) as Json, (link.requestBody ?? null) as Json]);
      expect(expressions.length).toBeGreaterThan(0);
      for (const expression of expressions) expect(expressionHolds(expression, response), expression).toBe(true);
    },
  );

  test('the expression check fails a link reading a field the response may lack', () => {
    const upload = deref((operation('uploadAsset').definition.responses as JsonObject)['201'] as JsonObject);
    expect(expressionHolds('$response.body#/id', upload)).toBe(true);
    expect(expressionHolds('$response.body#/asset_id', upload)).toBe(false);
    expect(expressionHolds('$response.header.Location', upload)).toBe(false);
  });
});
