// How `npm ci` installs the kit: through npm settings only, with no dependency install script
// (onnxruntime-node's would download CUDA binaries from outside the npm registry), and everything
// the kit runs still works without those scripts.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { onnx } = onnxProto;

/** npm as a user would run it in the project folder, without settings inherited from an npm parent. */
function npmInProject(args: string[]) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')));
  return run('npm', args, { cwd: ROOT, env, timeout: 30_000 });
}

function settings(npmrc: string): Map<string, string> {
  const lines = npmrc
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith(';'));
  return new Map(
    lines.map((line) => {
      const at = line.indexOf('=');
      return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    }),
  );
}

/** A one-node model (y = x + x) written with onnx-proto: scoring on the CPU needs nothing more. */
function doublingModel(): Uint8Array {
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const tensor = (name: string) => ({ name, type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimValue: 2 }] } } } });
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 17 }],
      graph: { name: 'double', node: [{ opType: 'Add', input: ['x', 'x'], output: ['y'] }], input: [tensor('x')], output: [tensor('y')] },
    }),
  ).finish();
}

describe('npm install settings', () => {
  it('.npmrc holds npm settings only: ignore-scripts, nothing npm would warn about', async () => {
    expect([...settings(await readFile(join(ROOT, '.npmrc'), 'utf8'))]).toEqual([['ignore-scripts', 'true']]);
  });

  it('npm reads ignore-scripts=true from the project and warns about nothing in the project files', async () => {
    const { stdout, stderr } = await npmInProject(['config', 'get', 'ignore-scripts']);
    expect(stdout.trim()).toBe('true');
    expect(stderr).not.toMatch(/project config|package\.json/i);
  });

  it('the project has no pre- or post-script that ignore-scripts would silently skip, and no stale install-script policy', async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(Object.keys(manifest.scripts).filter((name) => /^(pre|post)/.test(name))).toEqual([]);
    expect(manifest).not.toHaveProperty('allowScripts');
  });
});

describe('dependencies work without their install scripts', () => {
  it('onnxruntime-node scores on its bundled CPU binding, and its CUDA files were never downloaded', async () => {
    const backends = ort.listSupportedBackends();
    expect(backends).toContainEqual({ name: 'cpu', bundled: true });
    const session = await ort.InferenceSession.create(doublingModel(), { executionProviders: ['cpu'] });
    const { y } = await session.run({ x: new ort.Tensor('float32', Float32Array.from([1.5, -2]), [2]) });
    expect(Array.from(y!.data as Float32Array)).toEqual([3, -4]);
    await session.release();
    const bindingDir = dirname(fileURLToPath(import.meta.resolve('onnxruntime-node')));
    const packageDir = join(bindingDir, '..', '..');
    const { stdout } = await run('find', [packageDir, '-name', 'libonnxruntime_providers_cuda*']);
    expect(stdout.trim()).toBe('');
  });

  it('esbuild (behind tsx and vitest) runs from its platform package', async () => {
    const { stdout } = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), ['-e', 'const n: number = 6 * 7; console.log(n)'], { cwd: ROOT, timeout: 30_000 });
    expect(stdout.trim()).toBe('42');
  });
});
