// The reference server as one CommonJS bundle, and how to run one. start.mjs runs a bundle that it
// makes at the first start after a source change (a clone of the repository, bundled into
// node_modules/.cache), or the one `npm run package` made into an installed package
// (dist/reference-impl/server.cjs, a "portable" bundle).
//
// What a bundle would otherwise get wrong or do slowly at every start:
// - `import.meta.url`, which spec/document.ts uses to find openapi.yaml and the media readers use
//   to find their workers, is replaced in each source file by that file's own URL, so relative
//   paths keep pointing into the repository; in a portable bundle, by the URL of the file's
//   compiled form in dist/, computed from where the bundle is when it runs;
// - spec/openapi.yaml is parsed once at bundle time and stored as JSON in the bundle: parsing the
//   YAML was most of a start (1.6 of 1.9 s on a busy two-core machine; the CPU profile showed the
//   yaml parser and its garbage). The text is compared at run time, falling back to the YAML parser;
// - spec/validators.ts compiles each schema with ajv on first use, a sixth of a start for the
//   decide request alone: the bundle carries ajv's standalone code of every reference-mode
//   validator instead, made at bundle time from the same spec (spec/precompiled-validators.ts);
// - compiling the bundle's JavaScript: the bundle is CommonJS, run through vm.Script with V8's
//   code cache, written beside it after the first start (Node 20 has no code cache for ES
//   modules). Packages loaded on first upload are require()d, which loads ES modules too.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

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

/**
 * In a portable bundle, the URL of one of the kit's files given by its path from dist/: the bundle
 * runs from dist/reference-impl/, and the vm wrapper passes that folder as __dirname.
 */
const PORTABLE_FILE_URL = "const kitFileUrl = (path) => require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', path)).href;";

/** @typedef {import('esbuild').Plugin} Plugin */

/**
 * The code that stands for a source file's `import.meta.url`.
 * @param {string} root
 * @param {string} file
 * @param {boolean} portable
 */
function fileUrlOf(root, file, portable) {
  if (!portable) return JSON.stringify(pathToFileURL(file).href);
  return `kitFileUrl(${JSON.stringify(relative(root, file).replaceAll('\\', '/').replace(/\.ts$/, '.js'))})`;
}

/**
 * esbuild plugin: each file's `import.meta.url` becomes its own URL (fileUrlOf).
 * @param {string} root
 * @param {boolean} portable
 * @returns {Plugin}
 */
function ownFileUrls(root, portable) {
  return {
    name: 'own-file-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => ({
        contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', fileUrlOf(root, args.path, portable)),
        loader: 'ts',
      }));
    },
  };
}

/**
 * esbuild plugin: spec/document.ts gets a `parse` that returns the spec parsed at bundle time.
 * @param {string} root
 * @param {(text: string) => unknown} parseYaml
 * @param {boolean} portable
 * @returns {Plugin}
 */
function preparsedSpec(root, parseYaml, portable) {
  const specDocument = join(root, 'spec', 'document.ts');
  const text = readFileSync(join(root, 'spec', 'openapi.yaml'), 'utf8');
  return {
    name: 'preparsed-spec',
    setup(build) {
      build.onResolve({ filter: /^yaml$/ }, (args) => (args.importer === specDocument ? { path: 'preparsed-spec', namespace: 'preparsed-spec' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'preparsed-spec' }, () => ({
        loader: 'js',
        // createRequire at run time: esbuild leaves it alone, so the YAML parser is not bundled.
        contents: `import { createRequire } from 'node:module';
const BUNDLED_TEXT = ${JSON.stringify(text)};
const BUNDLED_JSON = ${JSON.stringify(JSON.stringify(parseYaml(text)))};
export function parse(text) {
  if (text === BUNDLED_TEXT) return JSON.parse(BUNDLED_JSON);
  return createRequire(${fileUrlOf(root, specDocument, portable)})('yaml').parse(text);
}`,
      }));
    },
  };
}

/**
 * esbuild plugin: spec/precompiled-validators.ts becomes the given ajv standalone code.
 * @param {string} root
 * @param {string} standaloneCode
 * @returns {Plugin}
 */
function precompiledValidators(root, standaloneCode) {
  const specValidators = join(root, 'spec', 'validators.ts');
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
 * @param {string} root
 * @param {typeof import('esbuild').build} build
 * @param {string} partialPrefix
 * @returns {Promise<string>}
 */
async function referenceValidatorsCode(root, build, partialPrefix) {
  const outfile = `${partialPrefix}.validators.mjs`;
  await build({
    entryPoints: [join(root, 'spec', 'validators.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    logLevel: 'error',
    plugins: [ownFileUrls(root, false)],
  });
  try {
    /** @type {typeof import('../spec/validators.ts')} */
    const validators = await import(pathToFileURL(outfile).href);
    return validators.standaloneValidatorsCode('reference');
  } finally {
    rmSync(outfile, { force: true });
  }
}

/**
 * Bundles reference-impl/main.ts of the sources under `root`, with everything it imports from
 * them and its pure-JavaScript dependencies, into `outfile`. A rename puts it there at the end,
 * so two servers starting at once never run a half-written bundle. A portable bundle finds the
 * kit's files from where it runs (dist/reference-impl/ of a package); any other, in `root`.
 * @param {string} root
 * @param {string} outfile
 * @param {{ portable?: boolean }} [options]
 */
export async function bundleServer(root, outfile, options = {}) {
  const portable = options.portable ?? false;
  const [{ build }, { parse }] = await Promise.all([import('esbuild'), import('yaml')]);
  mkdirSync(dirname(outfile), { recursive: true });
  const partial = `${outfile}.${process.pid}.tmp`;
  const standaloneCode = await referenceValidatorsCode(root, build, partial);
  await build({
    entryPoints: [join(root, 'reference-impl', 'main.ts')],
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
    ...(portable ? { banner: { js: PORTABLE_FILE_URL } } : {}),
    logLevel: 'error',
    plugins: [preparsedSpec(root, parse, portable), precompiledValidators(root, standaloneCode), ownFileUrls(root, portable)],
  });
  renameSync(partial, outfile);
}

/**
 * The bundle compiled with V8's code cache when one was written for this bundle and this V8; the
 * returned function writes the cache after a start without one, so that it holds the functions
 * the start compiled (the warm-up decision included).
 * @param {string} file
 */
function compiledBundle(file) {
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

/**
 * Runs a bundle's main() in this process (a SIGTERM to it reaches the server's own graceful
 * shutdown), then writes its code cache if it had none.
 * @param {string} file
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 */
export async function runBundle(file, argv, env) {
  const { run, writeCache } = compiledBundle(file);
  /** @type {{ exports: Partial<typeof import('./main.ts')> }} */
  const bundleModule = { exports: {} };
  // External dependencies resolve from the bundle's folder up, as from any file there.
  run(bundleModule.exports, createRequire(file), bundleModule, file, dirname(file));
  const { main } = bundleModule.exports;
  if (!main) throw new Error(`${file} exports no main: delete it and start again`);
  await main(argv, env);
  writeCache();
}
