// The request body: whether it is required and which media types it may be sent as. Its
// schemas are walked on the request side, per media type both documents accept (a media type
// without a schema as `{}`, which takes any body).
import { isObject, type JsonObject } from '../../spec/index.ts';
import { rule } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import type { OperationContext } from '../operation-context.ts';
import { child, follow, mediaSchema } from '../pointer.ts';

const RULES = {
  becameRequired: rule('request-body-became-required', 'request', 'breaking', 'the request body became required (or was added as required)'),
  becameOptional: rule('request-body-became-optional', 'request', 'non-breaking', 'the request body became optional'),
  removed: rule('request-body-removed', 'request', 'breaking', 'the operation no longer takes a request body'),
  mediaTypeRemoved: rule('request-media-type-removed', 'request', 'breaking', 'a request media type is no longer accepted'),
  mediaTypeAdded: rule('request-media-type-added', 'request', 'non-breaking', 'a request media type is now accepted'),
};

function bodyOf(ctx: OperationContext, side: 'old' | 'new'): { body?: JsonObject; pointer: string } {
  const at = ctx[side];
  if (at.operation.requestBody === undefined) return { pointer: at.pointer };
  const { node, pointer } = follow(ctx.pair[side], { node: at.operation.requestBody, pointer: child(at.pointer, 'requestBody') });
  return isObject(node) ? { body: node, pointer } : { pointer };
}

function compareRequestBody(ctx: OperationContext): void {
  const before = bodyOf(ctx, 'old');
  const after = bodyOf(ctx, 'new');
  const report = (r: Rule, message: string, oldPointer = before.pointer, newPointer = after.pointer) =>
    ctx.collector.report(r, { oldPointer, newPointer, operation: ctx.label, message });
  if (!before.body && !after.body) return;
  if (before.body && !after.body) {
    report(RULES.removed, `${ctx.label} no longer takes a request body.`);
    return;
  }
  const wasRequired = before.body?.required === true;
  const isRequired = after.body?.required === true;
  if (!wasRequired && isRequired) report(RULES.becameRequired, `The request body of ${ctx.label} is now required.`);
  if (wasRequired && !isRequired) report(RULES.becameOptional, `The request body of ${ctx.label} is now optional.`);
  if (!before.body || !after.body) return;

  const oldContent = isObject(before.body.content) ? before.body.content : {};
  const newContent = isObject(after.body.content) ? after.body.content : {};
  for (const [mediaType, media] of Object.entries(oldContent)) {
    const oldAt = child(before.pointer, 'content', mediaType);
    const now = newContent[mediaType];
    if (now === undefined) {
      report(RULES.mediaTypeRemoved, `${ctx.label} no longer accepts a ${mediaType} body.`, oldAt, child(after.pointer, 'content'));
      continue;
    }
    const newAt = child(after.pointer, 'content', mediaType);
    if (isObject(media) && isObject(now) && (media.schema !== undefined || now.schema !== undefined)) {
      ctx.walkSchemas('request', { name: 'body', mediaType }, mediaSchema(media, oldAt), mediaSchema(now, newAt));
    }
  }
  for (const mediaType of Object.keys(newContent).filter((type) => !(type in oldContent))) {
    report(
      RULES.mediaTypeAdded,
      `${ctx.label} now also accepts a ${mediaType} body.`,
      child(before.pointer, 'content'),
      child(after.pointer, 'content', mediaType),
    );
  }
}

export const requestBodyFamily: RuleFamily = { name: 'request body', stage: 'operation', rules: Object.values(RULES), compare: compareRequestBody };
