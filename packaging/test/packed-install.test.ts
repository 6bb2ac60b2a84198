// What users install is what is tested: the kit packed by plain `npm pack` (what `npm publish` runs:
// its prepack script builds dist/), installed into an empty project by plain `npm install <tarball>`
// with install scripts allowed, which must print no npm warning about install scripts (the kit
// depends on nothing that has one), and run from there as an implementer runs it. Then the bundled server's packages are added with
// the very command the kit prints when they are missing, and the bundled server is run; so are
// Prism's and Spectral's, and the mock and the linter run; then vitest, and the README's vitest
// example runs against a server and against a broken one.
//
// The installs run from the local npm cache alone (`--offline`): `npm ci` in this repository has
// filled it with every package they need. The first run after `npm ci` finds some package metadata
// missing (npm ci fetches tarballs, not metadata) and asks the registry for that metadata only
// (`--prefer-offline`); later runs need no network. Nothing is downloaded from outside the npm
// registry: on Linux x64, onnxruntime-node's install script would try to download CUDA files, and
// it does not run (the command the kit prints installs the bundled server with --ignore-scripts).
import { execFile, spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probabilitiesOutOfRange } from '../../api/test/fixtures/server-under-test.ts';
import { isOperation, rewriteJson, startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import { exampleAuthorization } from '../../mock/example-key.ts';
import { median } from '../../load/compare.ts';
import { startKeyedServer, type KeyedServerProcess } from '../../load/server-process.ts';
import { LATENCY_OUT_OF_REACH_FLAGS } from '../../load/test/support.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), 'decision-packed-'));
const project = join(work, 'project');
const installed = join(project, 'node_modules', 'decision-conformance');
const bin = join(installed, 'bin', 'decision-conformance.mjs');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The environment of a user's shell: nothing npm or vitest set for this test run (npm test passes the kit's .npmrc on as npm_config_* variables). */
function userEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST|DECISION_)/i.test(name) && name !== 'NODE_OPTIONS');
  return { ...Object.fromEntries(inherited), NO_COLOR: '1', ...extra };
}

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd ?? project, env: userEnvironment(options.env), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr, ms: performance.now() - started });
      },
    );
  });
}

const kit = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [bin, ...args], { env });
/**
 * An install from the npm cache alone (--offline); when the cache lacks some package metadata (the
 * first run after `npm ci`, which fetches tarballs, not metadata), the same install asking the
 * registry for that metadata only (--prefer-offline). Says which it was.
 */
async function npm(args: string[], timeoutMs = 300_000): Promise<Ran> {
  const offline = await run('npm', [...args, '--offline', '--no-audit', '--no-fund'], { timeoutMs });
  if (offline.code === 0 || !/ENOTCACHED|only-if-cached/.test(offline.stderr)) {
    console.info(`npm ${args[0]} from the npm cache alone (--offline)`);
    return offline;
  }
  const online = await run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { timeoutMs });
  console.info(`npm ${args[0]}: package metadata not all cached yet, asked the registry for it (--prefer-offline); packages from the cache`);
  return { ...online, ms: online.ms + offline.ms };
}

/** Bytes under a folder, links not followed, as `du` counts a node_modules. */
function folderBytes(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sum + folderBytes(path);
    return sum + (entry.isFile() ? statSync(path).size : 0);
  }, 0);
}

interface Lockfile {
  packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }>;
}

function lockfile(): Lockfile {
  return JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as Lockfile;
}

/** Installed packages: the lockfile's entries but the project itself and those of other platforms, which npm lists and does not install. */
function packageNames(): string[] {
  return Object.keys(lockfile().packages)
    .filter((path) => path !== '' && existsSync(join(project, path, 'package.json')))
    .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
}

function figures(form: string, ran: Ran): string {
  const line = `${form}: ${packageNames().length} packages, ${(folderBytes(join(project, 'node_modules')) / 1e6).toFixed(1)} MB in node_modules, installed in ${(ran.ms / 1000).toFixed(1)} s`;
  console.info(line);
  return line;
}

