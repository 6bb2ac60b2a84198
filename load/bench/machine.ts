// How much of this machine's CPU its host took while a measurement ran. On a virtual machine the
// hypervisor runs other guests on the same cores; Linux counts the time a vCPU was ready to run
// but not running as "steal". A latency tail measured while steal was high says more about the
// neighbours than about the server, so bench:ref prints it beside each round (it judges nothing).
import type { CpuCounters } from '../process-usage.ts';

/** The share (0–1) of all cores' time that went to steal between two readings. */
export function stealShare(before: CpuCounters | undefined, after: CpuCounters | undefined): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}
