// The layers of the kit, read from its sources: the library (api/) and everything else sit below
// the command line (cli/), so no module outside cli/ imports it, tests included (bin/, the
// command's entry point, starts it); api/ takes typed options and builds no command-line
// arguments out of them; and no module of the repository imports itself through others (a
// cycle), type-only imports included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE = /\.(ts|mts|cts|mjs|js|cjs)$/;
/** Not the kit's sources: installed packages, the build, reports written by runs, git's own files. */
const NOT_SOURCES = new Set(['node_modules', 'dist', '.git', join('reports', 'out')]);

function sourceFiles(folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (NOT_SOURCES.has(relative(root, path))) return [];
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier a source names: import and export … from, `import type`, import(…), require(…); comments do not count. */
function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The file a relative specifier names, from the file that names it; undefined for packages and node: modules. */
function resolved(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const path = resolve(dirname(from), specifier);
  return [path, `${path}.ts`, join(path, 'index.ts')].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

const files = sourceFiles();
const imports = new Map(
  files.map((file) => [file, specifiers(readFileSync(file, 'utf8')).map((specifier) => ({ specifier, target: resolved(file, specifier) }))]),
);
const name = (file: string) => relative(root, file).split(sep).join('/');
const inside = (file: string, folder: string) => name(file).startsWith(`${folder}/`);

describe('how imports are read', () => {
  test('static, type-only, re-exported, dynamic and required modules count; one named in a comment or a string does not', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "export type { D } from './d.ts';",
      "const e = await import('./e.ts');",
      'const f = await import(`./f.ts`);',
      "const g = require('./g.cjs');",
      "// import { h } from './h.ts';",
      "/** @type {import('./i.js').I} */",
      'const j = "import(\'./j.ts\')";',
    ].join('\n');
    expect(specifiers(text)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts', './e.ts', './f.ts', './g.cjs']);
  });

  test("the repository's sources are all read", () => {
    expect(files.length).toBeGreaterThan(200);
    const runImports = imports.get(join(root, 'api', 'run.ts'))!.map(({ target }) => target && name(target));
    expect(runImports).toEqual(expect.arrayContaining(['harness/runner.ts', 'api/run-options.ts', 'reports/run-report.ts']));
  });
});

describe('the library sits below the command line', () => {
  // bin/ holds the command's entry point, which starts the command line: it is above cli/, not below.
  test('no module outside cli/ and bin/ imports from cli/, statically or dynamically', () => {
    const offending = files
      .filter((file) => !inside(file, 'cli') && !inside(file, 'bin'))
      .flatMap((file) =>
        imports
          .get(file)!
          .filter(({ target }) => target !== undefined && inside(target, 'cli'))
          .map(({ specifier }) => `${name(file)}: ${specifier}`),
      );
    expect(offending).toEqual([]);
  });

  test('api/ builds no command-line arguments: no --flag=value strings, no flag names made from variables', () => {
    const builders = [/`--\$\{/, /['"`]--[a-z][a-z0-9-]*=/];
    const offending = files
      .filter((file) => inside(file, 'api'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, index) => ({ line, at: `${name(file)}:${index + 1}` }))
          .filter(({ line }) => builders.some((builder) => builder.test(line)))
          .map(({ line, at }) => `${at}: ${line.trim()}`),
      );
    expect(offending).toEqual([]);
  });
});

/** An import cycle among the sources, as the files around it (the first repeated at the end), or undefined. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    if (state.get(file) !== undefined) continue;
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('no import cycle', () => {
  test('the cycle finder finds one, and names its files in order', () => {
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['b']],
        ]),
      ),
    ).toEqual(['b', 'c', 'b']);
    expect(
      findCycle(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toBeUndefined();
  });

  test("among the repository's modules, following relative imports, type-only ones included", () => {
    const graph = new Map([...imports].map(([file, named]) => [file, named.flatMap(({ target }) => (target && imports.has(target) ? [target] : []))]));
    const cycle = findCycle(graph);
    expect(cycle?.map(name).join(' -> ')).toBeUndefined();
  });
});
