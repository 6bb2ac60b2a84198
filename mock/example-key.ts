// An API key of the documented form, for requests to the mock (which accepts any bearer token).
import { isObject, openapiDocument, type JsonObject } from '../spec/index.ts';

/** `Bearer <prefix>...` as seed section 5 writes it; the prefix comes from the bearer scheme's x-key-prefix. */
export function exampleAuthorization(): string {
  const schemes = (openapiDocument.components as JsonObject).securitySchemes as JsonObject;
  const bearer = Object.values(schemes).find((scheme) => isObject(scheme) && scheme.scheme === 'bearer') as JsonObject | undefined;
  const prefix = bearer?.['x-key-prefix'];
  if (typeof prefix !== 'string') throw new Error('The spec has no bearer security scheme with an x-key-prefix');
  return `Bearer ${prefix}mockexample`;
}
