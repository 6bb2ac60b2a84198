// Loads spec/openapi.yaml once. Everything else in the kit reads the API description from here.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const specPath = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

const specText = readFileSync(specPath, 'utf8');

/** A JSON value as the parsed YAML holds it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** SHA-256 of spec/openapi.yaml as written, so reports can say which spec they ran against. */
export const specSha256 = createHash('sha256').update(specText).digest('hex');

const parsed = parsedSpec(specText, specSha256);

/** The parsed OpenAPI document. Treat as read-only: it is shared by every importer. */
export const openapiDocument = deepFreeze(parsed.document);

/** The document as served at GET /openapi.json: the JSON form of spec/openapi.yaml. */
export const openapiJson = parsed.json;

export const specVersion = String((openapiDocument.info as JsonObject).version);

/**
 * The YAML parsed, through a cache keyed by its SHA-256. Parsing the spec's YAML takes about half
 * a second, and every process of the kit reads it: each command, each server, each test file (the
 * kit's own tests start hundreds). The cache holds the parsed document as JSON, which reads in
 * milliseconds; a changed spec has another hash, so the cache can never serve a stale document.
 * It lives in a folder of the user's own under the system's temporary folder, and is trusted only
 * when that folder is the user's; anything wrong with it falls back to parsing.
 */
function parsedSpec(text: string, sha256: string): { document: JsonObject; json: string } {
  const folder = join(tmpdir(), `decision-conformance-${process.getuid?.() ?? 'user'}`);
  const cached = join(folder, `openapi-${sha256}.json`);
  let ours = true;
  try {
    ours = !process.getuid || statSync(folder).uid === process.getuid();
    if (ours) {
      const json = readFileSync(cached, 'utf8');
      return { document: JSON.parse(json) as JsonObject, json };
    }
  } catch {
    // Not cached yet, or not usable: parse below.
  }
  // Loaded only here: the YAML parser's own import is a tenth of a second.
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const document = parse(text) as JsonObject;
  const json = JSON.stringify(document);
  // A folder that is not the user's is neither read nor written.
  if (ours) {
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      // Written whole under another name, then renamed: a reader never sees half a file.
      const partial = `${cached}.${process.pid}.tmp`;
      writeFileSync(partial, json);
      renameSync(partial, cached);
    } catch {
      // A cache that cannot be written only costs the next process the parse.
    }
  }
  return { document, json };
}

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