/** The newest report folder under the project's reports/out. */
function newestReport(): string {
  const folder = join(project, 'reports', 'out');
  const names = readdirSync(folder).sort();
  return join(folder, names.at(-1)!);
}

let tarball: string;
let kitAloneInstall: Ran;
let server: KeyedServerProcess;

beforeAll(async () => {
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'implementer-project', version: '1.0.0', private: true }, null, 2)}\n`);
  // Plain npm pack, as npm publish packs: its prepack script builds dist/ (--json: only pack's JSON
  // on stdout, the script's lines on stderr). In a copy of the repository without dist/, as a clean
  // clone, so that the build's dist/ is written to a temporary folder, as everything a test writes;
  // the copy uses the repository's node_modules.
  const source = join(work, 'source');
  cpSync(ROOT, source, { recursive: true, filter: (path) => !/^(node_modules|\.git|dist|reports\/out)(\/|$)/.test(relative(ROOT, path)) });
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: source, timeoutMs: 300_000 });
  expect(packed.code, packed.stderr).toBe(0);
  expect(packed.stdout + packed.stderr).toMatch(/> decision-conformance@[^ ]+ prepack\n> node packaging\/build\.mjs/);
  const [packResult] = JSON.parse(packed.stdout) as { filename: string; size: number; files: { path: string }[] }[];
  const built = packResult!.files.filter((file) => file.path.startsWith('dist/')).length;
  console.info(`npm pack: ${packResult!.files.length} files (${built} in dist/), ${(packResult!.size / 1e6).toFixed(2)} MB`);
  expect(packResult!.files.map((file) => file.path)).toContain('dist/cli/main.js');
  tarball = join(work, packResult!.filename);
  kitAloneInstall = await npm(['install', tarball]);
  expect(kitAloneInstall.code, kitAloneInstall.stderr).toBe(0);
  server = await startKeyedServer();
}, 600_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('the packed kit, installed alone by plain npm install', () => {
  it('installs the kit and its few dependencies, none with an install script, and npm warns about none', () => {
    figures('kit alone', kitAloneInstall);
    const names = packageNames();
    expect(names).toContain('decision-conformance');
    // tsx (and esbuild behind it) run the kit from a source checkout only: development dependencies.
    for (const heavy of ['onnxruntime-node', 'tesseract.js', '@napi-rs/canvas', 'pdfjs-dist', 'fastify', '@stoplight/prism-cli', 'vitest', 'tsx', 'esbuild'])
      expect(names).not.toContain(heavy);
    const withScripts = Object.entries(lockfile().packages).filter(([, entry]) => entry.hasInstallScript);
    expect(withScripts.map(([path]) => path)).toEqual([]);
    const output = `${kitAloneInstall.stdout}${kitAloneInstall.stderr}`;
    console.info(`npm install <tarball> printed:\n${output.trim()}`);
    expect(output).not.toMatch(/npm warn install-scripts/i);
    expect(output.split('\n').filter((line) => /^npm warn/i.test(line) && /script/i.test(line))).toEqual([]);
  });

  it('ships JavaScript and declarations built from the sources, no TypeScript source and no test', () => {
    const files: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(folder, entry.name));
        else files.push(join(folder, entry.name).slice(installed.length + 1));
      }
    };
    walk(installed);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    // Nor the kit's own tests and test fixtures, whatever their files (tsconfig.build.json's exclude).
    expect(files.filter((file) => /(^|\/)(test|testing)\//.test(file))).toEqual([]);
    for (const file of [
      'dist/cli/main.js',
      'dist/api/index.d.ts',
      'dist/api/vitest.js',
      'dist/spec/openapi.yaml',
      'dist/load/scenarios/mixed.js',
      'action.yml',
      'action/run.mjs',
      'CHANGELOG.md',
    ]) {
      expect(files).toContain(file);
    }
  });

  it("gives a TypeScript project its declarations: both entry points type-check (nodenext, the library's own .d.ts checked too)", async () => {
    // Inside the project, so that its node_modules (the installed kit) is found as in any subfolder.
    const folder = join(project, 'typescript-consumer');
    mkdirSync(folder);
    writeFileSync(join(folder, 'package.json'), '{ "name": "typescript-consumer", "private": true, "type": "module" }\n');
    writeFileSync(
      join(folder, 'consumer.ts'),
      [
        "import { runConformance, MissingPartError, type ConformanceRunReport } from 'decision-conformance';",
        "import { conformanceTests, type ConformanceOptions } from 'decision-conformance/vitest';",
        "const options: ConformanceOptions = { baseUrl: 'http://127.0.0.1:1', apiKey: 'k', only: ['AUTH-VALID-KEY'] };",
        'const results: ConformanceRunReport = await runConformance(options);',
        'const mustFailed: number = results.summary.must_failed;',
        'export { conformanceTests, MissingPartError, mustFailed };',
        '',
      ].join('\n'),
    );
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
      // @types/node from this repository: the implementer's project would have its own.
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    };
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    const checked = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', folder], { cwd: folder });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });

  it('answers --help and --version from the build', async () => {
    const help = await kit(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: decision-conformance <command>/);
    // Figures, not a bound: the same command from the build and from the sources (tsx), in turns.
    const times: Record<'build' | 'sources', number[]> = { build: [], sources: [] };
    for (let turn = 0; turn < 5; turn++) {
      times.build.push((await kit(['--help'])).ms);
      times.sources.push((await run(process.execPath, [join(ROOT, 'bin', 'decision-conformance.mjs'), '--help'])).ms);
    }
    console.info(
      `--help, median of 5: ${Math.round(median(times.build))} ms from the build, ${Math.round(median(times.sources))} ms from the sources through tsx`,
    );
    const version = await kit(['--version']);
    expect(version.stdout).toMatch(
      new RegExp(`^decision-conformance ${manifest.version.replaceAll('.', '\\.')}\\nspec 1\\.0\\.0-beta \\(sha256 [0-9a-f]{12}\\)\\n$`),
    );
  });

  it('says in one line how to install the bundled server, the mock and the linter when a command needs them', async () => {
    for (const [args, needs] of [
      [['run'], 'onnxruntime-node@'],
      [['serve'], 'onnxruntime-node@'],
      [['load', 'cold-start'], 'onnxruntime-node@'],
      [['mock'], '@stoplight/prism-cli@'],
      [['lint'], '@stoplight/spectral-cli@'],
    ] as const) {
      const ran = await kit([...args]);
      expect(ran.code, `${args.join(' ')}: ${ran.stderr}`).toBe(2);
      const lines = ran.stderr.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(/needs packages that are not installed \(.+\); install them with: npm install --save-dev --ignore-scripts "/);
      expect(lines[0]).toContain(needs);
    }
  });

  it('lists the checks', async () => {
    const listed = await kit(['list-checks', '--json']);
    expect(listed.code).toBe(0);
    const catalogue = JSON.parse(listed.stdout) as unknown;
    expect(JSON.stringify(catalogue)).toContain('"AUTH-MISSING-KEY"');
  });

  it('diffs two versions of the spec it ships, finding the breaking change', async () => {
    const shipped = join(installed, 'dist', 'spec', 'openapi.yaml');
    const document = parse(readFileSync(shipped, 'utf8')) as { paths: Record<string, unknown> };
    delete document.paths['/v1/feedback'];
    writeFileSync(join(work, 'without-feedback.yaml'), stringify(document));
    const diffed = await kit(['diff', shipped, join(work, 'without-feedback.yaml'), '--format', 'json']);
    expect(diffed.code, diffed.stderr).toBe(1);
    expect((JSON.parse(diffed.stdout) as { findings: { ruleId: string; class: string }[] }).findings).toEqual([
      expect.objectContaining({ ruleId: 'path-removed', class: 'breaking' }),
    ]);
  });

  it('runs conformance checks against a server by its base URL, writing reports under the project', async () => {
    // A check of each kind of exchange (key, decide, upload): the whole catalogue runs from this
    // install against the bundled server below, so a second full run here would prove nothing more.
    const only = 'AUTH-VALID-KEY,DECIDE-PROBABILITY-RANGE,ASSET-UPLOAD-IMAGE-PNG';
    const ran = await kit(['run', '--base-url', server.baseUrl, '--only', only], { DECISION_API_KEY: server.key });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/3 passed, 0 failed, 0 skipped, 0 observed \(0 MUST failed\)/);
    const report = JSON.parse(readFileSync(join(newestReport(), 'results.json'), 'utf8')) as { kit: { version: string }; target: { embedded: boolean } };
    expect(report.kit.version).toBe(manifest.version);
    expect(report.target.embedded).toBe(false);
    expect(existsSync(join(installed, 'reports'))).toBe(false);
  });

  it('runs a load scenario with its Node runner', async () => {
    // Latency out of reach: the claim is that the installed kit runs a scenario, and p95 judges the machine.
    const args = [
      'load',
      'run',
      '--scenario',
      'decide-steady',
      '--node',
      '--duration',
      '2',
      '--rate',
      '10',
      '--repeat',
      '1',
      '--base-url',
      server.baseUrl,
      ...LATENCY_OUT_OF_REACH_FLAGS,
    ];
    const ran = await kit(args, { DECISION_API_KEY: server.key });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(existsSync(join(newestReport(), 'results.json'))).toBe(true);
  });
});

describe('the packed kit with the bundled server, installed by the command it prints', () => {
  let installCommand: string[];
  let served: KeyedServerProcess;

  beforeAll(async () => {
    installCommand = await printedInstall('run');
  }, 60_000);

  afterAll(async () => {
    await served?.stop();
  });

  it('installs, downloading nothing from outside the npm registry', async () => {
    const ran = await npm(installCommand);
    expect(ran.code, ran.stderr).toBe(0);
    figures('kit with the bundled server', ran);
    expect(packageNames()).toContain('onnxruntime-node');
  }, 300_000);

  it('runs the full conformance suite against the bundled server', async () => {
    const ran = await kit(['run']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/the bundled reference server \(reference profile\)/);
    const counts = /\d+ passed, 0 failed, (\d+) skipped, \d+ observed \(0 MUST failed\)/.exec(ran.stdout);
    expect(counts, ran.stdout).not.toBeNull();
    // A skip is allowed for one reason only: a concurrency check that saw no overlap (the server,
    // on a busy machine, answered one request at a time), which it reports instead of passing.
    const skipped = [...ran.stdout.matchAll(/^ {2}- (\S+) .*\n\s+(.*)$/gm)].map(([, id, reason]) => ({ id, reason }));
    expect(skipped.length).toBe(Number(counts?.[1]));
    expect(skipped.filter(({ id, reason }) => !id?.startsWith('CONCURRENT-') || !reason?.startsWith('no overlap achieved'))).toEqual([]);
  }, 180_000);

  it('starts the bundled server cold from the bundle the package carries', async () => {
    const ran = await kit(['load', 'cold-start', '--runs', '3']);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const median = /spawn -> first decide median ([\d.]+) ms/.exec(ran.stdout)?.[1];
    expect(median, ran.stdout).toBeDefined();
    console.info(`cold start from the package: spawn -> first decide median ${median} ms of 3`);
  }, 120_000);

  it('serves the bundled server, which a run by base URL then passes', async () => {
    served = await startKeyedServer({ command: [process.execPath, bin, 'serve'] });
    const ran = await kit(['run', '--base-url', served.baseUrl, '--only', 'DECIDE-PROBABILITY-RANGE,ASSET-UPLOAD-IMAGE-PNG'], { DECISION_API_KEY: served.key });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/2 passed, 0 failed/);
  }, 120_000);
});

/** The command the kit prints for a missing part, as arguments of npm. */
async function printedInstall(command: string): Promise<string[]> {
  const refusal = await kit([command]);
  const printed = /install them with: (npm install .+?)(?: \(or |$)/.exec(refusal.stderr.trim())?.[1];
  expect(printed, refusal.stderr).toBeDefined();
  return [...printed!.matchAll(/"([^"]+)"|(\S+)/g)].map((match) => match[1] ?? match[2]!).slice(1);
}

/** A loopback port nothing listens on, as the operating system hands out. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('the packed kit with the mock and the linter, installed by the commands it prints', () => {
  beforeAll(async () => {
    for (const part of ['mock', 'lint']) {
      const installed = await npm(await printedInstall(part));
      expect(installed.code, installed.stderr).toBe(0);
    }
  }, 600_000);

  it("lints the spec it ships with the kit's ruleset: nothing at any severity", async () => {
    const linted = await kit(['lint']);
    expect(linted.code, linted.stdout + linted.stderr).toBe(0);
    expect(linted.stdout).toMatch(/No results with a severity of 'hint' or higher found!/);
  }, 120_000);

  it('serves the Prism mock of the spec it ships, which answers a decide with its example', async () => {
    const port = await freePort();
    const mock = spawn(process.execPath, [bin, 'mock', '--port', String(port), '--quiet'], { cwd: project, env: userEnvironment(), stdio: 'ignore' });
    try {
      let answered: Response | undefined;
      for (const started = performance.now(); !answered && performance.now() - started < 60_000; ) {
        answered = await fetch(`http://127.0.0.1:${port}/v1/decide`, {
          method: 'POST',
          headers: { authorization: exampleAuthorization(), 'content-type': 'application/json' },
          body: JSON.stringify({ context: 'Where is my parcel?', questions: { q: { type: 'choice', options: { yes: '', no: '' } } } }),
        }).catch(() => undefined);
        if (!answered) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(answered?.status).toBe(200);
      expect(await answered!.json()).toHaveProperty('answers');
    } finally {
      mock.kill('SIGTERM');
    }
  }, 120_000);
});

