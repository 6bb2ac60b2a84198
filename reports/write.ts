// Writes the four reports of a run into one directory, with the request bodies its reproduce
// lines send (bodies/<sha256>.bin, or .bin.gz from 1 MiB: curl lines are run from the report directory).
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { BODY_FOLDER, COMPRESSED_SUFFIX, type BodyStore } from '../harness/http.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { RunReport } from './run-report.ts';

const gzipped = promisify(gzip);

export interface ReportPaths {
  json: string;
  junit: string;
  html: string;
  markdown: string;
}

/** The file names are part of the contract with CI configurations: change them only with a schema version bump. */
export const REPORT_FILES: Readonly<ReportPaths> = { json: 'results.json', junit: 'junit.xml', html: 'report.html', markdown: 'summary.md' };

export interface WrittenReports extends ReportPaths {
  /** The folder of request bodies that reproduce lines send (bodies/<sha256>.bin or .bin.gz), from the report directory. */
  bodies: string;
}

/** Writes each kept body once, where the reproduce lines expect it; compressed where its name says so. */
async function writeBodies(bodies: BodyStore, folder: string): Promise<void> {
  if (bodies.size === 0) return;
  await mkdir(folder, { recursive: true });
  for (const [name, bytes] of bodies) await writeFile(join(folder, name), name.endsWith(COMPRESSED_SUFFIX) ? await gzipped(bytes) : bytes);
}

export async function writeReports(report: RunReport, dir: string, bodies: BodyStore = new Map()): Promise<WrittenReports> {
  await mkdir(dir, { recursive: true });
  const paths: WrittenReports = {
    json: join(dir, REPORT_FILES.json),
    junit: join(dir, REPORT_FILES.junit),
    html: join(dir, REPORT_FILES.html),
    markdown: join(dir, REPORT_FILES.markdown),
    bodies: join(dir, BODY_FOLDER),
  };
  await writeBodies(bodies, paths.bodies);
  await Promise.all([
    writeFile(paths.json, renderJson(report), 'utf8'),
    writeFile(paths.junit, renderJunit(report), 'utf8'),
    writeFile(paths.html, renderHtml(report), 'utf8'),
    writeFile(paths.markdown, renderMarkdown(report), 'utf8'),
  ]);
  return paths;
}

/**
 * reports/out/<UTC timestamp>/ under the directory the command runs in, e.g. reports/out/2025-11-22T11-04-05Z/
 * (no colons: they are not allowed in Windows file names). Never inside the kit's own folder: installed as a
 * package, that is node_modules, where no CI step looks.
 */
export function defaultReportDir(now: Date, workingDir: string = process.cwd()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
  return resolve(workingDir, 'reports', 'out', stamp);
}
