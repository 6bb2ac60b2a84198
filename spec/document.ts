// Loads spec/openapi.yaml once. Everything else in the kit reads the API description from here.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const specPath = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

const specText = readFileSync(specPath, 'utf8');

/** A JSON value as the parsed YAML holds it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The parsed OpenAPI document. Treat as read-only: it is shared by every importer. */
export const openapiDocument = deepFreeze(parse(specText) as JsonObject);

/** The document as served at GET /openapi.json: the JSON form of spec/openapi.yaml. */
export const openapiJson = JSON.stringify(openapiDocument);

/** SHA-256 of spec/openapi.yaml as written, so reports can say which spec they ran against. */
export const specSha256 = createHash('sha256').update(specText).digest('hex');

export const specVersion = String((openapiDocument.info as JsonObject).version);

/** Resolves a local JSON pointer such as "#/components/schemas/Error". */
export function resolvePointer(pointer: string, root: Json = openapiDocument): Json {
  if (!pointer.startsWith('#')) throw new Error(`Only local references are used in the spec: ${pointer}`);
  let node: Json = root;
  for (const raw of pointer.slice(1).split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`Unresolvable reference ${pointer}`);
    }
    node = (node as Record<string, Json>)[key] as Json;
  }
  return node;
}

/** Follows $ref chains of OpenAPI objects (responses, parameters, examples, headers). */
export function deref<T extends Json>(node: T | { $ref: string }): T {
  let current: Json = node as Json;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new Error(`Reference cycle at ${current.$ref}`);
    seen.add(current.$ref);
    current = resolvePointer(current.$ref);
  }
  return current as T;
}

/** One kind of a document's components (`schemas`, `securitySchemes`, …) by name; none when the document has none. */
export function componentsOf(document: JsonObject, kind: string): JsonObject {
  const components = document.components;
  return isObject(components) && isObject(components[kind]) ? components[kind] : {};
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Freezes a parsed document and everything in it, so importers that share it cannot change it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
