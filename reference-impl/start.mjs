#!/usr/bin/env node
// `npm run serve`: the reference server started by plain Node, without transpiling TypeScript at
// run time. The first start bundles main.ts, everything it imports from this repository and its
// pure-JavaScript dependencies with esbuild into node_modules/.cache, under the hash of the
// sources and of package-lock.json; later starts run that bundle while neither changed.
//
// What a bundle would otherwise get wrong or do slowly at every start:
// - `import.meta.url`, which spec/document.ts uses to find openapi.yaml, is replaced in each
//   source file by that file's own URL, so relative paths keep pointing into the repository;
// - spec/openapi.yaml is parsed once here and stored as JSON in the bundle: parsing the YAML was
//   most of a start (1.6 of 1.9 s on a busy two-core machine; the CPU profile showed the yaml
//   parser and its garbage). A spec edited after bundling changes the hash, and the text is
//   compared at run time too, falling back to the YAML parser;
// - spec/validators.ts compiles each schema with ajv on first use, a sixth of a start for the
//   decide request alone: the bundle carries ajv's standalone code of every reference-mode
//   validator instead, made at bundle time from the same spec (spec/precompiled-validators.ts);
// - compiling the bundle's JavaScript: the bundle is CommonJS, run through vm.Script with V8's
//   code cache, written beside it after the first start (Node 20 has no code cache for ES
//   modules). Packages loaded on first upload are require()d, which loads ES modules too.
//
// Nothing here runs at install time (the kit installs with ignore-scripts), and the server runs
// in this very process: a SIGTERM to it reaches the server's own graceful shutdown.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'reference-impl', 'main.ts');
const specDocument = join(root, 'spec', 'document.ts');
const specYaml = join(root, 'spec', 'openapi.yaml');
const specValidators = join(root, 'spec', 'validators.ts');
const cacheDir = join(root, 'node_modules', '.cache', 'decision-reference');
/** Dependencies left to Node: native bindings, and packages loaded lazily on first upload. */
const EXTERNAL_PACKAGES = [
  'onnxruntime-node',
  'pdfjs-dist',
  'file-type',
  'music-metadata',
  'fflate',
  'tesseract.js',
  '@tesseract.js-data/eng',
  '@napi-rs/canvas',
];
/** Folders whose files can end up in the bundle; tests never do. */
const SOURCE_FOLDERS = ['reference-impl', 'spec'];

/**
 * @param {string} folder
 * @returns {string[]}
 */
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
    hash
      .update(`${relative(root, file)}\n`)
      .update(readFileSync(file))
      .update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

/** @typedef {import('esbuild').Plugin} Plugin */

/**
 * esbuild plugin: each file's `import.meta.url` becomes its own URL in the repository.
 * @type {Plugin}
 */
const ownFileUrls = {
  name: 'own-file-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/**
 * esbuild plugin: spec/document.ts gets a `parse` that returns the spec parsed at bundle time.
 * @param {(text: string) => unknown} parseYaml
 * @returns {Plugin}
 */
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

/**
 * esbuild plugin: spec/precompiled-validators.ts becomes the given ajv standalone code.
 * @param {string} standaloneCode
 * @returns {Plugin}
 */
function precompiledValidators(standaloneCode) {
  return {
    name: 'precompiled-validators',
    setup(build) {
      build.onResolve({ filter: /precompiled-validators\.ts$/ }, (args) =>
        args.importer === specValidators ? { path: 'reference', namespace: 'precompiled-validators' } : undefined,
      );
      build.onResolve({ filter: /^standalone-validators$/ }, () => ({ path: 'standalone', namespace: 'precompiled-validators' }));
      build.onLoad({ filter: /^reference$/, namespace: 'precompiled-validators' }, () => ({
        loader: 'js',
        contents: "import validators from 'standalone-validators';\nexport const precompiledReference = validators;\n",
      }));
      // CommonJS exporting one validator per schema name; its require()s of ajv's runtime and
      // ajv-formats resolve from the repository and are bundled like any dependency.
      build.onLoad({ filter: /^standalone$/, namespace: 'precompiled-validators' }, () => ({ loader: 'js', contents: standaloneCode, resolveDir: root }));
    },
  };
}

/**
 * Runs spec/validators.ts once, through a throwaway bundle, for its reference-mode standalone code.
 * @param {typeof import('esbuild').build} build
 * @param {string} partialPrefix
 * @returns {Promise<string>}
 */
async function referenceValidatorsCode(build, partialPrefix) {
  const outfile = `${partialPrefix}.validators.mjs`;
  await build({
    entryPoints: [specValidators],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    logLevel: 'error',
    plugins: [ownFileUrls],
  });
  try {
    /** @type {typeof import('../spec/validators.ts')} */
    const validators = await import(pathToFileURL(outfile).href);
    return validators.standaloneValidatorsCode('reference');
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** Bundles and code caches of earlier sources unused for an hour, so that no server still starting needs them. */
function removeStaleBundles(/** @type {string} */ current) {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (path !== current && /^serve-/.test(name) && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
  }
}

async function bundle(/** @type {string} */ outfile) {
  const [{ build }, { parse }] = await Promise.all([import('esbuild'), import('yaml')]);
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${outfile}.${process.pid}.tmp`;
  const standaloneCode = await referenceValidatorsCode(build, partial);
  await build({
    entryPoints: [entry],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // import() of an external package becomes require(): inside vm.Script, import() would need
    // Node's experimental loader hook, and require() loads ES modules since Node 20.19.
    supported: { 'dynamic-import': false },
    // Pure-JavaScript dependencies are bundled too: one file to read and compile instead of
    // hundreds of CommonJS modules to resolve. Native code, and the readers loaded on first
    // upload, stay external.
    external: EXTERNAL_PACKAGES,
    logLevel: 'error',
    plugins: [preparsedSpec(parse), precompiledValidators(standaloneCode), ownFileUrls],
  });
  // A rename is atomic: two servers starting at once never import a half-written bundle.
  renameSync(partial, outfile);
  removeStaleBundles(outfile);
  writeFileSync(
    join(cacheDir, 'README'),
    'Bundles of reference-impl/main.ts made by reference-impl/start.mjs, keyed by the hash of the sources, and their V8 code caches; safe to delete.\n',
  );
}

/**
 * The bundle compiled with V8's code cache when one was written for this bundle and this V8; the
 * returned function writes the cache after a start without one, so that it holds the functions
 * the start compiled (the warm-up decision included).
 */
function compiledBundle(/** @type {string} */ file) {
  const cacheFile = `${file}.${process.versions.v8}.v8cache`;
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: file, cachedData });
  const writeCache = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      const partial = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, cacheFile);
    } catch {
      // A read-only install starts without the cache, as fast as without this step.
    }
  };
  return { run: script.runInThisContext(), writeCache };
}

const bundled = join(cacheDir, `serve-${sourcesHash()}.cjs`);
if (existsSync(bundled)) {
  // Its time is its last use: removeStaleBundles keeps what is used, and the newest is the current one.
  const now = new Date();
  utimesSync(bundled, now, now);
} else {
  await bundle(bundled);
}
const { run, writeCache } = compiledBundle(bundled);
/** @type {{ exports: Partial<typeof import('./main.ts')> }} */
const bundleModule = { exports: {} };
// Dependencies are external: they resolve from the bundle's folder up to the kit's node_modules.
run(bundleModule.exports, createRequire(bundled), bundleModule, bundled, cacheDir);
const { main } = bundleModule.exports;
if (!main) throw new Error(`${bundled} exports no main: delete it and start again`);
await main(process.argv.slice(2), process.env);
writeCache();
