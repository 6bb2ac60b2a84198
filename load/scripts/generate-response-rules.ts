// Writes load/definitions/response-rules.js: load/rules/bundle.ts (the response judge, the
// harness's answer rules and request bodies) bundled by esbuild into one plain ES module that k6
// and Node both import. The contract-form validators go in as ajv's standalone code (k6 then
// compiles no schema and needs no `new Function`), and the table of response schemas as data,
// so the bundle reads no spec at run time. load/test/response-rules.test.ts fails when the
// committed file differs from a fresh build.
// Regenerate: npx tsx load/scripts/generate-response-rules.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { standaloneValidatorsCode } from '../../spec/validators.ts';
import { responseSchemas, tableSchemaNames } from '../rules/response-schemas.ts';
import { responseRuleMeta } from '../../harness/response-rules/catalogue.ts';
import { specIdentity } from '../rules/spec-identity.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entry = fileURLToPath(new URL('../rules/bundle.ts', import.meta.url));
export const responseRulesPath = fileURLToPath(new URL('../definitions/response-rules.js', import.meta.url));

const HEADER = `// GENERATED from spec/openapi.yaml, load/rules/ and harness/ by load/scripts/generate-response-rules.ts; do not edit.
// Regenerate: npx tsx load/scripts/generate-response-rules.ts
// @ts-nocheck (types: response-rules.d.ts)`;

/** esbuild plugin: the two spec-reading modules of load/rules/ become what they compute. */
function specFreeModules(standaloneCode: string): Plugin {
  return {
    name: 'spec-free-modules',
    setup(setup) {
      setup.onLoad({ filter: /load\/rules\/contract-validators\.ts$/ }, () => ({
        loader: 'js',
        contents: "import validators from 'contract-standalone-validators';\nexport const contractValidators = validators;\n",
      }));
      setup.onResolve({ filter: /^contract-standalone-validators$/ }, () => ({ path: 'contract', namespace: 'standalone-validators' }));
      // CommonJS exporting one validator per schema name; its require()s of ajv's runtime and
      // ajv-formats resolve from the repository and are bundled like any dependency.
      setup.onLoad({ filter: /^contract$/, namespace: 'standalone-validators' }, () => ({ loader: 'js', contents: standaloneCode, resolveDir: root }));
      // The catalogue of response rules as its metadata alone: k6 reads ids, titles and seed sections.
      setup.onLoad({ filter: /harness\/response-rules\/catalogue\.ts$/ }, () => ({
        loader: 'js',
        contents: `export const responseRuleMeta = ${JSON.stringify(responseRuleMeta)};\n`,
      }));
      setup.onLoad({ filter: /load\/rules\/spec-identity\.ts$/ }, () => ({
        loader: 'js',
        contents: `export const specIdentity = ${JSON.stringify(specIdentity)};\n`,
      }));
      setup.onLoad({ filter: /load\/rules\/response-schemas\.ts$/ }, () => ({
        loader: 'js',
        contents: `export const responseSchemas = ${JSON.stringify(responseSchemas)};\n`,
      }));
    },
  };
}

export async function responseRulesSource(): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    // Module paths in the output (esbuild keeps them as comments and keys) relative to the
    // repository, the same wherever it is cloned and however node_modules is linked.
    absWorkingDir: root,
    preserveSymlinks: true,
    format: 'esm',
    platform: 'neutral',
    // k6's JavaScript runtime (Sobek) runs ES2020 modules; nothing newer is left in the output.
    target: 'es2020',
    mainFields: ['module', 'main'],
    legalComments: 'none',
    // Whitespace and syntax only: names stay readable in a stack trace from k6.
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: HEADER },
    logLevel: 'error',
    plugins: [specFreeModules(standaloneValidatorsCode('contract', tableSchemaNames(responseSchemas)))],
  });
  return `${result.outputFiles[0]!.text.trimEnd()}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = await responseRulesSource();
  writeFileSync(responseRulesPath, source, 'utf8');
  console.log(`wrote ${responseRulesPath} (${Math.round(Buffer.byteLength(source) / 1024)} KiB)`);
}
