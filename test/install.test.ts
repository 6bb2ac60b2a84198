// How `npm ci` installs the kit: npm runs the project's own scripts (prepack builds the package) and
// the dependencies' install scripts, each switched off by its own setting where it would reach
// outside the npm registry: onnxruntime-node's CUDA download by package.json's allowScripts where npm
// reads it (npm 11) and by its own switch in the environment where npm does not (npm 10), Scarf's
// analytics by scarfSettings in package.json; package.json's allowScripts lists every one of them.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));
const { onnx } = onnxProto;
const scratch = mkdtempSync(join(tmpdir(), 'decision-install-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Manifest {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  scarfSettings?: Record<string, unknown>;
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const npmrc = readFileSync(join(ROOT, '.npmrc'), 'utf8');

/** The environment of a user's shell: no npm settings inherited from an npm parent, no analytics opt-out of its own. */
function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) =>
      !name.toLowerCase().startsWith('npm_config_') && !['SCARF_ANALYTICS', 'SCARF_NO_ANALYTICS', 'DO_NOT_TRACK', 'ONNXRUNTIME_NODE_INSTALL'].includes(name),
  );
  return { ...Object.fromEntries(inherited), ...extra };
}

/** npm as a user would run it in the project folder. */
function npmInProject(args: string[]) {
  return run('npm', args, { cwd: ROOT, env: userEnvironment(), timeout: 30_000 });
}

/** npm's warnings: none may come from the project's own files. */
function npmWarnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^npm warn/i.test(line));
}

