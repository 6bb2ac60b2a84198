// The stylesheet of report.html, inlined: system fonts only, so the report looks the same offline.
export const REPORT_STYLE = `
:root {
  --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --subtle: #f6f8fa; --card: #ffffff;
  --fail: #cf222e; --fail-bg: #ffebe9; --fail-border: #ffcecb;
  --pass: #1a7f37; --pass-bg: #dafbe1;
  --warn: #9a6700; --warn-bg: #fff8c5;
  --skip: #59636e; --skip-bg: #eaeef2;
  --observe: #8250df; --observe-bg: #fbefff;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: var(--subtle); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "DejaVu Sans", Arial, sans-serif; }
.wrap { max-width: 1200px; margin: 0 auto; padding: 0 28px; }
code, pre { font-family: var(--mono); font-size: 12.5px; }
a { color: #0969da; text-decoration: none; }
a:hover { text-decoration: underline; }
h2 { font-size: 19px; margin: 0 0 4px; }
h3 { font-size: 15px; margin: 6px 0 8px; }
h4 { font-size: 11px; margin: 0 0 4px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.lead { color: var(--muted); margin: 0 0 14px; }

.banner { background: var(--card); border-top: 6px solid var(--verdict); border-bottom: 1px solid var(--border); padding: 22px 0 18px; }
.banner.verdict-fail { --verdict: var(--fail); }
.banner.verdict-warn { --verdict: #d4a72c; }
.banner.verdict-pass { --verdict: var(--pass); }
.banner.verdict-empty { --verdict: var(--skip); }
.eyebrow { margin: 0; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .08em; font-weight: 600; }
.banner h1 { margin: 4px 0 16px; font-size: 24px; line-height: 1.25; color: var(--verdict); }
.verdict-warn h1 { color: var(--warn); }
.facts { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 10px 24px; margin: 0; }
.facts div { min-width: 0; }
.facts dt { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 600; }
.facts dd { margin: 1px 0 0; overflow-wrap: anywhere; }
.facts dd.wide { grid-column: span 2; }
.facts .sub { color: var(--muted); font-size: 12px; }

nav.toc { display: flex; flex-wrap: wrap; gap: 4px 18px; padding-top: 12px; padding-bottom: 4px; font-size: 13px; }
main { padding-bottom: 40px; }
section { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 18px 22px; margin-top: 16px; }

.cards { display: grid; grid-template-columns: 1.5fr repeat(5, minmax(0, 1fr)); gap: 12px; margin-top: 10px; }
.card { border: 1px solid var(--border); border-radius: 8px; padding: 12px 14px; background: var(--card); }
.card .label { font-size: 12px; color: var(--muted); font-weight: 600; }
.card .count { font-size: 30px; font-weight: 700; line-height: 1.15; font-variant-numeric: tabular-nums; }
.card .sub { font-size: 12px; color: var(--muted); }
.card.must { border-width: 2px; }
.card.must.bad { background: var(--fail); border-color: var(--fail); color: #fff; }
.card.must.bad .label, .card.must.bad .sub { color: #ffe3e1; }
.card.must.good { background: var(--pass-bg); border-color: #aceebb; }
.card.must.good .count { color: var(--pass); }
.card.should .count { color: var(--warn); }
.card.pass .count { color: var(--pass); }
.card.skip .count { color: var(--skip); }
.card.observed .count { color: var(--observe); }
.card.zero .count { color: var(--muted); }

.bar { display: flex; height: 10px; border-radius: 5px; overflow: hidden; background: var(--skip-bg); margin-top: 14px; }
.bar span { display: block; height: 100%; }
.bar.small { height: 8px; margin: 0; min-width: 120px; }
.seg-pass { background: var(--pass); }
.seg-must { background: var(--fail); }
.seg-should { background: #d4a72c; }
.seg-observed { background: var(--observe); }
.seg-skip { background: #afb8c1; }

table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--border); padding: 6px 10px; white-space: nowrap; }
td { border-bottom: 1px solid #eaeef2; padding: 7px 10px; vertical-align: top; overflow-wrap: break-word; }
/* Free text from the run may hold long unbroken strings (URLs, bodies): let those cells break anywhere, and only those, so that short cells keep their width. */
td.text { overflow-wrap: anywhere; }
tr:last-child td { border-bottom: none; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.num.bad { color: var(--fail); font-weight: 700; }
td.num.warn { color: var(--warn); font-weight: 700; }
td.muted, .muted { color: var(--muted); }
.bad-text { color: var(--fail); }
td.nowrap { white-space: nowrap; overflow-wrap: normal; }

.pill { display: inline-block; border-radius: 999px; padding: 0 8px; font-size: 11.5px; font-weight: 600; line-height: 20px; white-space: nowrap; }
.pill.pass, .pill.yes { background: var(--pass-bg); color: var(--pass); }
.pill.fail, .pill.no { background: var(--fail-bg); color: var(--fail); }
.pill.skip, .pill.unknown { background: var(--skip-bg); color: var(--skip); }
.pill.observed { background: var(--observe-bg); color: var(--observe); }
.level { display: inline-block; white-space: nowrap; font-size: 10.5px; font-weight: 700; letter-spacing: .05em; padding: 0 6px; border-radius: 4px; line-height: 18px; border: 1px solid; }
.level.MUST { color: var(--fail); border-color: var(--fail-border); background: var(--fail-bg); }
.level.SHOULD { color: var(--warn); border-color: #eed888; background: var(--warn-bg); }
.level.OBSERVE { color: var(--observe); border-color: #e2c8fd; background: var(--observe-bg); }

.failure { border: 1px solid var(--border); border-left: 4px solid #d4a72c; border-radius: 6px; padding: 12px 16px; margin-top: 14px; }
.failure.MUST { border-left-color: var(--fail); }
.failure header { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; font-size: 12.5px; color: var(--muted); }
.failure header code { color: var(--fg); font-weight: 600; font-size: 13px; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--fail-bg); border: 1px solid var(--fail-border); border-radius: 6px; padding: 8px 12px; margin: 0 0 10px; }
.failure.SHOULD .message { background: var(--warn-bg); border-color: #eed888; }
ul.notes { margin: 0 0 10px; padding-left: 20px; color: var(--muted); }
.exchange { border: 1px solid #eaeef2; border-radius: 6px; margin-top: 10px; overflow: hidden; }
.exchange-head { background: var(--subtle); padding: 6px 12px; font-family: var(--mono); font-size: 12px; overflow-wrap: anywhere; cursor: pointer; }
details.exchange[open] > .exchange-head { border-bottom: 1px solid #eaeef2; }
details.exchange + details.exchange { margin-top: 6px; }
.exchange-head .status { font-weight: 700; }
.exchange-head .status.ok { color: var(--pass); }
.exchange-head .status.bad { color: var(--fail); }
.panes { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0; }
.pane { padding: 8px 12px; min-width: 0; }
.pane + .pane { border-left: 1px solid #eaeef2; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 260px; overflow: auto; background: var(--subtle); border-radius: 4px; padding: 8px 10px; }
.transport { margin: 0; padding: 8px 12px; color: var(--fail); font-weight: 600; border-top: 1px solid #eaeef2; }
.reproduce { position: relative; padding: 8px 12px 10px; border-top: 1px solid #eaeef2; }
pre.curl { background: #1f2328; color: #e6edf3; padding-right: 72px; }
button.copy { position: absolute; right: 20px; top: 30px; font: 600 11.5px/1 system-ui, sans-serif; padding: 5px 9px; border-radius: 5px; border: 1px solid #57606a; background: #32383f; color: #e6edf3; cursor: pointer; z-index: 1; }
button.copy:hover { background: #424a53; }
.omitted { color: var(--muted); font-size: 12px; margin: 8px 0 0; }
.empty { color: var(--muted); margin: 4px 0 0; }

.latency-chart { display: block; max-width: 960px; margin: 6px 0 16px; font-family: inherit; }
.latency-chart .grid { stroke: #eaeef2; }
.latency-chart .axis { stroke: #afb8c1; }
.latency-chart .tick, .latency-chart .count, .latency-chart .legend { font-size: 11px; fill: var(--muted); }
.latency-chart .no-p99 { font-size: 10.5px; fill: var(--muted); font-style: italic; }
.latency-chart .value { font-size: 10.5px; fill: var(--fg); font-variant-numeric: tabular-nums; }
.latency-chart .operation-id { font-size: 13px; font-weight: 600; fill: var(--fg); font-family: var(--mono); }

/* Coverage: what the run never tried, and what the server answered that the spec does not document, in red; the words say it too. */
.coverage-operation { margin-top: 18px; }
.coverage-operation h4 { margin-top: 12px; }
.coverage-documented { margin: 0 0 6px; }
tr.untried td, tr.undocumented td { background: var(--fail-bg); }
.untried-mark, .undocumented-mark { color: var(--fail); font-weight: 700; }

details > summary { cursor: pointer; font-weight: 600; }
details[open] > summary { margin-bottom: 10px; }
footer.wrap { color: var(--muted); font-size: 12px; padding-top: 14px; padding-bottom: 32px; }

@media (max-width: 900px) {
  .facts { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .cards { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .panes { grid-template-columns: minmax(0, 1fr); }
  .pane + .pane { border-left: none; border-top: 1px solid #eaeef2; }
}
@media print {
  body { background: #fff; }
  section { break-inside: avoid-page; border: none; padding: 0; }
  pre { max-height: none; }
  button.copy { display: none; }
}
`;
