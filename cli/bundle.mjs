// The command line in a clone of the repository, run from one bundle of its TypeScript sources
// instead of through tsx. bin/decision-conformance.mjs asks here first, and falls back to tsx when
// no bundle can be made (no esbuild, a folder it cannot write).
//
// Why: tsx compiles, caches and source-maps each of the kit's modules in every process, in a
// loader thread of its own, and Node then maps every stack trace an error takes. A full run
// against the bundled server took 18.0 s of CPU through tsx and 15.5 s from the bundle (median of
// 3, in turns), and every start a quarter of a second more.
//
// The bundle holds the kit's own modules only: packages load from node_modules as they do under
// tsx (esbuild's `packages: 'external'`). Each source file's `import.meta.url` stays its own URL,
// so that paths resolved from it (the spec, the k6 scripts, the workers) point into the clone as
// they do from the sources. The bundle is made on the first start after a change and kept in
// node_modules/.cache/decision-cli, named by the hash of the files it was made from (esbuild's
// list of its inputs) and of the names in their folders: a start hashes them again and runs the
// bundle while none changed. A new file is seen either way: a static import of it changes the file
// that imports it, and a file an import picks by pattern (`../definitions/${name}.js`, bundled as
// every file the pattern matches) changes the names in its folder. `node --enable-source-maps`
// maps stack traces back to the sources.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** This file and the esbuild version belong to every key: a change to either makes bundles anew. */
const BUNDLER = readFileSync(new URL(import.meta.url));
/** Bundles of earlier sources unused this long are removed; a process still starting from one has it open by then. */
const STALE_MS = 3_600_000;

/**
 * @typedef {{ hash: string; inputs: string[] }} Manifest
 * The bundle of the current sources: its hash, and the files it was made from (relative to the root).
 */

/**
 * The hash of the bundler, the esbuild version, the named files (paths and contents) and the names
 * of the files beside them, or undefined when one of them is gone.
 * @param {string} root
 * @param {readonly string[]} inputs
 * @param {string} esbuildVersion
 * @param {(path: string) => Uint8Array | string | undefined} read a file's contents, undefined when it is gone
 */
function inputsHash(root, inputs, esbuildVersion, read = readIfThere) {
  const hash = createHash('sha256').update(BUNDLER).update(`esbuild ${esbuildVersion}\n`);
  for (const input of inputs) {
    const contents = read(join(root, input));
    if (contents === undefined) return undefined;
    hash.update(`${input}\n`).update(contents).update('\n');
  }
  for (const folder of new Set(inputs.map((input) => dirname(join(root, input))))) {
    hash.update(`${readdirSync(folder).sort().join('\n')}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** @param {string} path */
const readIfThere = (path) => (existsSync(path) ? readFileSync(path) : undefined);

/** esbuild's loader for each kind of the kit's own files. */
const LOADERS = /** @type {const} */ ({ '.ts': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' });

/**
 * esbuild plugin: loads the kit's own files, each with its `import.meta.url` replaced by the URL
 * of that file, and keeps what it read in `read`: the bundle's key is the hash of the very text it
 * was made from, so that a file saved while bundling makes the next start bundle again.
 * @param {Map<string, string>} read
 * @returns {import('esbuild').Plugin}
 */
function ownFiles(read) {
  return {
    name: 'own-files',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|js|mjs|cjs|json)$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        read.set(args.path, text);
        const loader = LOADERS[/** @type {keyof typeof LOADERS} */ (extname(args.path))];
        return { contents: loader === 'json' ? text : text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader };
      });
    },
  };
}

/**
 * Writes `contents` to `path` so that a reader sees the old file or the new one, never a part.
 * @param {string} path
 * @param {string | Uint8Array} contents
 */
function writeWhole(path, contents) {
  const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

/**
 * Removes bundles other than `current` that no start has used for STALE_MS.
 * @param {string} cacheDir
 * @param {string} current
 */
function removeStaleBundles(cacheDir, current) {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (!name.startsWith(current) && /^cli-|\.partial$/.test(name) && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
  }
}

/**
 * The path of a bundle of `root`'s cli/main.ts made from the sources as they are now, made first
 * when there is none.
 * @param {string} root the repository's root
 * @param {{ cacheDir?: string }} [options]
 * @returns {Promise<string>}
 */
export async function cliBundle(root, options = {}) {
  const cacheDir = options.cacheDir ?? join(root, 'node_modules', '.cache', 'decision-cli');
  const require = createRequire(import.meta.url);
  const esbuildVersion = require('esbuild/package.json').version;
  const manifestPath = join(cacheDir, 'manifest.json');

  if (existsSync(manifestPath)) {
    /** @type {Manifest} */
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const bundle = join(cacheDir, `cli-${manifest.hash}.mjs`);
    if (inputsHash(root, manifest.inputs, esbuildVersion) === manifest.hash && existsSync(bundle)) {
      // Its time is its last use: removeStaleBundles keeps what is used. A clone on a read-only
      // disk still runs the bundle it has.
      const now = new Date();
      try {
        utimesSync(bundle, now, now);
      } catch {}
      return bundle;
    }
  }

  /** @type {typeof import('esbuild')} */
  const esbuild = require('esbuild');
  mkdirSync(cacheDir, { recursive: true });
  /** @type {Map<string, string>} */
  const read = new Map();
  const built = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, 'cli', 'main.ts')],
    bundle: true,
    write: false,
    outdir: cacheDir,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'external',
    metafile: true,
    logLevel: 'silent',
    plugins: [ownFiles(read)],
  });
  // esbuild names inputs relative to absWorkingDir, the root.
  const inputs = Object.keys(built.metafile.inputs).sort();
  const hash = inputsHash(root, inputs, esbuildVersion, (path) => read.get(path) ?? readIfThere(path));
  if (!hash) throw new Error('a source file was removed while the command line was bundled');
  const name = `cli-${hash}.mjs`;
  const code = built.outputFiles.find((file) => file.path.endsWith('.js'));
  const map = built.outputFiles.find((file) => file.path.endsWith('.js.map'));
  if (!code || !map) throw new Error('esbuild made no bundle');
  writeWhole(join(cacheDir, `${name}.map`), map.contents);
  writeWhole(join(cacheDir, name), `${code.text}\n//# sourceMappingURL=${name}.map\n`);
  writeWhole(manifestPath, `${JSON.stringify({ hash, inputs })}\n`);
  writeWhole(
    join(cacheDir, 'README'),
    'Bundles of cli/main.ts made by cli/bundle.mjs for bin/decision-conformance.mjs, keyed by the hash of the sources they were made from; safe to delete.\n',
  );
  removeStaleBundles(cacheDir, name);
  return join(cacheDir, name);
}
