// The parts of a load run's reports: its verdict, the runs, latency percentiles over time (inline
// SVG, on a log scale when outliers would flatten the chart), soak drift; a cold-start run's
// spawns; the JUnit test cases (one per threshold of each run, one per spawn) and the summary.md lines.
import { html, markdownCode, markdownInline, xmlAttr, xmlText } from './escape.ts';
import { formatMs, plural } from './format.ts';
import { loadChecksHtml, loadChecksMarkdown } from './load-checks.ts';
import type { ColdStartReport, GeneratorHealth, LoadRun, LoadSection, LoadTimelineWindow } from './load-run.ts';

/** pass when every threshold of every run held. */
export function loadVerdict(load: LoadSection): 'pass' | 'fail' {
  return load.runs.length > 0 && load.runs.every((run) => run.passed) ? 'pass' : 'fail';
}

export function loadHeadline(load: LoadSection): string {
  const missed = load.runs.filter((run) => !run.passed).length;
  const generator = load.runs[0]?.generator;
  const method = load.runs[0]?.percentile_method;
  const by = generator ? ` (${generator.name} ${generator.version}${method ? `; ${method} percentiles` : ''})` : '';
  if (loadVerdict(load) === 'pass') return `Load ${load.scenario}: every threshold held in ${plural(load.runs.length, 'run')}${by}`;
  return `Load ${load.scenario}: thresholds missed in ${missed} of ${load.runs.length} runs${by}`;
}

/** The headline of a cold-start run. */
export function coldStartHeadline(cold: ColdStartReport): string {
  const allowance = formatMs(cold.allowance_ms);
  return cold.within_allowance
    ? `Cold start: every spawn answered its first decide within the ${allowance} allowance (${plural(cold.runs, 'spawn')}; slowest ${formatMs(cold.spawn_to_first_decide_ms.max)})`
    : `Cold start: ALLOWANCE EXCEEDED, a spawn took ${formatMs(cold.spawn_to_first_decide_ms.max)} to its first decide (allowance ${allowance}; ${plural(cold.runs, 'spawn')})`;
}

const percent = (rate: number) => `${(rate * 100).toFixed(2)} %`;

