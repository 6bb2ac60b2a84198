#!/usr/bin/env node
// Entry point of the `decision-conformance` command: the kit is TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
