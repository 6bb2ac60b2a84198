// Reads a document to compare: a file (YAML or JSON), or `git-ref:path` read with `git show`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isObject, type JsonObject } from '../spec/index.ts';

/** An input the diff cannot read: the command exits 2 with this message. */
export class UnreadableSpec extends Error {
  override name = 'UnreadableSpec';
}

export function loadSpec(source: string, cwd = process.cwd()): JsonObject {
  const text = readSource(source, cwd);
  let parsed: unknown;
  try {
    // YAML 1.2 is a superset of JSON: one parser reads both.
    parsed = parse(text, { maxAliasCount: 1000 });
  } catch (error) {
    throw new UnreadableSpec(`${source} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isObject(parsed) || typeof parsed.openapi !== 'string' || !isObject(parsed.paths)) {
    throw new UnreadableSpec(`${source} is not an OpenAPI document (it needs "openapi" and "paths")`);
  }
  return parsed;
}

function readSource(source: string, cwd: string): string {
  if (existsSync(source)) {
    try {
      return readFileSync(source, 'utf8');
    } catch (error) {
      throw new UnreadableSpec(`cannot read ${source}: ${(error as Error).message}`);
    }
  }
  const separator = source.indexOf(':');
  if (separator <= 0) throw new UnreadableSpec(`${source}: no such file (for a spec in git, write REF:PATH, e.g. origin/main:spec/openapi.yaml)`);
  try {
    return execFileSync('git', ['show', source], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '')
      .trim()
      .split('\n')[0];
    throw new UnreadableSpec(`cannot read ${source} from git: ${stderr || (error as Error).message}`);
  }
}
