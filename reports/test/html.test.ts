import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REPORT_SCRIPT } from '../html-script.ts';
import { renderHtml } from '../html.ts';
import { buildRunReport } from '../run-report.ts';
import { HOSTILE, sampleRunReport } from './sample-run.ts';

const report = sampleRunReport();
const page = renderHtml(report);
const section = (id: string) => {
  const start = page.indexOf(`<section id="${id}">`);
  expect(start).toBeGreaterThan(0);
  return page.slice(start, page.indexOf('</section>', start));
};

describe('report.html', () => {
  it('is one self-contained document: no external URL in any attribute, no @import, no url(), nothing to fetch', () => {
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    const attributes = [...page.matchAll(/\s(src|href|action|formaction|poster|srcset|data|xlink:href|xmlns)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)].map(
      (match) => match[2]!,
    );
    expect(attributes.length).toBeGreaterThan(0);
    for (const value of attributes) expect(value).not.toMatch(/^["']?\s*(https?:)?\/\//i);
    expect(page).not.toMatch(/@import/i);
    expect(page).not.toMatch(/url\s*\(/i);
    expect(page).not.toMatch(/<(link|img|iframe|object|embed|audio|video|source)\b/i);
    expect(page.match(/<script\b/g)).toHaveLength(1);
  });

  it('admits only its own script, by hash, in its Content-Security-Policy', () => {
    const hash = createHash('sha256').update(REPORT_SCRIPT).digest('base64');
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`script-src 'sha256-${hash}'`);
    expect(page).toContain(`<script>${REPORT_SCRIPT}</script>`);
  });

  it('escapes hostile strings everywhere and carries no control characters', () => {
    expect(page).not.toContain(HOSTILE);
    expect(page).not.toContain('<b>');
    expect(page.match(/<\/script>/g)).toHaveLength(1);
    expect(page).toContain('&lt;/script&gt;&lt;b&gt;&amp;&quot;&#39;');
    expect(page).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  });

  it('heads the page with the target, spec version and hash, kit version, seed, duration and warm-up', () => {
    const banner = page.slice(0, page.indexOf('</header>'));
    expect(banner).toContain('FAILED: 2 MUST checks failed, and 1 SHOULD check');
    expect(banner).toContain('http://127.0.0.1:47123');
    expect(banner).toContain(`version ${report.spec.version}`);
    expect(banner).toContain(report.spec.sha256.slice(0, 12));
    expect(banner).toContain(`${report.kit.name} ${report.kit.version}`);
    expect(banner).toContain('seed 20251122');
    expect(banner).toContain('3 min 07 s');
    expect(banner).toContain('ok in 1.8 s');
  });

  it('shows the counts with MUST failures first and marked bad, and a row per area', () => {
    const summary = section('summary');
    expect(summary.indexOf('data-summary="must_failed"')).toBeLessThan(summary.indexOf('data-summary="pass"'));
    expect(summary).toMatch(/class="card must bad" data-summary="must_failed"><div class="label">MUST failures<\/div><div class="count">2</);
    const areas = section('areas');
    expect(areas.match(/<tr><td><strong>/g)).toHaveLength(5);
    expect(areas).toMatch(/<strong>decide<\/strong><\/td><td class="num">3<\/td><td class="num">0<\/td><td class="num bad">2</);
  });

  it('shows every failure with its message, its evidence and a curl block, MUST before SHOULD', () => {
    const failures = section('failures');
    const order = ['DECIDE-CHOICE-MARGIN', 'DECIDE-COLD-START-TIMEOUT', 'ERRORS-REQUEST-ID-HEADER'].map((id) => failures.indexOf(`<code>${id}</code>`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(failures).toContain('observed 1.37 (yes 0.81, no 0.56)');
    expect(failures).toContain('Transport error: timeout: no complete response within 180000 ms');
    expect(failures).toContain('8 earlier exchanges left out');
    // 4 shown for the first, 1 each for the others.
    expect(failures.match(/<pre class="curl">curl -sS -i -X POST/g)).toHaveLength(6);
    expect(failures.match(/<details class="exchange" open>/g)).toHaveLength(3);
  });

  it('puts each OBSERVE check beside the reference choice and says whether it matches', () => {
    const openPoints = section('open-points');
    expect(openPoints.match(/<tr><td class="text"><code>OBSERVE-/g)).toHaveLength(3);
    expect(openPoints).toMatch(/status 200<\/td><td class="text">200 OK\.<\/td><td class="nowrap"><span class="pill yes">matches/);
    expect(openPoints).toMatch(/404 NOT_FOUND in the error body\.<\/td><td class="nowrap"><span class="pill no">differs/);
    expect(openPoints).toContain('Not observed: the target does not claim the capability assets');
  });

  it('lists skipped checks with their reasons and draws latency bars per operation', () => {
    const skipped = section('skipped');
    expect(skipped).toContain('needs a key of a second project (--api-key-b or DECISION_API_KEY_B)');
    const latency = section('latency');
    expect(latency.match(/<g class="operation">/g)).toHaveLength(Object.keys(report.latency).length);
    // The sample run times fewer than 100 responses per operation: p50 and p90 bars, and no p99.
    expect(latency.match(/<rect [^>]*height="9"/g)).toHaveLength(2 * Object.keys(report.latency).length);
    expect(latency).toContain(`p99 not shown: ${report.latency.decide!.count} of the 100 responses it needs`);
  });

  it('says so when nothing failed, nothing was skipped and nothing was timed', () => {
    const quiet = renderHtml(
      buildRunReport({
        results: [],
        target: { baseUrl: 'https://decisions.example.test', embedded: false, capabilities: new Set(), hasSecondKey: true },
        seed: 1,
        suites: ['conformance'],
        startedAt: new Date(0),
        finishedAt: new Date(1000),
        warmup: { durationMs: 120_000, ok: false, message: 'no answer within 120 s' },
        secrets: [],
      }),
    );
    expect(quiet).toContain('NOTHING RAN');
    expect(quiet).toContain('No check failed.');
    expect(quiet).toContain('No response was timed in this run.');
    expect(quiet).toContain('<strong class="bad-text">failed</strong> after 2 min 00 s');
  });
});
