// The proof of PROP-ASSET-LIFECYCLE-CONCURRENT: it passes against the reference server in both
// profiles with requests really in flight together, and it fails against servers that are right
// one request at a time and wrong under overlap (harness/testing/overlap-bugs.ts), with a shrunk
// sequence of groups, the order their answers were given, and a seed that fails again when
// replayed. PROP-ASSET-LIFECYCLE, one request at a time, passes against the same servers: that
// is why the concurrent form exists.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { ALL_CAPABILITIES, type CheckResult } from '../../harness/check.ts';
import { runCheck } from '../../harness/runner.ts';
import { startMutatingProxy } from '../../harness/testing/mutating-proxy.ts';
import { overlapBugs, POOL_SIZE, type OverlapBug } from '../../harness/testing/overlap-bugs.ts';
import { assetModelChecks, DEFAULT_SEQUENCES_TOGETHER, MAX_GROUPS } from '../asset-model.ts';
import { MAX_TOGETHER } from '../asset-model/together.ts';

const concurrent = assetModelChecks.find((c) => c.id === 'PROP-ASSET-LIFECYCLE-CONCURRENT')!;
const sequential = assetModelChecks.find((c) => c.id === 'PROP-ASSET-LIFECYCLE')!;

interface RunOptions {
  seed?: number;
  numRuns?: number;
  check?: typeof concurrent;
}

function runLifecycle(target: EmbeddedTarget, baseUrl: string, options: RunOptions = {}): Promise<CheckResult> {
  return runCheck(options.check ?? concurrent, {
    target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: true },
    keyA: target.keyA,
    keyB: target.keyB,
    timeoutMs: 10_000,
    checkTimeoutMs: 180_000,
    seed: options.seed ?? 1,
    ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
  });
}

async function behind(target: EmbeddedTarget, bug: OverlapBug, options: RunOptions = {}): Promise<CheckResult> {
  const proxy = await startMutatingProxy(target.baseUrl, bug.mutation(target));
  try {
    return await runLifecycle(target, proxy.baseUrl, options);
  } finally {
    await proxy.close();
  }
}

const explain = (result: CheckResult) => `${result.message ?? ''}\n${result.notes.join('\n')}`;

/** "At most 4 requests were in flight together": the overlap the run achieved. */
function maxInFlight(result: CheckResult): number {
  const found = result.notes.map((note) => /At most (\d+) requests were in flight together/.exec(note)).find(Boolean);
  if (!found) throw new Error(`no overlap figure in the notes:\n${explain(result)}`);
  return Number(found[1]);
}

const SEQUENCE_NOTE = /^Shortest failing sequence \((\d+) groups?, shrunk (\d+) times\): (.*)$/;

function shrunkSequence(result: CheckResult): string[] {
  const note = result.notes.map((line) => SEQUENCE_NOTE.exec(line)).find(Boolean);
  if (!note) throw new Error(`no shrunk sequence in the notes:\n${explain(result)}`);
  return note[3]!.split('; ').reduce<string[]>((groups, part) => {
    // "; answered 2, 1)" belongs to the group before it.
    if (part.startsWith('answered ')) groups[groups.length - 1] += `; ${part}`;
    else groups.push(part);
    return groups;
  }, []);
}

/** The seed the failure reports, to replay it. */
function reportedSeed(result: CheckResult): number {
  const seed = /^Replay: fast-check seed (\d+), path "[\d:]+"/.exec(result.notes.find((note) => note.startsWith('Replay:')) ?? '')?.[1];
  if (seed === undefined) throw new Error(`no replay line in the notes:\n${explain(result)}`);
  return Number(seed);
}

/** A failure's evidence: seed and path, the groups with their answer order, the failing group's curl lines run together. */
function expectReportedFailure(result: CheckResult): void {
  expect(result.status, explain(result)).toBe('fail');
  expect(result.message).toMatch(/seed \d+, path "[\d:]+"/);
  expect(result.message).toContain('shortest failing sequence [');
  // The failing group's curl lines, each in the background, then wait: the requests overlap again.
  const reproduction = /reproduce with \(\n([\s\S]*?)\nwait\)\)/.exec(result.message ?? '')?.[1];
  expect(reproduction, result.message).toBeDefined();
  const lines = reproduction!.split('\n');
  expect(lines.length).toBeGreaterThanOrEqual(2);
  for (const line of lines) expect(line).toMatch(/^curl -sS -i -X (GET|POST|DELETE) '[^']+'.* &( {2}# body: .*)?$/);
  // A shell reads it as the requests in the background and one wait (bash -n: parsed, not run).
  expect(() => execFileSync('bash', ['-n', '-c', `${reproduction}\nwait`])).not.toThrow();
  expect(result.notes.some((note) => note.includes("sent once more together as this check's last exchanges: (\ncurl "))).toBe(true);
  expect(maxInFlight(result)).toBeGreaterThanOrEqual(2);
}

