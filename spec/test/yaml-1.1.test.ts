// The spec must read the same in every ecosystem. `yaml` (the kit's loader) is YAML 1.2; PyYAML,
// SnakeYAML (openapi-generator) and the tools built on them are YAML 1.1, which rejects some
// plain scalars 1.2 accepts (a `?` inside a flow mapping) and reads others differently (`yes`,
// `on`, `1:20`, unquoted dates, `=`). Each published YAML file is parsed by `yaml` and by a YAML
// 1.1 loader, and the two documents are compared whole.
//
// yaml-js (a port of PyYAML's pure-Python loader) always runs, so `npm test` needs no Python;
// PyYAML itself runs too where `python3 -c 'import yaml'` works (CI installs python3-yaml).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { load as loadWithYamlJs } from 'yaml-js';
import { specPath } from '../index.ts';

// The spec as written and its generated contract form (npm run spec:json).
const publishedYamlFiles = [specPath, fileURLToPath(new URL('../openapi.contract.yaml', import.meta.url))];

// The construct PyYAML's pure-Python loader rejected in the spec (seed 2.3 noul example).
const QUESTION_MARK_IN_FLOW_MAPPING = 'example: { type: noul, instructions: Does the customer ask for a refund? }\n';

// Plain scalars that YAML 1.1 resolves to another value than YAML 1.2's core schema does.
const YAML_11_GOTCHAS = 'answers: [yes, no, on, off]\nduration: 1:20\ncreated: 2026-11-22\n';

const pyYamlAvailable = spawnSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' }).status === 0;

// PyYAML to JSON on stdout. Loader by name: the pure-Python SafeLoader is the strict one; the
// libyaml CSafeLoader happens to accept `?` in flow mappings. Values JSON cannot carry (dates,
// infinities) are written as a marker object so the comparison shows them instead of crashing.
const PYYAML_TO_JSON = `
import json, sys, yaml
loader = getattr(yaml, sys.argv[1])
document = yaml.load(sys.stdin.read(), Loader=loader)
json.dump(document, sys.stdout, allow_nan=False, default=lambda value: {"yaml-1.1-value": type(value).__name__, "text": str(value)})
`;

/** yaml-js throws errors whose message is empty and whose text is in toString(). */
function loadYaml11(text: string): unknown {
  try {
    return loadWithYamlJs(text);
  } catch (error) {
    throw new Error(`yaml-js rejected the document: ${String(error)}`);
  }
}

function loadWithPyYaml(text: string, loader: 'SafeLoader' | 'CSafeLoader'): unknown {
  const run = spawnSync('python3', ['-c', PYYAML_TO_JSON, loader], { input: text, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`PyYAML ${loader} rejected the document: ${run.stderr.slice(run.stderr.search(/^yaml\.\w+/m)).trim()}`);
  return JSON.parse(run.stdout);
}

describe('a YAML 1.1 loader (yaml-js, a port of PyYAML) reads each published YAML file as the YAML 1.2 loader does', () => {
  test.each(publishedYamlFiles)('%s', (path) => {
    const text = readFileSync(path, 'utf8');
    expect(loadYaml11(text)).toStrictEqual(parse(text));
  });

  test('yaml-js rejects a plain scalar ending in `?` inside a flow mapping, which YAML 1.2 accepts', () => {
    expect(parse(QUESTION_MARK_IN_FLOW_MAPPING)).toEqual({ example: { type: 'noul', instructions: 'Does the customer ask for a refund?' } });
    expect(() => loadYaml11(QUESTION_MARK_IN_FLOW_MAPPING)).toThrow(/while parsing a flow mapping/);
  });

  test('yaml-js resolves yes/no/on/off, sexagesimal numbers and dates as YAML 1.1 does, so the whole-document comparison sees them', () => {
    expect(parse(YAML_11_GOTCHAS)).toEqual({ answers: ['yes', 'no', 'on', 'off'], duration: '1:20', created: '2026-11-22' });
    const read = loadYaml11(YAML_11_GOTCHAS) as Record<string, unknown>;
    expect(read.answers).toEqual([true, false, true, false]);
    expect(read.duration).toBe(80);
    expect(read.created).toBeInstanceOf(Date);
    expect(read).not.toStrictEqual(parse(YAML_11_GOTCHAS));
  });

  test('yaml-js refuses the YAML 1.1 value key `=` as a plain scalar, as SafeLoader does', () => {
    expect(parse('key: =\n')).toEqual({ key: '=' });
    expect(() => loadYaml11('key: =\n')).toThrow(/tag:yaml.org,2002:value/);
  });
});

describe.skipIf(!pyYamlAvailable)('PyYAML (python3-yaml) reads each published YAML file as the YAML 1.2 loader does', () => {
  test.each(publishedYamlFiles)('%s with the pure-Python SafeLoader and the libyaml CSafeLoader', (path) => {
    const text = readFileSync(path, 'utf8');
    expect(loadWithPyYaml(text, 'SafeLoader')).toStrictEqual(parse(text));
    expect(loadWithPyYaml(text, 'CSafeLoader')).toStrictEqual(parse(text));
  });

  test('PyYAML SafeLoader rejects the `?` construct and reads the YAML 1.1 gotchas differently, as yaml-js does', () => {
    expect(() => loadWithPyYaml(QUESTION_MARK_IN_FLOW_MAPPING, 'SafeLoader')).toThrow(/flow mapping/);
    expect(loadWithPyYaml(YAML_11_GOTCHAS, 'SafeLoader')).toEqual({
      answers: [true, false, true, false],
      duration: 80,
      created: { 'yaml-1.1-value': 'date', text: '2026-11-22' },
    });
  });
});
