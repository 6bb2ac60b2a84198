// Seed 5: API keys look like `svc_live_<secret>`. The prefix is recorded once, as the bearer
// scheme's x-key-prefix; whoever builds, checks or masks a key reads it here.
import { componentsOf, isObject, openapiDocument, type JsonObject } from './document.ts';

export function readApiKeyPrefix(document: JsonObject): string {
  const bearer = Object.values(componentsOf(document, 'securitySchemes')).find((scheme) => isObject(scheme) && scheme.scheme === 'bearer');
  const prefix = isObject(bearer) ? bearer['x-key-prefix'] : undefined;
  if (typeof prefix !== 'string' || prefix.length === 0) throw new Error('The spec has no bearer security scheme with an x-key-prefix');
  return prefix;
}

/** The public start of every API key, e.g. "svc_live_". */
export const apiKeyPrefix: string = readApiKeyPrefix(openapiDocument);
