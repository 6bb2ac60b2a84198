// Responses: their status codes, media types and headers. Their schemas are walked on the
// response side, per status and media type both documents describe (a media type without a
// schema as `{}`, which admits any body).
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import { rule } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import type { OperationContext } from '../operation-context.ts';
import { child, follow, mediaSchema } from '../pointer.ts';

const RULES = {
  statusRemoved: rule('response-status-removed', 'response', 'breaking', 'a documented response status was removed'),
  statusAdded: rule('response-status-added', 'response', 'non-breaking', 'a response status was documented'),
  mediaTypeRemoved: rule('response-media-type-removed', 'response', 'breaking', 'a response media type was removed'),
  mediaTypeAdded: rule('response-media-type-added', 'response', 'info', 'a response media type was added'),
  headerRemoved: rule('response-header-removed', 'response', 'breaking', 'a response header was removed'),
  headerBecameOptional: rule('response-header-became-optional', 'response', 'breaking', 'a required response header became optional'),
  headerAdded: rule('response-header-added', 'response', 'non-breaking', 'a response header was added'),
};

function located(ctx: OperationContext, side: 'old' | 'new', node: Json, pointer: string): { node: JsonObject; pointer: string } {
  const found = follow(ctx.pair[side], { node, pointer });
  return { node: isObject(found.node) ? found.node : {}, pointer: found.pointer };
}

function compareResponses(ctx: OperationContext): void {
  const oldResponses = isObject(ctx.old.operation.responses) ? ctx.old.operation.responses : {};
  const newResponses = isObject(ctx.new.operation.responses) ? ctx.new.operation.responses : {};
  const oldAt = child(ctx.old.pointer, 'responses');
  const newAt = child(ctx.new.pointer, 'responses');
  const report = (r: Rule, oldPointer: string, newPointer: string, message: string) =>
    ctx.collector.report(r, { oldPointer, newPointer, operation: ctx.label, message });

  for (const [status, response] of Object.entries(oldResponses)) {
    if (!(status in newResponses)) {
      report(RULES.statusRemoved, child(oldAt, status), newAt, `${ctx.label} no longer documents status ${status}.`);
      continue;
    }
    const before = located(ctx, 'old', response, child(oldAt, status));
    const after = located(ctx, 'new', newResponses[status] as Json, child(newAt, status));
    compareContent(ctx, status, before, after, report);
    compareHeaders(ctx, status, before, after, report);
  }
  for (const status of Object.keys(newResponses).filter((s) => !(s in oldResponses))) {
    report(RULES.statusAdded, oldAt, child(newAt, status), `${ctx.label} now documents status ${status}.`);
  }
}

type Report = (r: Rule, oldPointer: string, newPointer: string, message: string) => void;
type At = { node: JsonObject; pointer: string };

function compareContent(ctx: OperationContext, status: string, before: At, after: At, report: Report): void {
  const oldContent = isObject(before.node.content) ? before.node.content : {};
  const newContent = isObject(after.node.content) ? after.node.content : {};
  for (const [mediaType, media] of Object.entries(oldContent)) {
    const now = newContent[mediaType];
    const oldPointer = child(before.pointer, 'content', mediaType);
    if (now === undefined) {
      report(RULES.mediaTypeRemoved, oldPointer, child(after.pointer, 'content'), `The ${status} response of ${ctx.label} no longer comes as ${mediaType}.`);
      continue;
    }
    const newPointer = child(after.pointer, 'content', mediaType);
    if (isObject(media) && isObject(now) && (media.schema !== undefined || now.schema !== undefined)) {
      ctx.walkSchemas('response', { name: `response:${status}`, mediaType }, mediaSchema(media, oldPointer), mediaSchema(now, newPointer));
    }
  }
  for (const mediaType of Object.keys(newContent).filter((type) => !(type in oldContent))) {
    report(
      RULES.mediaTypeAdded,
      child(before.pointer, 'content'),
      child(after.pointer, 'content', mediaType),
      `The ${status} response of ${ctx.label} may now come as ${mediaType}.`,
    );
  }
}

function compareHeaders(ctx: OperationContext, status: string, before: At, after: At, report: Report): void {
  const lower = (headers: Json | undefined) =>
    new Map(Object.entries(isObject(headers) ? headers : {}).map(([name, header]) => [name.toLowerCase(), { name, header }]));
  const oldHeaders = lower(before.node.headers);
  const newHeaders = lower(after.node.headers);
  for (const [key, { name, header }] of oldHeaders) {
    const oldHeader = located(ctx, 'old', header, child(before.pointer, 'headers', name));
    const match = newHeaders.get(key);
    if (!match) {
      report(RULES.headerRemoved, oldHeader.pointer, after.pointer, `The ${status} response of ${ctx.label} no longer carries the ${name} header.`);
      continue;
    }
    const newHeader = located(ctx, 'new', match.header, child(after.pointer, 'headers', match.name));
    if (oldHeader.node.required === true && newHeader.node.required !== true) {
      report(
        RULES.headerBecameOptional,
        oldHeader.pointer,
        newHeader.pointer,
        `The ${name} header of the ${status} response of ${ctx.label} is no longer always sent.`,
      );
    }
    if (oldHeader.node.schema !== undefined && newHeader.node.schema !== undefined) {
      ctx.walkSchemas(
        'response',
        { name: `response:${status}:header:${match.name}` },
        { node: oldHeader.node.schema, pointer: child(oldHeader.pointer, 'schema') },
        { node: newHeader.node.schema, pointer: child(newHeader.pointer, 'schema') },
      );
    }
  }
  for (const [key, { name }] of newHeaders) {
    if (!oldHeaders.has(key))
      report(
        RULES.headerAdded,
        before.pointer,
        child(after.pointer, 'headers', name),
        `The ${status} response of ${ctx.label} now carries the ${name} header.`,
      );
  }
}

export const responseFamily: RuleFamily = { name: 'responses', stage: 'operation', rules: Object.values(RULES), compare: compareResponses };
