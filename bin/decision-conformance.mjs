#!/usr/bin/env node
// Entry point of the `decision-conformance` command. In an installed package it runs the JavaScript
// built into dist/ when the package was made (`npm run package`); in a clone of the repository,
// where the TypeScript sources are the kit, it runs them through tsx.
import { existsSync } from 'node:fs';

const sources = new URL('../cli/main.ts', import.meta.url);
const built = new URL('../dist/cli/main.js', import.meta.url);
/** @type {{ main(argv: string[]): Promise<number> }} */
let cli;
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(sources.href);
} else if (existsSync(built)) {
  cli = await import(built.href);
} else {
  process.stderr.write('decision-conformance: this package was packed without its build (dist/ is missing); make it with "npm run package"\n');
  process.exit(2);
}
process.exitCode = await cli.main(process.argv.slice(2));