/** One line for a terminal or a report: "generator kept up", "GENERATOR-BOUND (reasons)" or, on a full machine, "generator not shown to keep up (why)". */
export function healthLine(health: GeneratorHealth): string {
  const generator = health.generator_cpu
    ? `${health.shared_process ? 'generator and server in one process' : 'generator'} ${health.generator_cpu.cores} cores`
    : '';
  const cpu = [
    generator,
    health.server_cpu ? `server ${health.server_cpu.cores} cores` : '',
    generator && health.machine_idle_cores !== undefined ? `idle ${health.machine_idle_cores}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const rates = `${health.planned_rate_per_s !== undefined ? `planned ${health.planned_rate_per_s}/s, ` : ''}achieved ${health.achieved_rate_per_s} iterations/s`;
  const verdict = health.bound
    ? `GENERATOR-BOUND (${health.reasons.join('; ')})`
    : health.unproven
      ? `generator not shown to keep up (${health.unproven})`
      : 'generator kept up';
  return `${verdict}; ${rates}${cpu ? `; ${cpu}${health.cores ? ` (of ${health.cores})` : ''}` : ''}`;
}

/** The health line of each run that has one, numbered: every report says whether the generator kept up. */
function healthLines(load: LoadSection): string[] {
  return load.runs.flatMap((run, index) => (run.generator_health ? [`run ${index + 1}: ${healthLine(run.generator_health)}`] : []));
}

export function loadSectionHtml(load: LoadSection): string {
  const verdict = loadVerdict(load);
  const rows = load.runs.map((run, index) => {
    const all = run.latency.all;
    const missed = run.thresholds.filter((threshold) => !threshold.ok).map((threshold) => `${threshold.metric} ${threshold.condition}`);
    return `<tr><td class="num">${index + 1}</td><td>${html(`${run.generator.name} ${run.generator.version}`)}${run.generator_health?.bound ? ' <span class="pill fail">generator-bound</span>' : run.generator_health?.unproven ? ' <span class="pill unknown">generator unproven</span>' : ''}</td><td class="num">${run.requests}</td><td class="num">${html(run.throughput_rps)}</td><td class="num">${all ? html(formatMs(all.p50_ms)) : '-'}</td><td class="num">${all ? html(formatMs(all.p95_ms)) : '-'}</td><td class="num">${all ? html(formatMs(all.p99_ms)) : '-'}</td><td class="num">${html(percent(run.error_rate))}</td><td class="num">${html(percent(run.check_rate))}</td><td class="text">${run.passed ? '<span class="pill pass">held</span>' : `<span class="pill fail">missed</span> ${html(missed.join('; '))}`}</td></tr>`;
  });
  const first = load.runs[0];
  const perName = first
    ? Object.entries(first.latency)
        .map(
          ([name, stats]) =>
            `<tr><td><code>${html(name)}</code></td><td class="num">${first.requests_by_name[name] ?? stats.count}</td><td class="num">${html(formatMs(stats.p50_ms))}</td><td class="num">${html(formatMs(stats.p95_ms))}</td><td class="num">${html(formatMs(stats.p99_ms))}</td><td class="num">${html(formatMs(stats.max_ms))}</td></tr>`,
        )
        .join('\n')
    : '';
  return `<section id="runs">
<h2>Runs</h2>
<p class="lead">${html(first?.description ?? '')}. Verdict: <span class="pill ${verdict}">${verdict === 'pass' ? 'thresholds held' : 'thresholds missed'}</span></p>
<table>
<thead><tr><th class="num">Run</th><th>Generator</th><th class="num">Requests</th><th class="num">req/s</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th><th class="num">Errors</th><th class="num">Checks</th><th>Thresholds</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
${
  healthLines(load).length > 0
    ? `<h3>Did the generator keep up?</h3>\n<ul>${healthLines(load)
        .map((line) => `<li>${html(line)}</li>`)
        .join('')}</ul>`
    : ''
}
</section>
<section id="checks">
<h2>Response checks</h2>
${loadChecksHtml(load)}
</section>
${
  first
    ? `<section id="latency">
<h2>Latency by request (run 1)</h2>
<table>
<thead><tr><th>Request</th><th class="num">Count</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th><th class="num">max</th></tr></thead>
<tbody>
${perName}
</tbody>
</table>
<h3>Latency over time (run 1)</h3>
${timelineChart(first.timeline)}
${idleLine(first) ? `<h3>After idling</h3><p>${html(idleLine(first)!)}</p>` : ''}
</section>`
    : ''
}
${driftHtml(load)}`;
}

/** The cold-start scenario's first and after-idle calls beside the steady p50 (external targets' cold start). */
export function idleLine(run: LoadRun): string | undefined {
  const steady = run.latency.decide?.p50_ms;
  const afterIdle = run.latency.decide_after_idle?.max_ms;
  if (steady === undefined || afterIdle === undefined) return undefined;
  const first = run.latency.decide_first?.max_ms;
  const ratio = steady > 0 ? ` (× ${(afterIdle / steady).toFixed(1)})` : '';
  return `${first !== undefined ? `first call ${formatMs(first)}; ` : ''}first call after the idle period ${formatMs(afterIdle)} vs steady p50 ${formatMs(steady)}${ratio}`;
}

function driftHtml(load: LoadSection): string {
  const drift = load.drift;
  if (!drift) return '';
  const memory =
    drift.rss_growth_bytes !== undefined
      ? `; server memory ${mebibytes(drift.rss_first_bytes!)} → ${mebibytes(drift.rss_last_bytes!)} (${drift.rss_growth_bytes >= 0 ? '+' : ''}${mebibytes(drift.rss_growth_bytes)})`
      : '; server memory not visible from the kit (external target)';
  const p99 =
    drift.first_window_p99_ms !== undefined && drift.last_window_p99_ms !== undefined
      ? `; p99 ${formatMs(drift.first_window_p99_ms)} → ${formatMs(drift.last_window_p99_ms)} (windows of ${drift.first_window_count} and ${drift.last_window_count} requests; judged from 368 each)`
      : '';
  const verdicts = (load.runs[0]?.thresholds ?? [])
    .filter((threshold) => threshold.metric.startsWith('drift'))
    .map((threshold) => `${threshold.metric} ${threshold.condition}: ${threshold.ok ? 'held' : 'MISSED'}`);
  return `<section id="drift"><h2>Drift</h2><p>p50 of the first window ${html(formatMs(drift.first_window_p50_ms))}, of the last ${html(formatMs(drift.last_window_p50_ms))} (× ${html(drift.p50_ratio)})${html(p99)}${html(memory)}.${verdicts.length > 0 ? ` Verdict (run 1): ${html(verdicts.join('; '))}.` : ''}</p></section>`;
}

/** The spawns of a cold-start run: median and max, then every spawn. */
export function coldStartHtml(cold: ColdStartReport): string {
  const spawns = cold.spawn_to_first_decide_ms.values.map((firstDecide, index) => {
    const listening = cold.spawn_to_listening_ms.values[index];
    const within = firstDecide <= cold.allowance_ms;
    return `<tr><td class="num">${index + 1}</td><td class="num">${listening !== undefined ? html(formatMs(listening)) : '-'}</td><td class="num">${html(formatMs(firstDecide))}</td><td>${within ? '<span class="pill pass">within</span>' : '<span class="pill fail">exceeded</span>'}</td></tr>`;
  });
  return `<section id="cold-start">
<h2>Cold start of the bundled server (${html(plural(cold.runs, 'spawn'))})</h2>
<table><thead><tr><th>From spawn to</th><th class="num">median</th><th class="num">max</th><th class="num">allowance</th></tr></thead><tbody>
<tr><td>listening</td><td class="num">${html(formatMs(cold.spawn_to_listening_ms.median))}</td><td class="num">${html(formatMs(cold.spawn_to_listening_ms.max))}</td><td class="num"></td></tr>
<tr><td>first successful decide</td><td class="num">${html(formatMs(cold.spawn_to_first_decide_ms.median))}</td><td class="num">${html(formatMs(cold.spawn_to_first_decide_ms.max))}</td><td class="num">${html(formatMs(cold.allowance_ms))}</td></tr>
</tbody></table>
<h3>Each spawn</h3>
<table><thead><tr><th class="num">Spawn</th><th class="num">listening</th><th class="num">first decide</th><th>Allowance</th></tr></thead><tbody>
${spawns.join('\n')}
</tbody></table>
</section>`;
}

/** The line of summary.md under a cold-start run's headline. */
export function coldStartMarkdown(cold: ColdStartReport): string[] {
  return [
    `Spawn to listening: median ${formatMs(cold.spawn_to_listening_ms.median)}, max ${formatMs(cold.spawn_to_listening_ms.max)}. Spawn to first successful decide: median ${formatMs(cold.spawn_to_first_decide_ms.median)}, max ${formatMs(cold.spawn_to_first_decide_ms.max)} (allowance ${formatMs(cold.allowance_ms)}).`,
  ];
}

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const CHART = { width: 960, height: 260, left: 64, right: 16, top: 16, bottom: 36 };
const LINES = [
  { key: 'p50_ms', label: 'p50', colour: '#9ec5fe' },
  { key: 'p95_ms', label: 'p95', colour: '#3d8bfd' },
  { key: 'p99_ms', label: 'p99', colour: '#0a4fb5' },
] as const;

/** A log scale when the largest value is more than 20 times the smallest: one slow outlier would otherwise flatten everything else. */
export function useLogScale(timeline: readonly LoadTimelineWindow[]): boolean {
  const values = timeline.flatMap((window) => [window.p50_ms, window.p99_ms]).filter((value) => value > 0);
  return values.length > 0 && Math.max(...values) / Math.min(...values) > 20;
}

export function timelineChart(timeline: readonly LoadTimelineWindow[]): string {
  if (timeline.length === 0) return '<p class="empty">No request was timed.</p>';
  const log = useLogScale(timeline);
  const values = timeline.flatMap((window) => LINES.map((line) => window[line.key]));
  const floor = Math.max(0.1, Math.min(...values.filter((value) => value > 0), 1));
  const ceiling = Math.max(...values, floor * 10);
  const ticks = log ? decades(floor, ceiling) : linearTicks(ceiling);
  const top = ticks[ticks.length - 1]!;
  const bottom = log ? ticks[0]! : 0;
  const plotW = CHART.width - CHART.left - CHART.right;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const lastStart = timeline[timeline.length - 1]!.start_s;
  const x = (startS: number) => CHART.left + (lastStart === 0 ? 0 : (startS / lastStart) * plotW);
  const y = (ms: number) => {
    const share = log ? (Math.log10(Math.max(ms, bottom)) - Math.log10(bottom)) / (Math.log10(top) - Math.log10(bottom)) : ms / top;
    return CHART.top + plotH * (1 - share);
  };
  const grid = ticks.map(
    (tick) =>
      `<line x1="${CHART.left}" y1="${y(tick).toFixed(1)}" x2="${CHART.width - CHART.right}" y2="${y(tick).toFixed(1)}" class="grid"/><text x="${CHART.left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end" class="tick">${html(formatMs(tick))}</text>`,
  );
  const paths = LINES.map(
    (line) =>
      `<polyline fill="none" stroke="${line.colour}" stroke-width="2" points="${timeline.map((window) => `${x(window.start_s).toFixed(1)},${y(window[line.key]).toFixed(1)}`).join(' ')}"><title>${line.label}</title></polyline>`,
  );
  const legend = LINES.map(
    (line, index) =>
      `<rect x="${CHART.left + index * 90}" y="${CHART.height - 14}" width="12" height="12" fill="${line.colour}"/><text x="${CHART.left + index * 90 + 18}" y="${CHART.height - 4}" class="tick">${line.label}</text>`,
  );
  const caption = `Latency percentiles per ${timeline.length > 1 ? `${timeline[1]!.start_s - timeline[0]!.start_s} s ` : ''}window over ${lastStart} s${log ? ' (log scale: outliers would flatten a linear one)' : ''}`;
  return `<figure class="latency-timeline"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="${html(caption)}" data-scale="${log ? 'log' : 'linear'}">
${grid.join('\n')}
${paths.join('\n')}
${legend.join('\n')}
</svg><figcaption>${html(caption)}</figcaption></figure>`;
}

function decades(floor: number, ceiling: number): number[] {
  const ticks: number[] = [];
  for (let exponent = Math.floor(Math.log10(floor)); 10 ** (exponent - 1) < ceiling; exponent++) ticks.push(Number((10 ** exponent).toPrecision(6)));
  return ticks;
}

function linearTicks(max: number): number[] {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = (raw / magnitude <= 1 ? 1 : raw / magnitude <= 2 ? 2 : raw / magnitude <= 5 ? 5 : 10) * magnitude;
  const ticks = [0];
  while (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

/** One <testsuite> of junit.xml, with its counts. */
export interface JunitSuite {
  tests: number;
  failures: number;
  skipped?: number;
  lines: string[];
}

/** One <testsuite> "load": a test case per threshold of each run, failing when it was missed. */
export function loadJunit(load: LoadSection): JunitSuite {
  const cases = load.runs.flatMap((run, index) => run.thresholds.map((threshold) => ({ run, index, threshold })));
  const failures = cases.filter((entry) => !entry.threshold.ok).length;
  const time = (load.runs.reduce((sum, run) => sum + run.duration_ms, 0) / 1000).toFixed(3);
  // Whether each run's generator kept up: a bound or unproven run is skipped (it is not shown to have kept up), not failed.
  const health = load.runs.flatMap((run, index) => (run.generator_health ? [{ index, health: run.generator_health }] : []));
  const skipped = health.filter((entry) => entry.health.bound || entry.health.unproven).length;
  const lines = [
    `  <testsuite name="${xmlAttr(`load ${load.scenario}`)}" tests="${cases.length + health.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">`,
    ...health.map(({ index, health: entry }) => {
      const name = xmlAttr(`run ${index + 1}: the generator kept up`);
      return entry.bound || entry.unproven
        ? `    <testcase name="${name}" classname="${xmlAttr(`load.${load.scenario}`)}" time="0"><skipped message="${xmlAttr(healthLine(entry))}"/></testcase>`
        : `    <testcase name="${name}" classname="${xmlAttr(`load.${load.scenario}`)}" time="0"/>`;
    }),
    ...cases.map(({ run, index, threshold }) => {
      const name = xmlAttr(`run ${index + 1}: ${threshold.metric} ${threshold.condition}`);
      const figures = `${run.requests} requests, ${run.throughput_rps} req/s, p95 ${run.latency.all?.p95_ms ?? '-'} ms, p99 ${run.latency.all?.p99_ms ?? '-'} ms, errors ${percent(run.error_rate)}, checks ${percent(run.check_rate)}`;
      return threshold.ok
        ? `    <testcase name="${name}" classname="${xmlAttr(`load.${load.scenario}`)}" time="0"/>`
        : `    <testcase name="${name}" classname="${xmlAttr(`load.${load.scenario}`)}" time="0"><failure type="threshold" message="${xmlAttr(`threshold ${threshold.metric} ${threshold.condition} missed`)}">${xmlText(figures)}</failure></testcase>`;
    }),
    '  </testsuite>',
  ];
  return { tests: cases.length + health.length, failures, skipped, lines };
}

/** One <testsuite> "cold start": a test case per spawn, failing when its first decide came after the allowance. */
export function coldStartJunit(cold: ColdStartReport): JunitSuite {
  const values = cold.spawn_to_first_decide_ms.values;
  const failures = values.filter((ms) => ms > cold.allowance_ms).length;
  const time = (values.reduce((sum, ms) => sum + ms, 0) / 1000).toFixed(3);
  const lines = [
    `  <testsuite name="cold start" tests="${values.length}" failures="${failures}" errors="0" skipped="0" time="${time}">`,
    ...values.map((ms, index) => {
      const name = xmlAttr(`spawn ${index + 1}: first decide within ${formatMs(cold.allowance_ms)}`);
      const seconds = (ms / 1000).toFixed(3);
      return ms <= cold.allowance_ms
        ? `    <testcase name="${name}" classname="cold-start" time="${seconds}"/>`
        : `    <testcase name="${name}" classname="cold-start" time="${seconds}"><failure type="allowance" message="${xmlAttr(`first decide after ${formatMs(ms)}, allowance ${formatMs(cold.allowance_ms)}`)}"/></testcase>`;
    }),
    '  </testsuite>',
  ];
  return { tests: values.length, failures, lines };
}

/** The lines of summary.md under its headline: one row per run, checks, after-idle and drift. */
export function loadMarkdown(load: LoadSection): string[] {
  const lines = ['| Run | req/s | p50 | p95 | p99 | errors | thresholds |', '| ---: | ---: | ---: | ---: | ---: | ---: | --- |'];
  load.runs.forEach((run: LoadRun, index) => {
    const all = run.latency.all;
    lines.push(
      `| ${index + 1} | ${run.throughput_rps} | ${all ? formatMs(all.p50_ms) : '-'} | ${all ? formatMs(all.p95_ms) : '-'} | ${all ? formatMs(all.p99_ms) : '-'} | ${percent(run.error_rate)} | ${
        run.passed
          ? 'held'
          : `missed: ${run.thresholds
              .filter((t) => !t.ok)
              .map((t) => markdownCode(`${t.metric} ${t.condition}`))
              .join(', ')}`
      } |`,
    );
  });
  const health = healthLines(load);
  if (health.length > 0) lines.push('', 'Generator:', '', ...health.map((line) => `- ${markdownInline(line)}`));
  lines.push(...loadChecksMarkdown(load));
  const idle = load.runs[0] ? idleLine(load.runs[0]) : undefined;
  if (idle) lines.push('', `Cold start of the target: ${idle}.`);
  if (load.drift)
    lines.push(
      '',
      `Drift: p50 × ${load.drift.p50_ratio} from first to last window${load.drift.rss_growth_bytes !== undefined ? `; memory ${load.drift.rss_growth_bytes >= 0 ? '+' : ''}${mebibytes(load.drift.rss_growth_bytes)}` : ''}.`,
    );
  return lines;
}
