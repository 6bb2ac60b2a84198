// How much of this machine's CPU its host took while a measurement ran. On a virtual machine the
// hypervisor runs other guests on the same cores; Linux counts the time a vCPU was ready to run
// but not running as "steal". A latency tail measured while steal was high says more about the
// neighbours than about the server, so bench:ref prints it beside each round (it judges nothing).
import { readFileSync } from 'node:fs';

/** Cumulative CPU time counters of all cores, in clock ticks; undefined where /proc/stat is absent. */
export interface CpuCounters {
  steal: number;
  total: number;
}

export function cpuCounters(read: () => string = readProcStat): CpuCounters | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  // "cpu  user nice system idle iowait irq softirq steal guest guest_nice" (older kernels stop earlier).
  const fields = text.split('\n', 1)[0]!.trim().split(/\s+/);
  if (fields[0] !== 'cpu' || fields.length < 9) return undefined;
  const values = fields.slice(1, 9).map(Number);
  if (values.some((value) => !Number.isFinite(value))) return undefined;
  return { steal: values[7]!, total: values.reduce((sum, value) => sum + value, 0) };
}

/** The share (0–1) of all cores' time that went to steal between two readings. */
export function stealShare(before: CpuCounters | undefined, after: CpuCounters | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}

function readProcStat(): string {
  return readFileSync('/proc/stat', 'utf8');
}
