// Opens report.html in headless Chromium, offline: the page must render (a real screenshot,
// styled) and its inline script must run to the end under the page's own CSP.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../html.ts';
import { dumpDom, screenshot } from './chromium.ts';
import { decodePng } from './png.ts';
import { sampleLoadReport } from './sample-load.ts';
import { HOSTILE, SECRETS, sampleRunReport } from './sample-run.ts';

const WIDTH = 1280;
const HEIGHT = 2000;

describe('report.html in headless Chromium', () => {
  const report = sampleRunReport();
  let dir: string;
  let dom: string;
  let png: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-render-'));
    const htmlPath = join(dir, 'report.html');
    await writeFile(htmlPath, renderHtml(report), 'utf8');
    // One at a time: the machine has two cores and other suites run beside this one.
    await screenshot(htmlPath, join(dir, 'report.png'), WIDTH, HEIGHT);
    png = await readFile(join(dir, 'report.png'));
    dom = await dumpDom(htmlPath);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('produces a full-size, non-trivial screenshot with the failing verdict drawn in red', () => {
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
    expect(png.length).toBeGreaterThan(50_000);
    // The banner's top border takes the verdict's colour (#cf222e for a failed run): the stylesheet applied.
    expect(image.pixel(WIDTH / 2, 2)).toEqual([0xcf, 0x22, 0x2e]);
    const colours = new Set<string>();
    for (let y = 0; y < image.height; y += 4) for (let x = 0; x < image.width; x += 4) colours.add(image.pixel(x, y).join());
    // Text, tables, cards and bars: a blank or unstyled page has a handful of colours.
    expect(colours.size).toBeGreaterThan(200);
  });

  it('runs its inline script to the end, adding a Copy button to every curl block', () => {
    expect(dom).toMatch(/<body data-script="ready">/);
    const curlBlocks = dom.match(/<pre class="curl">/g)?.length ?? 0;
    expect(curlBlocks).toBeGreaterThan(0);
    expect(dom.match(/<button type="button" class="copy"/g)).toHaveLength(curlBlocks);
  });

  it('shows the summary counts in the rendered DOM', () => {
    const count = (field: string) => new RegExp(`data-summary="${field}"><div class="label">[^<]+</div><div class="count">(\\d+)</div>`).exec(dom)?.[1];
    const { summary } = report;
    expect(count('must_failed')).toBe(String(summary.must_failed));
    expect(count('should_failed')).toBe(String(summary.fail - summary.must_failed));
    expect(count('pass')).toBe(String(summary.pass));
    expect(count('observed')).toBe(String(summary.observed));
    expect(count('skip')).toBe(String(summary.skip));
    expect(count('total')).toBe(String(summary.total));
  });

  it('keeps hostile strings as text in the parsed page, and no key', () => {
    expect(dom).not.toContain(HOSTILE);
    expect(dom).toContain('&lt;/script&gt;&lt;b&gt;&amp;"\'');
    for (const secret of SECRETS) expect(dom).not.toContain(secret);
  });
});

describe('report.html of a load run in headless Chromium', () => {
  let dir: string;
  let dom: string;
  let png: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'load-report-render-'));
    const htmlPath = join(dir, 'report.html');
    await writeFile(htmlPath, renderHtml(sampleLoadReport()), 'utf8');
    await screenshot(htmlPath, join(dir, 'report.png'), WIDTH, HEIGHT);
    png = await readFile(join(dir, 'report.png'));
    dom = await dumpDom(htmlPath);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('draws the held verdict in green, with its chart and tables', () => {
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
    // The banner's top border takes the verdict's colour: #1a7f37 when every threshold held.
    expect(image.pixel(WIDTH / 2, 2)).toEqual([0x1a, 0x7f, 0x37]);
    expect(dom).toMatch(/<svg [^>]*data-scale="linear"/);
  });

  it('has the load verdict as its headline and no conformance section in the rendered page', () => {
    expect(/<h1 id="verdict">([^<]*)<\/h1>/.exec(dom)?.[1]).toMatch(/^Load decide-steady: every threshold held in 2 runs/);
    expect(dom).toMatch(/<body data-script="ready">/);
    expect([...dom.matchAll(/<section id="([^"]+)"/g)].map((match) => match[1])).toEqual(['runs', 'checks', 'latency']);
    expect(dom).not.toContain('data-summary=');
  });
});
