// The parsed spec is cached by its SHA-256 (document.ts): a process that finds the cache reads the
// same document the YAML gives, and a cache that is unreadable, or in a folder that is not the
// user's, is never trusted. Each case loads the spec in a fresh Node process with its own
// temporary folder, as every command and test file of the kit does.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, expect, test } from 'vitest';

const documentModule = fileURLToPath(new URL('../document.ts', import.meta.url));
const fromYaml = JSON.stringify(parse(readFileSync(fileURLToPath(new URL('../openapi.yaml', import.meta.url)), 'utf8')));
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A temporary folder of the test's own, standing for the system's. */
function systemTemp(): string {
  const folder = mkdtempSync(join(tmpdir(), 'decision-spec-cache-'));
  folders.push(folder);
  return folder;
}

/** openapiJson as a fresh process loads it with TMPDIR set to `temp`. */
function loadedJson(temp: string): string {
  const script = `const { openapiJson } = await import(${JSON.stringify(documentModule)}); process.stdout.write(openapiJson);`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: temp }, encoding: 'utf8' });
}

const cacheFolder = (temp: string) => join(temp, `decision-conformance-${process.getuid?.() ?? 'user'}`);
const cacheFile = (temp: string) => {
  const [name] = readdirSync(cacheFolder(temp)).filter((file) => /^openapi-[0-9a-f]{64}\.json$/.test(file));
  return join(cacheFolder(temp), name!);
};

test('the first process writes the cache, the next reads it, and both give the document the YAML gives', () => {
  const temp = systemTemp();
  expect(loadedJson(temp)).toBe(fromYaml);
  expect(readFileSync(cacheFile(temp), 'utf8')).toBe(fromYaml);
  expect(loadedJson(temp)).toBe(fromYaml);
  // The next process really reads the cache, not the YAML: what is planted there is what it serves.
  const planted = JSON.stringify({ openapi: '3.1.0', info: { title: 'planted', version: '0' } });
  writeFileSync(cacheFile(temp), planted);
  expect(loadedJson(temp)).toBe(planted);
});

test('a cache that is not JSON is parsed past, and the YAML is read', () => {
  const temp = systemTemp();
  loadedJson(temp);
  writeFileSync(cacheFile(temp), '{"openapi": "3.1.0", "info": ');
  expect(loadedJson(temp)).toBe(fromYaml);
});

test.skipIf(process.getuid?.() !== 0)("a cache in a folder that is another user's is not trusted", () => {
  const temp = systemTemp();
  loadedJson(temp);
  writeFileSync(cacheFile(temp), JSON.stringify({ openapi: '3.1.0', info: { title: 'planted', version: '0' } }));
  chownSync(cacheFolder(temp), 65_534, 65_534);
  expect(loadedJson(temp)).toBe(fromYaml);
});
