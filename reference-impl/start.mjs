#!/usr/bin/env node
// `npm run serve`: the reference server started by plain Node, without transpiling TypeScript at
// run time, from one bundle (bundle.mjs says what the bundle does better than the modules would).
// In an installed package, the bundle `npm run package` made sits beside this file. In a clone,
// the first start bundles main.ts into node_modules/.cache, under the hash of the sources and of
// package-lock.json; later starts run that bundle while neither changed.
//
// Nothing here runs at install time, and the server runs in this very process: a SIGTERM to it
// reaches the server's own graceful shutdown.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer, runBundle } from './bundle.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const cacheDir = join(root, 'node_modules', '.cache', 'decision-reference');
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

/** Bundles and code caches of earlier sources unused for an hour, so that no server still starting needs them. */
function removeStaleBundles(/** @type {string} */ current) {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (path !== current && /^serve-/.test(name) && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
  }
}

/** The bundle of the current sources in the cache, made now if there is none. */
async function cachedBundle() {
  const bundled = join(cacheDir, `serve-${sourcesHash()}.cjs`);
  if (existsSync(bundled)) {
    // Its time is its last use: removeStaleBundles keeps what is used, and the newest is the current one.
    const now = new Date();
    utimesSync(bundled, now, now);
    return bundled;
  }
  await bundleServer(root, bundled);
  removeStaleBundles(bundled);
  writeFileSync(
    join(cacheDir, 'README'),
    'Bundles of reference-impl/main.ts made by reference-impl/start.mjs, keyed by the hash of the sources, and their V8 code caches; safe to delete.\n',
  );
  return bundled;
}

const packaged = join(here, 'server.cjs');
await runBundle(existsSync(packaged) ? packaged : await cachedBundle(), process.argv.slice(2), process.env);
