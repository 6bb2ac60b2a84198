#!/usr/bin/env node
// The logic of the GitHub Action (action.yml at the repository root): runs the kit's `run`
// command with the action's inputs, appends summary.md to the job summary, writes the report
// paths and the exit status as step outputs, and turns a failed run into an error annotation.
// It reads only environment variables, as the action's step sets them, so tests run it as is:
//   DECISION_CONFORMANCE_KIT_DIR       the kit's folder (bin/decision-conformance.mjs inside)
//   DECISION_CONFORMANCE_BASE_URL      server under test; empty: the bundled reference server
//   DECISION_CONFORMANCE_SUITES, _CAPABILITIES, _ONLY, _SKIP   comma-separated, as the flags take them
//   DECISION_CONFORMANCE_WORKERS       --workers
//   DECISION_CONFORMANCE_REPORT_DIR    report folder, relative to the working directory
//   DECISION_CONFORMANCE_HEADERS       one "Name: value" a line, each a --header
//   DECISION_API_KEY, DECISION_API_KEY_B, DECISION_EXPIRY_API_KEY, DECISION_EXPIRY_TTL_SECONDS,
//   DECISION_SECRET_HEADERS            read by the kit itself, so that keys and secret headers are never arguments
//   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT files the runner collects (missing: nothing is written)
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The kit's own environment variables that carry secrets. */
const KEY_VARIABLES = ['DECISION_API_KEY', 'DECISION_API_KEY_B', 'DECISION_EXPIRY_API_KEY'];

/** Inputs left empty in the action arrive as empty strings; the kit must see them as absent. */
const KIT_VARIABLES = [...KEY_VARIABLES, 'DECISION_EXPIRY_TTL_SECONDS', 'DECISION_SECRET_HEADERS'];

/** Input variable → the `run` flag it becomes when not empty. */
const FLAG_OF = {
  DECISION_CONFORMANCE_BASE_URL: '--base-url',
  DECISION_CONFORMANCE_SUITES: '--suite',
  DECISION_CONFORMANCE_CAPABILITIES: '--capabilities',
  DECISION_CONFORMANCE_ONLY: '--only',
  DECISION_CONFORMANCE_SKIP: '--skip',
  DECISION_CONFORMANCE_WORKERS: '--workers',
};

/**
 * Escapes a workflow command's message: a line break would end the command early.
 * @param {string} text
 */
const commandMessage = (text) => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/**
 * The `run` arguments for these inputs (keys are not among them).
 * @param {NodeJS.ProcessEnv} env
 * @param {string} reportDir
 */
function runArguments(env, reportDir) {
  const args = ['run', '--report-dir', reportDir];
  for (const [variable, flag] of Object.entries(FLAG_OF)) {
    const value = env[variable]?.trim();
    if (value) args.push(flag, value);
  }
  for (const line of (env.DECISION_CONFORMANCE_HEADERS ?? '').split(/\r?\n/)) if (line.trim()) args.push('--header', line.trim());
  return args;
}

/**
 * The kit's environment: empty kit variables removed.
 * @param {NodeJS.ProcessEnv} env
 */
function kitEnvironment(env) {
  const kitEnv = { ...env };
  for (const name of KIT_VARIABLES) if (!kitEnv[name]?.trim()) delete kitEnv[name];
  return kitEnv;
}

/**
 * Runs the kit with stdout passed through and stderr passed through and kept, for the annotation.
 * @param {string} kitDir
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number, stderr: string }>}
 */
