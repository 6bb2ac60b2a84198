// The optional parts: every optional peer dependency belongs to one part, is installed here as a
// development dependency at the same range, and a missing package is named with the one-line
// command that installs its part.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installCommand, isInstalled, MissingPartError, missingPackages, OPTIONAL_PARTS, requirePart } from '../optional-parts.ts';
import { packageRoot } from '../../harness/kit-files.ts';

const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const partPackages = Object.values(OPTIONAL_PARTS).flatMap((part) => [...part.packages]);
// vitest is the implementer's own test runner: the `decision-conformance/vitest` entry imports it,
// and it is not declared a peer. npm 10's resolver crashes on vitest's own peer graph when a package
// declares it as one ("Cannot read properties of null (reading 'edgesOut')", npm/cli#9787): the kit
// would not install for npm 10 users at all.
const TEST_RUNNER = 'vitest';

const project = mkdtempSync(join(tmpdir(), 'decision-parts-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** A project folder with these packages in node_modules, and the kit's own folder inside it. */
function projectWith(names: string[]): string {
  const root = mkdtempSync(join(project, 'p-'));
  for (const name of names) {
    mkdirSync(join(root, 'node_modules', name), { recursive: true });
    writeFileSync(join(root, 'node_modules', name, 'package.json'), '{}');
  }
  const kit = join(root, 'node_modules', 'decision-conformance', 'dist');
  mkdirSync(kit, { recursive: true });
  return kit;
}

describe('optional parts', () => {
  it('cover every optional peer dependency exactly once, each a development dependency at the same range', () => {
    expect(new Set(partPackages).size).toBe(partPackages.length);
    expect([...partPackages].sort()).toEqual(Object.keys(manifest.peerDependencies).sort());
    expect(manifest.peerDependencies[TEST_RUNNER]).toBeUndefined();
    for (const name of Object.keys(manifest.peerDependencies)) {
      expect(manifest.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(manifest.dependencies[name], name).toBeUndefined();
    }
    for (const name of partPackages) expect(manifest.devDependencies[name], name).toBe(manifest.peerDependencies[name]);
  });

  it('are all installed in this repository', () => {
    for (const part of Object.keys(OPTIONAL_PARTS) as (keyof typeof OPTIONAL_PARTS)[]) expect(missingPackages(part), part).toEqual([]);
  });

  it('find a package in node_modules of any folder above the kit, as Node resolves it', () => {
    const kit = projectWith(['fastify']);
    expect(isInstalled('fastify', kit)).toBe(true);
    expect(isInstalled('onnxruntime-node', kit)).toBe(false);
  });

  it('name the missing packages and the command that installs the whole part, in one line', () => {
    const kit = projectWith(OPTIONAL_PARTS['reference-server'].packages.filter((name) => name !== 'onnxruntime-node' && name !== 'pdfjs-dist'));
    let message = '';
    try {
      requirePart('reference-server', kit);
    } catch (error) {
      expect(error).toBeInstanceOf(MissingPartError);
      message = (error as Error).message;
    }
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      /^the bundled reference server needs packages that are not installed \(onnxruntime-node, pdfjs-dist\); install them with: npm install /,
    );
    expect(message).toContain(installCommand('reference-server'));
    expect(message).toMatch(/\(or test your own server with --base-url\)$/);
    expect(installCommand('reference-server')).toContain(`"onnxruntime-node@${manifest.peerDependencies['onnxruntime-node']}"`);
    expect(installCommand('reference-server')).toMatch(/^npm install --save-dev --ignore-scripts "/);
  });

  it('let a command through when its part is installed', () => {
    expect(() => requirePart('mock', projectWith(['@stoplight/prism-cli']))).not.toThrow();
  });
});
