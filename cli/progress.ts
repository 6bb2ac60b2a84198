// What a run prints while it goes: live lines on a terminal, plain lines otherwise.
import type { Check, CheckResult } from '../harness/check.ts';
import { describeOverlap } from '../harness/overlap.ts';
import { terminalText } from '../reports/escape.ts';

export interface ProgressOptions {
  tty: boolean;
  color: boolean;
  quiet: boolean;
  verbose: boolean;
  write(text: string): void;
}

const SYMBOL = { pass: '✓', fail: '✗', skip: '-', observed: '○' } as const;
const COLOR = { pass: 32, fail: 31, skip: 90, observed: 36 } as const;

export interface Progress {
  start(check: Check): void;
  result(result: CheckResult): void;
  /** What the running check is waiting for (a long wait), so that a quiet terminal does not look stuck. */
  announce(check: Check, text: string): void;
  /** One line of plain text (its control characters escaped like a server's: it may quote one). */
  line(text: string): void;
}

// Everything a result carries may hold a server's text (messages, summaries, curl lines with ids it
// made): each piece goes through terminalText before it is painted, so that the only control
// sequences that reach the terminal are the command line's own (colours, the live-line rewrite).
export function createProgress(options: ProgressOptions): Progress {
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const safe = terminalText;
  let currentArea = '';
  /** A heading where a new area starts: at a check's start, or at a result that had none (a response rule's). */
  const enter = (area: string) => {
    if (area === currentArea) return;
    currentArea = area;
    options.write(`\n${paint(1, safe(area))}\n`);
  };
  return {
    // With several workers, checks start out of the catalogue's order while results are told in it:
    // a start only rewrites the live line (a terminal's), and areas are entered by results.
    start(check) {
      if (options.quiet || !options.tty) return;
      options.write(`\r\u001b[2K  … ${safe(check.id)}`);
    },
    result(result) {
      if (options.quiet) return;
      if (result.area !== currentArea) enter(result.area);
      const level = result.level === 'MUST' ? '' : ` [${result.level}]`;
      // A response rule took no time of its own: what it says is how many exchanges it judged.
      const figure = result.rule ? `judged ${result.rule.judged}` : `${Math.round(result.durationMs)} ms`;
      const line = `  ${paint(COLOR[result.status], SYMBOL[result.status])} ${safe(result.id)}${level} ${safe(result.title)} ${paint(90, `(${figure})`)}`;
      options.write(`${options.tty ? '\r\u001b[2K' : ''}${line}\n`);
      if (result.status === 'fail' || result.status === 'skip') {
        options.write(`      ${paint(COLOR[result.status], safe(result.message ?? ''))}\n`);
      }
      // A skip for want of overlap already gives the figures in its message.
      if (result.overlap && result.status !== 'skip') options.write(`      ${paint(90, `overlap: ${safe(describeOverlap(result.overlap))}`)}\n`);
      if (result.status === 'observed' && result.observation) {
        options.write(`      ${paint(90, `observed: ${safe(result.observation.summary)}`)}\n`);
      }
      if (result.status === 'fail' && options.verbose) {
        for (const exchange of result.exchanges) options.write(`      ${paint(90, safe(exchange.curl))}\n`);
      }
    },
    announce(check, text) {
      if (options.quiet) return;
      // On a terminal the check's live line stays last, now saying what it waits for.
      options.write(options.tty ? `\r\u001b[2K  … ${safe(check.id)} ${paint(90, `(${safe(text)})`)}` : `      ${paint(90, safe(text))}\n`);
    },
    line(text) {
      options.write(`${safe(text)}\n`);
    },
  };
}
