// What the load tests share: the k6 they must use (never a silent skip), the embedded
// reference server as the target, and the schema every load result must satisfy.
import { accessSync, constants, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LoadRun } from '../../reports/load-run.ts';

/** K6_BIN, else the prebuilt k6 beside the repository (../shared/tools/k6/k6). */
export function k6ForTests(): string {
  const path = process.env.K6_BIN ?? fileURLToPath(new URL('../../../shared/tools/k6/k6', import.meta.url));
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`k6 is needed by the load tests and was not found at ${path}: set K6_BIN to a k6 binary (https://grafana.com/docs/k6/latest/set-up/install-k6/)`);
  }
  return path;
}

const schema = JSON.parse(readFileSync(new URL('../../reports/results.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
ajv.addSchema(schema);
const validateRun = ajv.getSchema(`${schema.$id as string}#/$defs/load_run`)!;

/** Schema errors of a load run (empty when it is valid). */
export function loadRunErrors(run: LoadRun): unknown[] {
  return validateRun(run) ? [] : [...(validateRun.errors ?? [])];
}

export const settingsFor = (baseUrl: string, apiKey: string, settings: Record<string, string> = {}) => ({ BASE_URL: baseUrl, API_KEY: apiKey, ...settings });
