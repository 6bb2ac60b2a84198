import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../harness/check.ts';
import { markdownCode, markdownInline } from '../escape.ts';
import { renderMarkdown } from '../markdown.ts';
import { HOSTILE, sampleResults, sampleRunReport } from './sample-run.ts';

describe('summary.md', () => {
  const markdown = renderMarkdown(sampleRunReport());
  const lines = markdown.trimEnd().split('\n');

  it('opens with a status line and the run facts', () => {
    expect(lines[0]).toBe('## ❌ Decision Service conformance: FAILED: 2 MUST checks failed, and 1 SHOULD check');
    expect(lines[2]).toContain('Target `http://127.0.0.1:47123`');
    expect(lines[2]).toContain('seed 20251122');
    expect(lines[2]).toContain('warm-up ok in 1.8 s');
    expect(lines[2]).toContain('16 workers (up to 12 requests in flight; 2 pauses after 429, 2.1 s in all)');
  });

  it('has a counts table', () => {
    expect(markdown).toContain(
      '| MUST failed | **2** |\n| SHOULD failed | 1 |\n| Passed | 4 |\n| Observed (open points) | 2 (1 as the reference server) |\n| Skipped | 2 |\n| **Total** | **11** |',
    );
  });

  it('lists each failing MUST check with a one-line, escaped reason', () => {
    const must = lines.filter((line) => line.startsWith('- `DECIDE-'));
    expect(must).toHaveLength(2);
    expect(must[0]).toMatch(/^- `DECIDE-CHOICE-MARGIN` \(decide\): Expected probabilities of question "refund" to sum to 1/);
    expect(must[0]).toContain('\\</script\\>\\<b\\>\\&"\'');
    expect(markdown).not.toContain(HOSTILE);
    expect(markdown).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(markdown).toContain('### Failing SHOULD checks (1)');
  });

  it('stays within 60 lines when a hundred checks fail', () => {
    const failing: CheckResult[] = Array.from({ length: 100 }, (_, i) => ({
      ...sampleResults()[2]!,
      id: `DECIDE-GENERATED-${i}`,
      level: i % 3 === 0 ? 'SHOULD' : 'MUST',
      message: `Expected thing ${i}; observed another.\nSecond line that a one-line summary leaves out.`,
    }));
    const long = renderMarkdown(sampleRunReport(failing));
    const longLines = long.trimEnd().split('\n');
    expect(longLines.length).toBeLessThanOrEqual(60);
    expect(long).toContain('- … and 46 more in `report.html`');
    expect(long).not.toContain('Second line');
  });

  it('says how many response rules judged the run, and names the broken ones among the failures', () => {
    const ruleResult = (id: string, status: 'pass' | 'fail', judged: number, breached: number): CheckResult => ({
      id,
      level: 'MUST',
      area: 'response-rules',
      seedSections: ['2.7'],
      title: `the rule ${id}`,
      status,
      durationMs: 0,
      notes: [],
      exchanges: [],
      ...(status === 'fail'
        ? { message: `${breached} exchanges of ${judged} broke it; the first, sent by AUTH-MISSING-KEY: expected a header; observed none.` }
        : {}),
      rule: { judged, breached, breachedBy: breached > 0 ? { 'AUTH-MISSING-KEY': breached } : {} },
    });
    const withRules = renderMarkdown(sampleRunReport([...sampleResults(), ruleResult('request-id', 'fail', 40, 3), ruleResult('answer-ids', 'pass', 12, 0)]));
    expect(withRules).toContain(
      'Response rules (counted above, area `response-rules`): 2 rules judged every response of the run (up to 40 exchanges each); broken: `request-id`.',
    );
    expect(withRules).toMatch(/^- `request-id` \(response-rules\): 3 exchanges of 40 broke it; the first, sent by AUTH-MISSING-KEY/m);
    expect(renderMarkdown(sampleRunReport())).not.toContain('Response rules');
  });

  it('says a clean run passed', () => {
    const clean = renderMarkdown(sampleRunReport(sampleResults().filter((result) => result.status !== 'fail')));
    expect(clean.split('\n')[0]).toBe('## ✅ Decision Service conformance: PASSED: every MUST and SHOULD check that ran passed');
    expect(clean).not.toContain('### Failing');
  });
});

describe('Markdown escaping', () => {
  it('neutralises inline markup and raw HTML', () => {
    expect(markdownInline('a *b* [c](d) <img> `e` | f & g\nh')).toBe('a \\*b\\* \\[c\\](d) \\<img\\> \\`e\\` \\| f \\& g h');
  });

  it('fences code spans longer than any backtick run inside', () => {
    expect(markdownCode('plain')).toBe('`plain`');
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('`x`')).toBe('`` `x` ``');
  });
});
