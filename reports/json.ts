// results.json: the run model as is, for machines. Its shape is results.schema.json.
import type { RunReport } from './run-report.ts';

export function renderJson(report: RunReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
