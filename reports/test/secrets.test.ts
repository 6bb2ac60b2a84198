// Belt and braces: keys planted in a note, a header, a warm-up message and a URL-encoded header
// must not reach any of the four files, in clear or URL-encoded.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../html.ts';
import { renderJson } from '../json.ts';
import { renderJunit } from '../junit.ts';
import { renderMarkdown } from '../markdown.ts';
import { KEY_A, SECRETS, sampleResults, sampleRunReport } from './sample-run.ts';

describe('no key in any report', () => {
  const report = sampleRunReport();

  it('the sample really plants the keys where a careless check could put them', () => {
    const planted = JSON.stringify(sampleResults());
    expect(planted).toContain(`Bearer ${KEY_A}`);
    expect(planted).toContain(`the key ${KEY_A}`);
    expect(planted).toContain(encodeURIComponent(SECRETS[1]!));
  });

  it.each([
    ['results.json', renderJson],
    ['junit.xml', renderJunit],
    ['report.html', renderHtml],
    ['summary.md', renderMarkdown],
  ])('%s', (_, render) => {
    const text = render(report);
    for (const secret of SECRETS) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
      // The secret part alone, after the public prefix.
      expect(text).not.toContain(secret.slice('svc_live_'.length));
    }
  });
});
