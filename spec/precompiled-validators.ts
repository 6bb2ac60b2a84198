// Reference-mode validators compiled ahead of time, by component schema name; none here, so
// validators.ts compiles each schema on first use.
//
// reference-impl/start.mjs replaces this module in the server's bundle with the ajv standalone
// code of standaloneValidatorsCode('reference'), made from the very spec the bundle embeds (its
// cache key hashes spec/openapi.yaml), so the bundled server compiles no schema when it starts.
import type { ValidateFunction } from 'ajv/dist/2020.js';

export const precompiledReference: Readonly<Record<string, ValidateFunction>> | undefined = undefined;
