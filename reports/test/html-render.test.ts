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

/** Writes a page, screenshots it and dumps its DOM after its script ran; the folder is removed after the tests. */
function rendered(page: () => string): { dom: string; png: Buffer } {
  const result = { dom: '', png: Buffer.alloc(0) };
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-render-'));
    const htmlPath = join(dir, 'report.html');
    await writeFile(htmlPath, page(), 'utf8');
    // One at a time: the machine has two cores and other suites run beside this one.
    await screenshot(htmlPath, join(dir, 'report.png'), WIDTH, HEIGHT);
    result.png = await readFile(join(dir, 'report.png'));
    result.dom = await dumpDom(htmlPath);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return result;
}

describe('report.html in headless Chromium', () => {
  const report = sampleRunReport();
  const page = rendered(() => renderHtml(report));

  it('produces a full-size, non-trivial screenshot with the failing verdict drawn in red', () => {
    const image = decodePng(page.png);
    expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
    expect(page.png.length).toBeGreaterThan(50_000);
    // The banner's top border takes the verdict's colour (#cf222e for a failed run): the stylesheet applied.
    expect(image.pixel(WIDTH / 2, 2)).toEqual([0xcf, 0x22, 0x2e]);
    const colours = new Set<string>();
    for (let y = 0; y < image.height; y += 4) for (let x = 0; x < image.width; x += 4) colours.add(image.pixel(x, y).join());
    // Text, tables, cards and bars: a blank or unstyled page has a handful of colours.
    expect(colours.size).toBeGreaterThan(200);
  });

  it('runs its inline script to the end, adding a Copy button to every curl block', () => {
    expect(page.dom).toMatch(/<body data-script="ready">/);
    const curlBlocks = page.dom.match(/<pre class="curl">/g)?.length ?? 0;
    expect(curlBlocks).toBeGreaterThan(0);
    expect(page.dom.match(/<button type="button" class="copy"/g)).toHaveLength(curlBlocks);
  });

  it('shows the summary counts in the rendered DOM', () => {
    const count = (field: string) => new RegExp(`data-summary="${field}"><div class="label">[^<]+</div><div class="count">(\\d+)</div>`).exec(page.dom)?.[1];
    const { summary } = report;
    expect(count('must_failed')).toBe(String(summary.must_failed));
    expect(count('should_failed')).toBe(String(summary.fail - summary.must_failed));
    expect(count('pass')).toBe(String(summary.pass));
    expect(count('observed')).toBe(String(summary.observed));
    expect(count('skip')).toBe(String(summary.skip));
    expect(count('total')).toBe(String(summary.total));
  });

  it('keeps hostile strings as text in the parsed page, and no key', () => {
    expect(page.dom).not.toContain(HOSTILE);
    expect(page.dom).toContain('&lt;/script&gt;&lt;b&gt;&amp;"\'');
    for (const secret of SECRETS) expect(page.dom).not.toContain(secret);
  });
});

describe('report.html of a load run in headless Chromium', () => {
  const page = rendered(() => renderHtml(sampleLoadReport()));

  it('draws the held verdict in green, with its chart and tables', () => {
    const image = decodePng(page.png);
    expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
    // The banner's top border takes the verdict's colour: #1a7f37 when every threshold held.
    expect(image.pixel(WIDTH / 2, 2)).toEqual([0x1a, 0x7f, 0x37]);
    expect(page.dom).toMatch(/<svg [^>]*data-scale="linear"/);
  });

  it('has the load verdict as its headline and no conformance section in the rendered page', () => {
    expect(/<h1 id="verdict">([^<]*)<\/h1>/.exec(page.dom)?.[1]).toMatch(/^Load decide-steady: every threshold held in 2 runs/);
    expect(page.dom).toMatch(/<body data-script="ready">/);
    expect([...page.dom.matchAll(/<section id="([^"]+)"/g)].map((match) => match[1])).toEqual(['runs', 'checks', 'latency']);
    expect(page.dom).not.toContain('data-summary=');
  });
});
