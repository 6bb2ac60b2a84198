// The frame every report.html shares, whatever the kind of run: the Content-Security-Policy, the
// style, the verdict banner with the run's facts, the section links and the footer. Only constants
// and escaped run data go in. The load history's page (history.html) uses the same frame.
import { createHash } from 'node:crypto';
import { html } from './escape.ts';
import { shortSha } from './format.ts';
import { REPORT_SCRIPT } from './html-script.ts';
import { REPORT_STYLE } from './html-style.ts';
import type { RunBasics, RunReport } from './run-report.ts';

/** One fact of the banner: a label, a value (HTML) and an optional line under it (HTML). */
export interface BannerFact {
  label: string;
  value: string;
  sub?: string;
}

export interface PageParts {
  title: string;
  /** The banner's colour: a verdict class of the stylesheet. */
  verdict: 'fail' | 'warn' | 'pass' | 'empty';
  eyebrow: string;
  headline: string;
  facts: BannerFact[];
  /** Section id -> link text, in page order. */
  sections: Array<[string, string]>;
  main: string;
}

export function htmlPage(report: RunReport, parts: PageParts): string {
  return htmlDocument(
    parts,
    `Written by ${html(report.kit.name)} ${html(report.kit.version)} at ${html(report.finished_at)}. For machines: <code>results.json</code> (schema version ${report.schema_version}) and <code>junit.xml</code>, written beside this file.`,
  );
}

/** The same frame for a page that is not one run's report (the load history): `footer` is HTML. */
export function htmlDocument(parts: PageParts, footer: string): string {
  const scriptHash = createHash('sha256').update(REPORT_SCRIPT).digest('base64');
  // Built from constants only (no run data), so it goes into the attribute as is.
  const policy = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const facts = parts.facts.map(
    ({ label, value, sub }) => `<div><dt>${html(label)}</dt><dd>${value}${sub !== undefined ? `<div class="sub">${sub}</div>` : ''}</dd></div>`,
  );
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(parts.title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header class="banner verdict-${parts.verdict}">
<div class="wrap">
<p class="eyebrow">${html(parts.eyebrow)}</p>
<h1 id="verdict">${html(parts.headline)}</h1>
<dl class="facts">
${facts.join('\n')}
</dl>
</div>
</header>
<nav class="toc wrap" aria-label="Sections">
${parts.sections.map(([id, text]) => `<a href="#${id}">${html(text)}</a>`).join('')}
</nav>
<main class="wrap">
${parts.main}
</main>
<footer class="wrap">${footer}</footer>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/** The spec the run was judged by: its version, and the start of its hash to tell two apart. */
export function specFact(report: RunBasics): BannerFact {
  return {
    label: 'Spec',
    value: `version ${html(report.spec.version)}`,
    sub: `sha256 <code title="${html(report.spec.sha256)}">${html(shortSha(report.spec.sha256))}</code>`,
  };
}

/** When a run started, for people: "2026-11-23 10:00:00 UTC". */
export function startedText(startedAt: string): string {
  return startedAt
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
    .replace(/Z$/, ' UTC');
}
