// `npm run build`, and the prepack script that `npm pack` and `npm publish` run: the kit's JavaScript
// and type declarations in dist/, so that an installed package runs without compiling TypeScript. The
// sources stay the one truth: dist/ is made from them for every package and never committed.
//
// tsc compiles the folders tsconfig.build.json includes; every other file of those folders that
// the kit reads at run time (the spec, the k6 scripts, workers, the lint ruleset) is copied beside
// the compiled modules, at the same relative path, so that paths resolved from import.meta.url
// find them in dist/ as they do in the repository. The JavaScript files are copied as written:
// k6 runs them, and tsc's emit of them is only for their declarations. Last, the reference
// server's bundle (reference-impl/bundle.mjs), which its start runs in a package as in a clone.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../reference-impl/bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
/** @type {{ include: string[]; exclude: string[] }} */
const buildConfig = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));

/**
 * Whether `path` (from the root, `/`-separated) is left out by one of tsconfig.build.json's exclude
 * patterns (tests, test fixtures, benchmarks, generators), read as tsc reads them: a pattern names
 * a file, or a folder with all under it; `*` stands for any part of one name, `**` for any folders.
 * @param {string} path
 */
function excluded(path) {
  const names = path.split('/');
  return buildConfig.exclude.some((pattern) => {
    const parts = pattern.split('/');
    /** @type {(part: number, name: number) => boolean} */
    const matches = (part, name) => {
      if (part === parts.length) return true;
      if (parts[part] === '**') return matches(part + 1, name) || (name < names.length && matches(part, name + 1));
      if (name === names.length) return false;
      const glob = new RegExp(`^${(parts[part] ?? '').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
      return glob.test(names[name] ?? '') && matches(part + 1, name + 1);
    };
    return matches(0, 0);
  });
}

/**
 * @param {string} folder
 * @returns {string[]} files under `folder` that the build copies, relative to the root
 */
function runtimeFiles(folder) {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (excluded(path)) return [];
    if (entry.isDirectory()) return runtimeFiles(path);
    const source = path.endsWith('.ts') && !path.endsWith('.d.ts');
    return source || path.endsWith('.md') ? [] : [path];
  });
}

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// --noCheck: tsc emits without type-checking again (the same files, byte for byte); the type check
// is npm test's (npm run typecheck), and here it took as long as the emit.
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit' });
if (compiled.status !== 0) {
  process.stderr.write('build: tsc failed\n');
  process.exit(compiled.status ?? 1);
}
const copied = buildConfig.include.flatMap(runtimeFiles);
for (const file of copied) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
}
// The reference server's start (reference-impl/start.mjs) runs this bundle when it finds it beside itself.
const serverBundle = join(dist, 'reference-impl', 'server.cjs');
await bundleServer(root, serverBundle, { portable: true });
process.stderr.write(`build: ${relative(root, dist)}/ compiled by tsc, ${copied.length} files copied beside it, ${relative(root, serverBundle)} bundled\n`);
