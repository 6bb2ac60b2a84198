#!/usr/bin/env node
// `npm run serve`: the reference server started by plain Node, without transpiling TypeScript at
// run time. The first start bundles serve.ts, everything it imports from this repository and its
// pure-JavaScript dependencies with esbuild into node_modules/.cache, under the hash of the
// sources and of package-lock.json; later starts import that bundle while neither changed.
//
// Two things a bundle would otherwise get wrong or do slowly at every start:
// - `import.meta.url`, which spec/document.ts uses to find openapi.yaml, is replaced in each
//   source file by that file's own URL, so relative paths keep pointing into the repository;
// - spec/openapi.yaml is parsed once here and stored as JSON in the bundle: parsing the YAML was
//   most of a start (1.6 of 1.9 s on a busy two-core machine; the CPU profile showed the yaml parser and its garbage). A spec edited after bundling changes the hash,
//   and the text is compared at run time too, falling back to the YAML parser.
//
// Nothing here runs at install time (the kit installs with ignore-scripts), and the server runs
// in this very process: a SIGTERM to it reaches the server's own graceful shutdown.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'reference-impl', 'serve.ts');
const specDocument = join(root, 'spec', 'document.ts');
const specYaml = join(root, 'spec', 'openapi.yaml');
const cacheDir = join(root, 'node_modules', '.cache', 'decision-reference');
/** Dependencies left to Node: native bindings, and packages loaded lazily on first upload. */
const EXTERNAL_PACKAGES = ['onnxruntime-node', 'pdfjs-dist', 'file-type', 'music-metadata', 'fflate', 'tesseract.js', '@tesseract.js-data/eng', '@napi-rs/canvas'];
/** Folders whose files can end up in the bundle; tests never do. */
const SOURCE_FOLDERS = ['reference-impl', 'spec'];

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return item.name === 'test' || item.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|mjs|yaml)$/.test(item.name) ? [path] : [];
  });
}

/** Hash of every source file's path and content, of this launcher, of the installed dependency versions. */
function sourcesHash() {
  const hash = createHash('sha256');
  const require = createRequire(import.meta.url);
  hash.update(`esbuild ${require('esbuild/package.json').version}\n`);
  hash.update(readFileSync(join(root, 'package-lock.json')));
  for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(root, folder))).sort()) {
    hash.update(`${relative(root, file)}\n`).update(readFileSync(file)).update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

/** esbuild plugin: each file's `import.meta.url` becomes its own URL in the repository. */
const ownFileUrls = {
  name: 'own-file-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** esbuild plugin: spec/document.ts gets a `parse` that returns the spec parsed at bundle time. */
function preparsedSpec(parseYaml) {
  const text = readFileSync(specYaml, 'utf8');
  return {
    name: 'preparsed-spec',
    setup(build) {
      build.onResolve({ filter: /^yaml$/ }, (args) => (args.importer === specDocument ? { path: 'preparsed-spec', namespace: 'preparsed-spec' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'preparsed-spec' }, () => ({
        loader: 'js',
        contents: `import { createRequire } from 'node:module';
const BUNDLED_TEXT = ${JSON.stringify(text)};
const BUNDLED_JSON = ${JSON.stringify(JSON.stringify(parseYaml(text)))};
export function parse(text) {
  if (text === BUNDLED_TEXT) return JSON.parse(BUNDLED_JSON);
  return createRequire(${JSON.stringify(pathToFileURL(specDocument).href)})('yaml').parse(text);
}`,
      }));
    },
  };
}

async function bundle(outfile) {
  const [{ build }, { parse }] = await Promise.all([import('esbuild'), import('yaml')]);
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [entry],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Pure-JavaScript dependencies are bundled too: one file to read and compile instead of
    // hundreds of CommonJS modules to resolve. Native code, and the readers loaded on first
    // upload, stay external.
    external: EXTERNAL_PACKAGES,
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    logLevel: 'error',
    plugins: [preparsedSpec(parse), ownFileUrls],
  });
  // A rename is atomic: two servers starting at once never import a half-written bundle.
  renameSync(partial, outfile);
  writeFileSync(join(cacheDir, 'README'), 'Bundles of reference-impl/serve.ts made by reference-impl/start.mjs, keyed by the hash of the sources; safe to delete.\n');
}

const bundled = join(cacheDir, `serve-${sourcesHash()}.mjs`);
if (!existsSync(bundled)) await bundle(bundled);
// Dependencies are external: they resolve from the bundle's folder up to the kit's node_modules.
await import(pathToFileURL(bundled).href);
