// Proves the Spectral ruleset of the kit: the spec is clean, and every custom rule fires on a
// copy of the spec broken in exactly one way. Then the same through the real CLI, as
// `npm run lint:spec` runs it.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Spectral, type ISpectralDiagnostic, type Ruleset } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { contractDocument, openapiDocument, specPath } from '../index.ts';

const rulesetPath = fileURLToPath(new URL('../lint/ruleset.mjs', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const CLI_TIMEOUT_MS = 60_000;

// The parsed spec is plain JSON; mutations reach into it by the paths they break.
type Spec = Record<string, any>;

interface Mutation {
  rule: string;
  mutation: string;
  breakSpec: (spec: Spec) => void;
}

/** Each entry breaks exactly one thing in a fresh copy of the spec. */
const mutations: Mutation[] = [
  {
    rule: 'decision-snake-case-properties',
    mutation: 'Usage gains the camelCase property inputTokens',
    breakSpec: (spec) => {
      spec.components.schemas.Usage.properties.inputTokens = { type: 'integer', minimum: 0 };
    },
  },
  {
    rule: 'decision-v1-bearer-security',
    mutation: 'GET /v1/models makes the key optional with security: [{}]',
    breakSpec: (spec) => {
      spec.paths['/v1/models'].get.security = [{}];
    },
  },
  {
    rule: 'decision-v1-bearer-security',
    mutation: 'the bearer scheme loses its x-key-prefix, so no /v1 operation names a svc_live_ scheme',
    breakSpec: (spec) => {
      delete spec.components.securitySchemes.bearerAuth['x-key-prefix'];
    },
  },
  {
    rule: 'decision-public-endpoints-unauthenticated',
    mutation: 'GET /health drops `security: []` and inherits the bearer requirement',
    breakSpec: (spec) => {
      delete spec.paths['/health'].get.security;
    },
  },
  {
    rule: 'decision-request-id-header',
    mutation: 'the Unauthorized component response loses its X-Request-ID header',
    breakSpec: (spec) => {
      delete spec.components.responses.Unauthorized.headers['X-Request-ID'];
    },
  },
  {
    rule: 'decision-request-id-header',
    mutation: 'the 201 of POST /v1/assets declares X-Request-ID inline instead of referencing RequestId',
    breakSpec: (spec) => {
      spec.paths['/v1/assets'].post.responses['201'].headers['X-Request-ID'] = { schema: { type: 'string' } };
    },
  },
  {
    rule: 'decision-error-response-body',
    mutation: 'the 404 of POST /v1/feedback answers text/plain',
    breakSpec: (spec) => {
      const response = spec.paths['/v1/feedback'].post.responses['404'];
      response.content = { 'text/plain': { schema: { type: 'string' } } };
    },
  },
  {
    rule: 'decision-error-example-status',
    mutation: 'the ASSET_EXPIRED example carries ASSET_NOT_FOUND (404) under 410',
    breakSpec: (spec) => {
      spec.components.examples.ErrorAssetExpired.value.error.code = 'ASSET_NOT_FOUND';
    },
  },
  {
    rule: 'decision-error-example-status',
    mutation: 'the RATE_LIMITED example carries a code outside the ErrorCode enum',
    breakSpec: (spec) => {
      spec.components.examples.ErrorRateLimited.value.error.code = 'TOO_FAST';
    },
  },
  {
    rule: 'decision-error-example-status',
    mutation: 'the reference status of the name-only INTERNAL_ERROR becomes 503 while its examples sit under 500',
    breakSpec: (spec) => {
      openPointById(spec, 'name-only-statuses')['x-reference-choice'].statuses.INTERNAL_ERROR = 503;
    },
  },
  {
    rule: 'decision-error-code-table',
    mutation: 'x-codes loses CONFLICT, which the enum still lists',
    breakSpec: (spec) => {
      delete spec.components.schemas.ErrorCode['x-codes'].CONFLICT;
    },
  },
  {
    rule: 'decision-error-code-table',
    mutation: 'the name-only code OCR_FAILED loses its reference status',
    breakSpec: (spec) => {
      delete openPointById(spec, 'name-only-statuses')['x-reference-choice'].statuses.OCR_FAILED;
    },
  },
  {
    rule: 'decision-seed-section-present',
    mutation: 'the Health schema loses x-seed-section',
    breakSpec: (spec) => {
      delete spec.components.schemas.Health['x-seed-section'];
    },
  },
  {
    rule: 'decision-seed-section-present',
    mutation: 'the AssetIdPath parameter cites an empty x-seed-section',
    breakSpec: (spec) => {
      spec.components.parameters.AssetIdPath['x-seed-section'] = [];
    },
  },
  {
    rule: 'decision-seed-section-known',
    mutation: 'the Model schema cites seed section 2.66, which does not exist',
    breakSpec: (spec) => {
      spec.components.schemas.Model['x-seed-section'] = ['2.66'];
    },
  },
  {
    rule: 'decision-hard-rule-sections-cited',
    mutation: 'x-seed-sections gains a hard-rule section 10 that nothing cites',
    breakSpec: (spec) => {
      spec['x-seed-sections'].push({ id: '10', title: 'Uncited section', hard_rules: true });
    },
  },
  {
    rule: 'decision-closed-request-bodies',
    mutation: 'AnswerFeedback, a value of the feedback body answers map, no longer closes additionalProperties',
    breakSpec: (spec) => {
      delete spec.components.schemas.AnswerFeedback.additionalProperties;
    },
  },
  {
    rule: 'decision-json-schema-dialect',
    mutation: 'jsonSchemaDialect names draft-07',
    breakSpec: (spec) => {
      spec.jsonSchemaDialect = 'http://json-schema.org/draft-07/schema#';
    },
  },
  {
    rule: 'decision-schema-examples-valid',
    mutation: 'the DecideRequest schema example sends a numeric context (invalid through the Context $ref)',
    breakSpec: (spec) => {
      spec.components.schemas.DecideRequest.examples[0].context = 42;
    },
  },
  {
    rule: 'decision-discriminator-mapping',
    mutation: 'Question maps choice to NoulQuestion',
    breakSpec: (spec) => {
      spec.components.schemas.Question.discriminator.mapping.choice = '#/components/schemas/NoulQuestion';
    },
  },
  {
    rule: 'decision-discriminator-mapping',
    mutation: 'ContentPart gains a oneOf branch (TextContext) that the mapping does not list',
    breakSpec: (spec) => {
      spec.components.schemas.ContentPart.oneOf.push({ $ref: '#/components/schemas/TextContext' });
    },
  },
  {
    rule: 'decision-open-point-known',
    mutation: 'the Health schema points at an unknown open point',
    breakSpec: (spec) => {
      spec.components.schemas.Health['x-open-point'] = 'health-shape';
    },
  },
  {
    rule: 'decision-open-point-known',
    mutation: "the asset id parameter's invalid values name an unknown open point",
    breakSpec: (spec) => {
      spec.components.parameters.AssetIdPath['x-invalid-value'].open_point = 'asset-id-shape';
    },
  },
  {
    rule: 'decision-open-point-known',
    mutation: "the request id parameter's invalid values say neither never nor allowed",
    breakSpec: (spec) => {
      spec.components.parameters.RequestIdHeader['x-invalid-value'].success = 'sometimes';
    },
  },
  {
    rule: 'decision-open-point-complete',
    mutation: 'open point availability loses its reference summary',
    breakSpec: (spec) => {
      delete openPointById(spec, 'availability')['x-reference-choice'].summary;
    },
  },
  {
    rule: 'decision-open-point-complete',
    mutation: 'open point json-content-type loses its alternate choice',
    breakSpec: (spec) => {
      delete openPointById(spec, 'json-content-type')['x-alternate-choice'];
    },
  },
  {
    rule: 'decision-open-point-complete',
    mutation: 'open point invalid-caller-request-id loses its seed bounds',
    breakSpec: (spec) => {
      delete openPointById(spec, 'invalid-caller-request-id')['x-seed-bounds'];
    },
  },
  {
    rule: 'decision-bad-request-documented',
    mutation: 'GET /v1/models, which takes the X-Request-ID parameter, drops its 400',
    breakSpec: (spec) => {
      delete spec.paths['/v1/models'].get.responses['400'];
    },
  },
  {
    rule: 'decision-choice-answer-arithmetic',
    mutation: 'the confident choice example states confidence 0.5 instead of 0.74 - 0.14',
    breakSpec: (spec) => {
      spec.components.examples.DecideChoiceResponse.value.answers.topic.confidence = 0.5;
    },
  },
  {
    rule: 'decision-choice-answer-arithmetic',
    mutation: 'the abstained choice example names a choice',
    breakSpec: (spec) => {
      spec.components.examples.DecideAbstainResponse.value.answers.topic.choice = 'billing';
    },
  },
  {
    rule: 'decision-choice-answer-arithmetic',
    mutation: 'the ChoiceAnswer schema example picks shipping although billing is the most probable',
    breakSpec: (spec) => {
      spec.components.schemas.ChoiceAnswer.examples[0].choice = 'shipping';
    },
  },
  {
    rule: 'decision-seed-limits-in-schemas',
    mutation: 'the Questions object loses maxProperties (seed 8: at most 16 questions)',
    breakSpec: (spec) => {
      delete spec.components.schemas.Questions.maxProperties;
    },
  },
  {
    rule: 'decision-seed-limits-in-schemas',
    mutation: 'AssetId loses its pattern (seed 2.2)',
    breakSpec: (spec) => {
      delete spec.components.schemas.AssetId.pattern;
    },
  },
  {
    rule: 'decision-seed-limits-in-schemas',
    mutation: 'the text part allows 8,001 characters',
    breakSpec: (spec) => {
      spec.components.schemas.TextPart.properties.text.maxLength = 8001;
    },
  },
  {
    rule: 'decision-seed-limits-in-schemas',
    mutation: 'x-seed-limits no longer records where the limits apply',
    breakSpec: (spec) => {
      delete spec['x-seed-limits'].schema_keywords;
    },
  },
  {
    rule: 'decision-open-response-schemas',
    mutation: "the feedback record's answers close again (additionalProperties: false on RecordedAnswerFeedback)",
    breakSpec: (spec) => {
      spec.components.schemas.RecordedAnswerFeedback.additionalProperties = false;
    },
  },
  {
    rule: 'decision-open-response-schemas',
    mutation: 'Usage, reached from the decide response through two $refs, closes with unevaluatedProperties: false',
    breakSpec: (spec) => {
      spec.components.schemas.Usage.unevaluatedProperties = false;
    },
  },
  {
    rule: 'decision-open-response-schemas',
    mutation: 'the error object inside the Error body closes',
    breakSpec: (spec) => {
      spec.components.schemas.Error.properties.error.additionalProperties = false;
    },
  },
];

function openPointById(spec: Spec, id: string): Spec {
  const point = (spec['x-open-points'] as Spec[]).find((entry) => entry.id === id);
  if (!point) throw new Error(`The spec has no open point ${id}`);
  return point;
}

function brokenSpec(breakSpec: Mutation['breakSpec']): Spec {
  const spec = structuredClone(openapiDocument) as Spec;
  breakSpec(spec);
  return spec;
}

let spectral: Spectral;
let ruleset: Ruleset;
/**
 * The same ruleset with only the kit's own rules on: a mutation is judged by the rule it is for,
 * and spectral:oas's rules, run over the whole spec once per mutation, were most of this file's time.
 */
let customRulesOnly: Spectral;

beforeAll(async () => {
  ruleset = await bundleAndLoadRuleset(rulesetPath, { fs, fetch });
  spectral = new Spectral();
  spectral.setRuleset(ruleset);
  const ownRules = await bundleAndLoadRuleset(rulesetPath, { fs, fetch });
  for (const [name, rule] of Object.entries(ownRules.rules)) if (!name.startsWith('decision-')) rule.enabled = false;
  customRulesOnly = new Spectral();
  customRulesOnly.setRuleset(ownRules);
});

async function lintSpec(spec: Spec, linter: Spectral = spectral): Promise<ISpectralDiagnostic[]> {
  // Lint as if the copy sat next to the real spec; every $ref in it is local.
  const source = join(dirname(specPath), 'mutated-openapi.json');
  return linter.run(new Document(JSON.stringify(spec, null, 2), Parsers.Json, source));
}

function codesOf(results: readonly ISpectralDiagnostic[]): string[] {
  return [...new Set(results.map((result) => String(result.code)))];
}

const customRuleNames = (): string[] => Object.keys(ruleset.rules).filter((name) => name.startsWith('decision-'));

describe('the Spectral ruleset (spec/lint/ruleset.mjs)', () => {
  test('the spec as written gives no results at any severity', async () => {
    const text = await readFile(specPath, 'utf8');
    const results = await spectral.run(new Document(text, Parsers.Yaml, specPath));
    expect(results.map((r) => `${String(r.code)} ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });

  test('extends every spectral:oas rule, recommended or not', () => {
    const oasRules = Object.entries(ruleset.rules).filter(([name]) => !name.startsWith('decision-'));
    expect(oasRules.length).toBeGreaterThan(40);
    expect(oasRules.filter(([, rule]) => !rule.enabled).map(([name]) => name)).toEqual([]);
    // Not recommended, so only on with "all".
    expect(ruleset.rules['openapi-tags-alphabetical']?.enabled).toBe(true);
  });

  test('has at least ten custom rules, each an error with a description', () => {
    const names = customRuleNames();
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const name of names) {
      const rule = ruleset.rules[name];
      expect(rule?.severity, name).toBe(0); // DiagnosticSeverity.Error
      expect(rule?.description, name).toMatch(/\S/);
    }
  });

  test('every custom rule has at least one mutation that makes it fire', () => {
    const covered = new Set(mutations.map((entry) => entry.rule));
    expect(customRuleNames().filter((name) => !covered.has(name))).toEqual([]);
    expect([...covered].filter((name) => !customRuleNames().includes(name))).toEqual([]);
  });

  test.each(mutations)('$rule fires when $mutation', async ({ rule, breakSpec }) => {
    const results = await lintSpec(brokenSpec(breakSpec), customRulesOnly);
    expect(codesOf(results)).toContain(rule);
  });

  test('the contract form lints clean but for what relaxing the open points implies', async () => {
    const results = await lintSpec(structuredClone(contractDocument()) as Spec);
    expect(results.map((r) => `${String(r.code)} ${r.path.join('.')}`).sort()).toEqual([
      // The fields of a score question are open (score-question-fields): the relaxed schema cannot close.
      'decision-closed-request-bodies components.schemas.ScoreQuestion',
      // Only open-point schemas referenced these: the answer union (answer-shapes), the feedback
      // record (feedback-shape) and the models list (models-shape) accept anything in the contract.
      'oas3-unused-component components.schemas.AnswerFeedback',
      'oas3-unused-component components.schemas.ChoiceAnswer',
      'oas3-unused-component components.schemas.Model',
      'oas3-unused-component components.schemas.MultiAnswer',
      'oas3-unused-component components.schemas.NoulAnswer',
      'oas3-unused-component components.schemas.RecordedAnswerFeedback',
      'oas3-unused-component components.schemas.ScoreAnswer',
    ]);
  });

  test('spectral:oas alone does not check schema-level examples arrays, which is why decision-schema-examples-valid exists', async () => {
    const results = await lintSpec(
      brokenSpec((spec) => {
        spec.components.schemas.AssetId.examples = ['not-an-asset-id'];
      }),
    );
    expect(codesOf(results)).toEqual(['decision-schema-examples-valid']);
  });
});

describe('the Spectral CLI with this ruleset', () => {
  let workDir: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'decision-lint-'));
  });

  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  test(
    'passes the spec as written with --fail-severity hint',
    async () => {
      const run = await spectralCli(specPath, rulesetPath, join(workDir, 'clean.json'));
      expect(run.findings).toEqual([]);
      expect(run.exitCode).toBe(0);
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'fails a broken copy and names the rule',
    async () => {
      const brokenPath = join(workDir, 'broken-openapi.yaml');
      await writeFile(brokenPath, stringify(brokenSpec((spec) => void delete spec.paths['/health'].get.security)));
      const run = await spectralCli(brokenPath, rulesetPath, join(workDir, 'broken.json'));
      expect(run.exitCode).not.toBe(0);
      expect(run.findings.map((finding) => finding.code)).toContain('decision-public-endpoints-unauthenticated');
    },
    CLI_TIMEOUT_MS,
  );

  test(
    'fails on a finding of severity hint, as lint:spec is run',
    async () => {
      const script = (JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['lint:spec'];
      expect(script).toContain('--ruleset spec/lint/ruleset.mjs');
      expect(script).toContain('--fail-severity hint');
      // A ruleset that only lowers one of our rules to a hint.
      const hintRuleset = join(workDir, 'hint-ruleset.mjs');
      await writeFile(
        hintRuleset,
        `import decision from ${JSON.stringify(rulesetPath)};\nexport default { extends: [decision], rules: { 'decision-json-schema-dialect': 'hint' } };\n`,
      );
      const brokenPath = join(workDir, 'other-dialect.yaml');
      await writeFile(brokenPath, stringify(brokenSpec((spec) => void (spec.jsonSchemaDialect = 'https://example.org/dialect'))));
      const run = await spectralCli(brokenPath, hintRuleset, join(workDir, 'hint.json'));
      expect(run.findings.map((finding) => [finding.code, finding.severity])).toEqual([['decision-json-schema-dialect', 3]]); // 3 = hint
      expect(run.exitCode).not.toBe(0);
    },
    CLI_TIMEOUT_MS,
  );
});

interface CliRun {
  exitCode: number;
  findings: Array<{ code: string; severity: number }>;
}

/** Runs `npx spectral lint` as lint:spec does, writing JSON findings to `outputPath`. */
function spectralCli(documentPath: string, ruleset: string, outputPath: string): Promise<CliRun> {
  const args = ['spectral', 'lint', documentPath, '--ruleset', ruleset, '--fail-severity', 'hint', '--format', 'json', '--output', outputPath];
  return new Promise((resolve, reject) => {
    execFile('npx', args, { cwd: repoRoot, timeout: CLI_TIMEOUT_MS }, (error, _stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      readFile(outputPath, 'utf8').then(
        (text) => resolve({ exitCode, findings: JSON.parse(text) as CliRun['findings'] }),
        () => reject(new Error(`spectral wrote no output (exit ${exitCode}): ${stderr}`)),
      );
    });
  });
}
