// Regenerates spec/types.gen.ts from spec/openapi.yaml with openapi-typescript.
// `npm run gen:types` writes it; `--check` exits 1 when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openapiDocument } from '../document.ts';

export const typesPath = fileURLToPath(new URL('../types.gen.ts', import.meta.url));

const HEADER = `// GENERATED FILE: do not edit. Regenerate with \`npm run gen:types\` after changing spec/openapi.yaml.
// Types of the Decision Service API, produced by openapi-typescript from the spec.
/* eslint-disable */
`;

export async function generateTypes(): Promise<string> {
  // openapi-typescript mutates its input; hand it a copy of the frozen document.
  const ast = await openapiTS(structuredClone(openapiDocument) as never, { exportType: false, alphabetize: false });
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const fresh = await generateTypes();
  if (process.argv.includes('--check')) {
    const current = readFileSync(typesPath, 'utf8');
    if (current !== fresh) {
      console.error('spec/types.gen.ts is stale: run `npm run gen:types`.');
      process.exit(1);
    }
    console.log('spec/types.gen.ts is up to date.');
  } else {
    writeFileSync(typesPath, fresh);
    console.log(`Wrote ${typesPath}`);
  }
}
