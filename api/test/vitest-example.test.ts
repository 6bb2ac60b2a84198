// The README's vitest example (fixtures/conformance.example.ts), run by vitest as an implementer
// would run it: green against the reference server, and red on the one check a broken server breaks,
// with the expectation, the observation and the curl lines in the output.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'decision-vitest-example-'));
const config = join(configDir, 'vitest.config.mjs');
// A config of its own: the example is not one of the kit's tests (its name does not end in .test.ts).
// The package's name resolves to the sources here; the packed-install test runs it on the build.
const sourceEntry = JSON.stringify(join(root, 'api/vitest.ts'));
writeFileSync(
  config,
  `export default { resolve: { alias: { 'decision-conformance/vitest': ${sourceEntry} } }, test: { root: ${JSON.stringify(root)}, include: ['api/test/fixtures/conformance.example.ts'] } };\n`,
);
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  output: string;
}

function runExample(env: Record<string, string>): Promise<Ran> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DECISION_') && !name.startsWith('VITEST')));
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', config, '--reporter', 'verbose'], {
    cwd: root,
    env: { ...inherited, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('the vitest example', () => {
  test('passes against the reference server: a test per check, skips with their reason, observations logged', async () => {
    const { code, output } = await runExample({});
    // 9 checks (7 passed, 2 skipped), then the 18 response rules (auth-required judges nothing here: no /v1 request goes without a key).
    expect(output, output).toMatch(/Tests\s+24 passed \| 3 skipped \(27\)/);
    expect(code).toBe(0);
    expect(output).toMatch(/✓ .*response-rules > request-id: X-Request-ID on every response/);
    expect(output).toMatch(/✓ .*DECIDE-PROBABILITY-RANGE: Every choice probability/);
    // Left out by `skip` at registration, and skipped at run time for want of a second key.
    expect(output).toMatch(/↓ .*DECIDE-CHOICE-MARGIN/);
    expect(output).toMatch(/↓ .*ISOLATION-GET-FORBIDDEN.*needs a key of a second project/);
    expect(output).toMatch(/DECIDE-OBSERVE-MODEL-FIELD \(OBSERVE\) observed: status \d{3}/);
  });

  test('fails on the check a broken server breaks, with expected-vs-observed and curl lines', async () => {
    const { code, output } = await runExample({ DECISION_EXAMPLE_BROKEN: 'probability-range' });
    // The check, and the three response rules probabilities of 1.5 break on every decide any check sent.
    expect(output, output).toMatch(/Tests\s+4 failed \| 20 passed \| 3 skipped \(27\)/);
    expect(output).toMatch(/× .*response-rules > probability-range/);
    expect(output).toMatch(/× .*response-rules > choice-margin/);
    expect(code).toBe(1);
    expect(output).toMatch(/× .*DECIDE-PROBABILITY-RANGE/);
    expect(output).toMatch(/DECIDE-PROBABILITY-RANGE \(MUST\): Expected .* a number in \[0, 1\]; observed 1\.5\./);
    expect(output).toMatch(/Reproduce:\n {2}curl -sS -i -X POST '[^']+\/v1\/decide' -H "Authorization: Bearer \$DECISION_API_KEY"/);
    expect(output).toMatch(/✓ .*DECIDE-CHOICE-ANSWER-TYPE/);
  });

  test('fails every check it was to run when the server cannot be reached, saying why', async () => {
    const { code, output } = await runExample({ DECISION_EXAMPLE_BROKEN: 'unreachable' });
    expect(output, output).toMatch(/Tests\s+26 failed \| 1 skipped \(27\)/);
    expect(code).toBe(1);
    expect(output).toMatch(/Error: the run could not start: .*127\.0\.0\.1:9/);
  });
});
