// Seed 2.7: an id the service generates has the form `req_<hex>`. RequestId's x-generated-pattern
// records it (the schema's own pattern is the wider one a caller's id must match).
import { componentsOf, isObject, openapiDocument, type JsonObject } from './document.ts';

export function readGeneratedRequestIdPattern(document: JsonObject): RegExp {
  const schema = componentsOf(document, 'schemas').RequestId;
  const pattern = isObject(schema) ? schema['x-generated-pattern'] : undefined;
  if (typeof pattern !== 'string' || pattern.length === 0) throw new Error("The spec's RequestId schema has no x-generated-pattern");
  return new RegExp(pattern);
}

/** Whether `text` is a request id the spec allows, a caller's included (RequestId's pattern and lengths). */
export const isRequestId: (text: string) => boolean = (() => {
  const schema = componentsOf(openapiDocument, 'schemas').RequestId;
  const {
    pattern,
    minLength = 0,
    maxLength = Number.POSITIVE_INFINITY,
  } = (isObject(schema) ? schema : {}) as { pattern?: unknown; minLength?: number; maxLength?: number };
  if (typeof pattern !== 'string' || pattern.length === 0) throw new Error("The spec's RequestId schema has no pattern");
  const form = new RegExp(pattern);
  return (text: string) => text.length >= minLength && text.length <= maxLength && form.test(text);
})();

/** The form of a request id the service generates: `req_<hex>`. */
export const generatedRequestIdPattern: RegExp = readGeneratedRequestIdPattern(openapiDocument);