const GROUP = /^Together\((.*); answered ([\d, ]+)\)$/;

describe('PROP-ASSET-LIFECYCLE-CONCURRENT', () => {
  let target: EmbeddedTarget;
  let alternate: EmbeddedTarget;

  beforeAll(async () => {
    [target, alternate] = await Promise.all([startEmbeddedTarget(), startEmbeddedTarget({ profile: 'alternate' })]);
  });
  afterAll(async () => Promise.all([target?.stop(), alternate?.stop()]));

  for (const profile of ['default', 'alternate'] as const) {
    test(`passes against the reference server (${profile} profile) in its default budget, with requests in flight together`, { timeout: 90_000 }, async () => {
      const server = profile === 'default' ? target : alternate;
      const result = await runLifecycle(server, server.baseUrl);
      expect(result.status, explain(result)).toBe('pass');
      const summary = result.notes.find((note) => note.includes('run together by projects'))!;
      expect(
        summary.startsWith(
          `${DEFAULT_SEQUENCES_TOGETHER} sequences of up to ${MAX_GROUPS} groups of up to ${MAX_TOGETHER} commands run together by projects A, B (seed 1)`,
        ),
      ).toBe(true);
      for (const name of ['Together', 'Upload', 'Get', 'Delete', 'ReferenceInDecide', 'GetUnknown']) expect(summary).toMatch(new RegExp(`${name} [1-9]`));
      expect(maxInFlight(result)).toBe(MAX_TOGETHER);
      // Races with a deletion were met, and judged by what either order allows.
      expect(result.notes.join('\n')).toMatch(/by the owner of a concurrently deleted asset [1-9]/);
    });
  }

  test('finds the upload id race: two uploads sent together get one id', { timeout: 120_000 }, async () => {
    const result = await behind(target, overlapBugs.uploadIdRace);
    expectReportedFailure(result);
    expect(result.message).toMatch(/a new asset id for project [AB]'s upload/);
    const groups = shrunkSequence(result);
    expect(groups).toHaveLength(1);
    const [, members] = GROUP.exec(groups[0]!)!;
    expect(members!.split(', ').filter((member) => member.startsWith('Upload('))).toHaveLength(2);
  });

  test("finds the project kept in shared state: a request sent together with the other project's runs as that project", { timeout: 120_000 }, async () => {
    const result = await behind(target, overlapBugs.projectInSharedState);
    expectReportedFailure(result);
    const groups = shrunkSequence(result);
    expect(groups.length).toBeLessThanOrEqual(3);
    // The failing group has requests of both projects in flight together.
    const [, members] = GROUP.exec(groups.at(-1)!)!;
    expect(members).toMatch(/\bA\b/);
    expect(members).toMatch(/\bB\b/);
  });

  test('finds errors only under overlap: the fourth decide in flight together gets a 5xx', { timeout: 120_000 }, async () => {
    const result = await behind(target, overlapBugs.errorsUnderOverlap);
    expectReportedFailure(result);
    expect(result.message).toMatch(/observed status 503/);
    const [, members] = GROUP.exec(shrunkSequence(result).at(-1)!)!;
    expect(members!.split(', ').filter((member) => member.startsWith('ReferenceInDecide('))).toHaveLength(POOL_SIZE + 1);
  });

  test('replaying with the reported seed fails again with the same shrunk sequence', { timeout: 180_000 }, async () => {
    for (const bug of [overlapBugs.uploadIdRace, overlapBugs.projectInSharedState]) {
      const first = await behind(target, bug, { seed: 20_261_126 });
      const again = await behind(target, bug, { seed: reportedSeed(first) });
      expect(again.status, explain(again)).toBe('fail');
      expect(shrunkSequence(again)).toEqual(shrunkSequence(first));
      expect(again.notes.find((note) => note.startsWith('Replay:'))).toBe(first.notes.find((note) => note.startsWith('Replay:')));
    }
  });

  test('PROP-ASSET-LIFECYCLE, one request at a time, sees none of these bugs', { timeout: 150_000 }, async () => {
    for (const bug of [overlapBugs.uploadIdRace, overlapBugs.projectInSharedState, overlapBugs.errorsUnderOverlap]) {
      const result = await behind(target, bug, { check: sequential, numRuns: 50 });
      expect(result.status, `${bug.fault}: ${explain(result)}`).toBe('pass');
    }
  });
});
