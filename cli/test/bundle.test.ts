// The command line of a clone runs from a bundle of its sources (cli/bundle.mjs): made once for the
// sources as they are, made anew when one of them changes, and each module in it still sees its
// own file's URL, from which the kit finds its spec, scripts and workers.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { cliBundle } from '../bundle.mjs';

const root = mkdtempSync(join(tmpdir(), 'decision-cli-bundle-'));
const cacheDir = join(root, 'cache');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeSources(value: string): void {
  mkdirSync(join(root, 'cli'), { recursive: true });
  mkdirSync(join(root, 'spec'), { recursive: true });
  writeFileSync(join(root, 'cli', 'main.ts'), "export { value, url as partUrl } from '../spec/part.ts';\nexport const url: string = import.meta.url;\n");
  writeFileSync(join(root, 'spec', 'part.ts'), `export const value: string = ${JSON.stringify(value)};\nexport const url: string = import.meta.url;\n`);
}

const load = async (bundle: string) =>
  (await import(`${pathToFileURL(bundle).href}?${statSync(bundle).ino}`)) as { value: string; url: string; partUrl: string };

test('a bundle is made once for the sources as they are, and its modules keep their own URLs', async () => {
  writeSources('first');
  const bundle = await cliBundle(root, { cacheDir });
  const again = await cliBundle(root, { cacheDir });
  expect(again).toBe(bundle);
  // Not made again: the same file, not a new one renamed over it.
  expect(statSync(again).ino).toBe(statSync(bundle).ino);
  const loaded = await load(bundle);
  expect(loaded.value).toBe('first');
  expect(loaded.url).toBe(pathToFileURL(join(root, 'cli', 'main.ts')).href);
  expect(loaded.partUrl).toBe(pathToFileURL(join(root, 'spec', 'part.ts')).href);
});

test('a change to a file the bundle was made from makes a new bundle', async () => {
  writeSources('first');
  const before = await cliBundle(root, { cacheDir });
  writeSources('second');
  const after = await cliBundle(root, { cacheDir });
  expect(after).not.toBe(before);
  expect((await load(after)).value).toBe('second');
});

test('a file new to a folder that an import picks from by pattern makes a new bundle that has it', async () => {
  writeSources('first');
  mkdirSync(join(root, 'defs'), { recursive: true });
  writeFileSync(join(root, 'defs', 'one.js'), "export const name = 'one';\n");
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a module whose import is a template literal
  writeFileSync(join(root, 'cli', 'main.ts'), 'export const load = async (name: string) => (await import(`../defs/${name}.js`)).name;\n');
  const before = await cliBundle(root, { cacheDir });
  writeFileSync(join(root, 'defs', 'two.js'), "export const name = 'two';\n");
  const after = await cliBundle(root, { cacheDir });
  expect(after).not.toBe(before);
  const loaded = (await import(`${pathToFileURL(after).href}?${statSync(after).ino}`)) as { load(name: string): Promise<string> };
  expect(await loaded.load('two')).toBe('two');
});

test('sources esbuild cannot read give no bundle but an error (on which bin/decision-conformance.mjs runs them through tsx)', async () => {
  writeSources('first');
  writeFileSync(join(root, 'spec', 'part.ts'), 'export const value: string = ;\n');
  await expect(cliBundle(root, { cacheDir })).rejects.toThrow();
});
