#!/usr/bin/env node
// Entry point of the `decision-conformance` command. In an installed package it runs the JavaScript
// built into dist/ when the package was made (`npm run package`). In a clone of the repository,
// where the TypeScript sources are the kit, it runs a bundle of them made at the first start after
// a change (cli/bundle.mjs), or the sources themselves through tsx when no bundle can be made.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const sources = new URL('../cli/main.ts', import.meta.url);
const built = new URL('../dist/cli/main.js', import.meta.url);
/** @type {{ main(argv: string[]): Promise<number> }} */
let cli;
if (existsSync(sources)) {
  cli = await fromSources();
} else if (existsSync(built)) {
  cli = await import(built.href);
} else {
  process.stderr.write('decision-conformance: this package was packed without its build (dist/ is missing); make it with "npm run package"\n');
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2));

/** The command line of a clone: from the bundle of its sources, else from the sources through tsx. */
async function fromSources() {
  /** @type {string | undefined} */
  let bundle;
  try {
    const { cliBundle } = await import('../cli/bundle.mjs');
    bundle = await cliBundle(fileURLToPath(new URL('..', import.meta.url)));
  } catch {
    // No esbuild, a cache folder it cannot write, a source esbuild cannot read: tsx reports what it can.
  }
  if (bundle) return import(pathToFileURL(bundle).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(sources.href);
}
