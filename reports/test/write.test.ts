import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../harness/assets-support.ts';
import { bodyFileName, COMPRESSED_BODY_BYTES } from '../../harness/http.ts';
import { renderHtml } from '../html.ts';
import { renderJson } from '../json.ts';
import { renderJunit } from '../junit.ts';
import { renderMarkdown } from '../markdown.ts';
import { defaultReportDir, writeReports } from '../write.ts';
import { sampleRunReport } from './sample-run.ts';

describe('writeReports', () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const dir of created) await rm(dir, { recursive: true, force: true });
  });

  it('creates the directory and writes the four reports, returning their paths', async () => {
    const base = await mkdtemp(join(tmpdir(), 'reports-write-'));
    created.push(base);
    const dir = join(base, 'nested', 'run');
    const report = sampleRunReport();
    const paths = await writeReports(report, dir);
    expect(paths).toEqual({
      json: join(dir, 'results.json'),
      junit: join(dir, 'junit.xml'),
      html: join(dir, 'report.html'),
      markdown: join(dir, 'summary.md'),
      bodies: join(dir, 'bodies'),
    });
    expect(await readFile(paths.json, 'utf8')).toBe(renderJson(report));
    expect(await readFile(paths.junit, 'utf8')).toBe(renderJunit(report));
    expect(await readFile(paths.html, 'utf8')).toBe(renderHtml(report));
    expect(await readFile(paths.markdown, 'utf8')).toBe(renderMarkdown(report));
    // No body was kept, so no bodies folder.
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md']);
  });

  it('writes each kept request body as bodies/<sha256>.bin, where the reproduce lines expect it, and from 1 MiB gzip-compressed as .bin.gz', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reports-write-'));
    created.push(dir);
    const small = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const large = new Uint8Array(COMPRESSED_BODY_BYTES).fill(0x61);
    const nameOf = (bytes: Uint8Array) => bodyFileName(sha256Hex(bytes), bytes.byteLength);
    expect(nameOf(small)).toMatch(/^[0-9a-f]{64}\.bin$/);
    expect(nameOf(large)).toMatch(/^[0-9a-f]{64}\.bin\.gz$/);
    const paths = await writeReports(
      sampleRunReport(),
      dir,
      new Map([
        [nameOf(small), small],
        [nameOf(large), large],
      ]),
    );
    expect((await readdir(paths.bodies)).sort()).toEqual([nameOf(small), nameOf(large)].sort());
    expect(new Uint8Array(await readFile(join(paths.bodies, nameOf(small))))).toEqual(small);
    const compressed = await readFile(join(paths.bodies, nameOf(large)));
    expect(compressed.length).toBeLessThan(large.length / 100);
    // By digest: a deep equality of a 1 MiB array walks it element by element (2.5 s of this test).
    expect(sha256Hex(gunzipSync(compressed))).toBe(sha256Hex(large));
  });
});

describe('defaultReportDir', () => {
  it('is reports/out/<UTC timestamp> under the working directory, without characters Windows refuses', () => {
    const workingDir = join(tmpdir(), 'a-project');
    expect(defaultReportDir(new Date('2025-11-22T11:04:05.678Z'), workingDir)).toBe(join(workingDir, 'reports', 'out', '2025-11-22T11-04-05Z'));
  });

  it('defaults to the current directory (cli/test/cli.test.ts runs the command from another one)', () => {
    expect(defaultReportDir(new Date('2025-11-22T11:04:05.678Z'))).toBe(join(process.cwd(), 'reports', 'out', '2025-11-22T11-04-05Z'));
  });
});