function settings(text: string): Map<string, string> {
  const lines = text
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

/** The dependencies .npmrc's comment accounts for, one `# - name:` line each. */
function npmrcAccountsFor(): string[] {
  return [...npmrc.matchAll(/^# - ([^\s:]+)/gm)].map((match) => match[1]!).sort();
}

/** A script that refuses any socket but a local one, and any DNS lookup, saying which it refused. */
const NETWORK_GUARD = `
const net = require('node:net');
const dns = require('node:dns');
const childProcess = require('node:child_process');
const deny = (what) => { process.stderr.write('NETWORK ' + what + '\\n'); throw new Error('network refused'); };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (options && typeof options === 'object' && typeof options.path === 'string') return connect.apply(this, args);
  deny('socket');
};
dns.lookup = () => deny('dns');
globalThis.fetch = () => deny('fetch');
for (const name of ['exec', 'execFile', 'spawn']) {
  const original = childProcess[name];
  childProcess[name] = (...args) => { process.stderr.write('SPAWN ' + String(args[0]) + '\\n'); return original(...args); };
}
`;

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
  it('.npmrc holds no setting: npm 11 warns about every one it does not know, and the switches live elsewhere', () => {
    expect([...settings(npmrc)]).toEqual([]);
  });

  it("npm runs the project's own scripts: nothing ignores them, and npm pack builds the package through prepack", async () => {
    const { stdout, stderr } = await npmInProject(['config', 'get', 'ignore-scripts']);
    expect(stdout.trim()).toBe('false');
    expect(npmWarnings(stderr)).toEqual([]);
    expect(manifest.scripts.prepack).toBe('node packaging/build.mjs');
    expect(manifest.scripts.package).toBe('npm pack');
    // The build's own script, under the name that README.md's commands use.
    expect(manifest.scripts.build).toBe(manifest.scripts.prepack);
  });

  it("onnxruntime-node's CUDA step never runs: npm 11 skips the script (allowScripts), npm 10's run ends at its own switch", async (context) => {
    // On Linux x64 the install script's default is to fetch the CUDA 12 provider from NuGet.
    const metadata = require('onnxruntime-node/script/install-metadata.js') as {
      requirements: Record<string, string[]>;
      feeds: Record<string, { index: string }>;
    };
    expect(metadata.requirements['linux/x64']).toContain('cuda12');
    expect(metadata.feeds.nuget?.index).toMatch(/^https:\/\/api\.nuget\.org\//);
    // npm 10 runs the script: its parseInstallFlag() reads ONNXRUNTIME_NODE_INSTALL, and false ("skip") is its first exit.
    const probe = `node -p "require('onnxruntime-node/script/install-utils.js').parseInstallFlag()"`;
    const switched = await run('sh', ['-c', probe], { cwd: ROOT, env: userEnvironment({ ONNXRUNTIME_NODE_INSTALL: 'skip' }), timeout: 30_000 });
    expect(switched.stdout.trim()).toBe('false');
    const unswitched = await run('sh', ['-c', probe], { cwd: ROOT, env: userEnvironment(), timeout: 30_000 });
    expect(unswitched.stdout.trim()).toBe('undefined');
    // npm 11 does not run it at all. Its scripts run in the foreground here, so a script that runs prints
    // its banner ("> name@version postinstall"): protobufjs's does, the allowed control; onnxruntime-node's must not.
    const rebuild = (name: string) =>
      npmInProject(['rebuild', name, '--foreground-scripts', '--offline']).catch((error: { stdout: string; stderr: string }) => error);
    const listed = await npmInProject(['install-scripts', 'ls', '--json']).catch((error: { stdout: string; stderr: string }) => error);
    if (/Unknown command/i.test(listed.stdout + listed.stderr))
      context.skip('this npm has no allowScripts (npm 10): ONNXRUNTIME_NODE_INSTALL=skip, shown above, is the switch');
    const control = await rebuild('protobufjs');
    expect(control.stdout + control.stderr).toMatch(/> protobufjs@[^ ]+ postinstall/);
    const denied = await rebuild('onnxruntime-node');
    expect(denied.stdout + denied.stderr).not.toMatch(/onnxruntime-node@[^ ]+ postinstall/);
    expect(npmWarnings(denied.stderr)).toEqual([]);
  });

  it('@scarf/scarf finds the analytics opt-out in package.json and sends nothing, without walking the dependency tree', async () => {
    expect(manifest.scarfSettings).toEqual({ enabled: false, skipTraversal: true });
    writeFileSync(join(scratch, 'network-guard.cjs'), NETWORK_GUARD);
    const report = join(ROOT, 'node_modules', '@scarf', 'scarf', 'report.js');
    // Its postinstall exactly as npm runs it: INIT_CWD names the project npm was started in.
    const postinstall = (project: string) =>
      run(process.execPath, ['--require', join(scratch, 'network-guard.cjs'), report], {
        cwd: dirname(report),
        env: userEnvironment({ INIT_CWD: project, SCARF_VERBOSE: 'true', TMPDIR: scratch }),
        timeout: 30_000,
      });
    const kit = await postinstall(ROOT);
    expect(kit.stdout + kit.stderr).toMatch(/Error: User has opted out/);
    expect(kit.stderr).not.toMatch(/NETWORK|SPAWN/);
    // The guard catches the report a project without the opt-out would send.
    const control = join(scratch, 'control');
    mkdirSync(control);
    writeFileSync(join(control, 'package.json'), JSON.stringify({ name: 'control', version: '1.0.0', scarfSettings: { skipTraversal: true } }));
    const unguarded = await postinstall(control);
    expect(unguarded.stderr).toMatch(/NETWORK/);
  });

  it("every dependency with an install script is accounted for, in .npmrc's comment and in package.json allowScripts", () => {
    const lockfile = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = [
      ...new Set(
        Object.entries(lockfile.packages)
          .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
          .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
      ),
    ].sort();
    expect(withScripts).toEqual(['@scarf/scarf', 'esbuild', 'onnxruntime-node', 'protobufjs', 'tesseract.js']);
    expect(npmrcAccountsFor()).toEqual(withScripts);
    expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual(withScripts);
    // Denied where npm reads allowScripts: the two that would reach outside npm (their own switches hold elsewhere).
    expect(manifest.allowScripts).toMatchObject({ 'onnxruntime-node': false, '@scarf/scarf': false, esbuild: true, protobufjs: true, 'tesseract.js': true });
  });

  it("npm's own verdict on the installed tree: no install script that allowScripts leaves unreviewed (npm 11 warns about those)", async (context) => {
    const listed = await npmInProject(['install-scripts', 'ls', '--json']).catch((error: { stdout: string; stderr: string }) => error);
    // npm 10 (Node.js 20's and 22's own) has no allowScripts: it runs every install script, each switched off by its own setting.
    if (/Unknown command/i.test(listed.stdout + listed.stderr)) context.skip('this npm has no install-scripts command (npm 10 ignores allowScripts)');
    expect(JSON.parse(listed.stdout)).toEqual({ allowScripts: [] });
  });

  it('the installed package depends on nothing with an install script: tsx (and esbuild behind it) are development dependencies', () => {
    expect(manifest.devDependencies).toHaveProperty('tsx');
    expect(manifest.dependencies).not.toHaveProperty('tsx');
    // The package runs dist/ (bin/decision-conformance.mjs) and never tsx: packaging/test/packed-install.test.ts installs it.
  });
});

describe('dependencies work with their install scripts switched off', () => {
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