describe("the README's vitest example, in the implementer's project", () => {
  let broken: RunningProxy;

  beforeAll(async () => {
    const installedVitest = await npm(['install', '--save-dev', `vitest@${manifest.devDependencies.vitest}`]);
    expect(installedVitest.code, installedVitest.stderr).toBe(0);
    // The README's example, with the server of this test in place of the implementer's own.
    writeFileSync(join(project, 'my-server.ts'), 'export async function startMyServer() {\n  return { url: process.env.SERVER_URL!, async close() {} };\n}\n');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const example = /## In your own test suite \(vitest\)[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    writeFileSync(join(project, 'conformance.test.ts'), example!);
    broken = await startMutatingProxy(server.baseUrl, {
      response: (received, sent) =>
        isOperation(sent, 'POST', '/v1/decide') && received.status === 200 ? rewriteJson(received, probabilitiesOutOfRange) : received,
    });
  }, 300_000);

  afterAll(async () => {
    await broken?.close();
  });

  const vitest = (url: string) =>
    run(join(project, 'node_modules', '.bin', 'vitest'), ['run', '--reporter', 'verbose'], { env: { SERVER_URL: url, DECISION_API_KEY: server.key } });

  it('passes against a conforming server', async () => {
    const ran = await vitest(server.baseUrl);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    // The 2 checks, then the 18 response rules (5 of them judge nothing these checks send).
    expect(ran.stdout).toMatch(/Tests\s+15 passed \| 5 skipped \(20\)/);
  }, 120_000);

  it('fails on the check a broken server breaks, naming it', async () => {
    const ran = await vitest(broken.baseUrl);
    expect(ran.code).toBe(1);
    expect(ran.stdout + ran.stderr).toMatch(/× .*DECIDE-PROBABILITY-RANGE/);
    expect(ran.stdout + ran.stderr).toMatch(/DECIDE-PROBABILITY-RANGE \(MUST\): Expected .* observed 1\.5/);
    // The check and the three response rules probabilities of 1.5 break.
    expect(ran.stdout).toMatch(/Tests\s+4 failed \| 11 passed \| 5 skipped \(20\)/);
  }, 120_000);
});