function runKit(kitDir, args, env) {
  const child = spawn(process.execPath, [join(kitDir, 'bin', 'decision-conformance.mjs'), ...args], { env, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  return new Promise((done) => {
    child.on('error', (error) => done({ code: 2, stderr: `${stderr}could not start the kit: ${error.message}\n` }));
    child.on('close', (code, signal) => done({ code: code ?? (signal ? 2 : 0), stderr }));
  });
}

/**
 * The ids of the MUST checks that failed and of the MUST response rules broken, from results.json
 * (none when it is missing).
 * @param {string} reportDir
 * @returns {{ checks: string[], rules: string[] }}
 */
function failedMustChecks(reportDir) {
  const path = join(reportDir, 'results.json');
  if (!existsSync(path)) return { checks: [], rules: [] };
  /** @type {{ checks: Array<{ id: string, area: string, level: string, status: string }> }} */
  const results = JSON.parse(readFileSync(path, 'utf8'));
  const failed = results.checks.filter((check) => check.level === 'MUST' && check.status === 'fail');
  // Response rules (area response-rules) are entries of their own: named apart from the checks.
  return {
    checks: failed.filter((check) => check.area !== 'response-rules').map((check) => check.id),
    rules: failed.filter((check) => check.area === 'response-rules').map((check) => check.id),
  };
}

/**
 * The annotation for a failed run: the failed MUST checks, or the kit's own reason (its last stderr line).
 * @param {number} code
 * @param {string} stderr
 * @param {string} reportDir
 */
function errorAnnotation(code, stderr, reportDir) {
  if (code === 1) {
    const { checks, rules } = failedMustChecks(reportDir);
    const what = [
      ...(checks.length > 0 ? [`${checks.length} MUST check(s) failed: ${checks.join(', ')}.`] : []),
      ...(rules.length > 0 ? [`${rules.length} MUST response rule(s) broken: ${rules.join(', ')}.`] : []),
    ].join(' ');
    return `::error title=Conformance::${commandMessage(`${what} See the job summary and ${join(reportDir, 'report.html')}.`)}`;
  }
  const reason = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('See "'))
    .at(-1);
  return `::error title=Conformance run did not start::${commandMessage(reason ?? `the kit exited with status ${code}`)}`;
}

/**
 * Appends `name=value` lines to the step's output file.
 * @param {string | undefined} outputFile
 * @param {Record<string, string>} outputs
 */
function writeOutputs(outputFile, outputs) {
  if (!outputFile) return;
  appendFileSync(
    outputFile,
    Object.entries(outputs)
      .map(([name, value]) => `${name}=${value}\n`)
      .join(''),
  );
}

/** @param {NodeJS.ProcessEnv} env */
async function main(env) {
  // Masked before the kit starts: the runner then hides each key wherever it would appear in the log.
  for (const name of KEY_VARIABLES) {
    const key = env[name]?.trim();
    if (key) process.stdout.write(`::add-mask::${key}\n`);
  }
  // A secret header's value, masked the same way (its name is no secret).
  for (const line of (env.DECISION_SECRET_HEADERS ?? '').split(/\r?\n/)) {
    const value = line.slice(line.indexOf(':') + 1).trim();
    if (line.includes(':') && value) process.stdout.write(`::add-mask::${value}\n`);
  }
  const kitDir = resolve(env.DECISION_CONFORMANCE_KIT_DIR || join(import.meta.dirname, '..'));
  const reportDir = resolve(env.DECISION_CONFORMANCE_REPORT_DIR?.trim() || 'conformance-report');
  const { code, stderr } = await runKit(kitDir, runArguments(env, reportDir), kitEnvironment(env));

  const summary = join(reportDir, 'summary.md');
  if (env.GITHUB_STEP_SUMMARY && existsSync(summary)) appendFileSync(env.GITHUB_STEP_SUMMARY, `${readFileSync(summary, 'utf8')}\n`);
  const report = (/** @type {string} */ name) => (existsSync(join(reportDir, name)) ? join(reportDir, name) : '');
  writeOutputs(env.GITHUB_OUTPUT, { 'report-dir': reportDir, junit: report('junit.xml'), html: report('report.html'), 'exit-code': String(code) });
  if (code !== 0) process.stdout.write(`${errorAnnotation(code, stderr, reportDir)}\n`);
  return code;
}

process.exitCode = await main(process.env);
