// CPU time and memory of processes the kit can see, from Linux's /proc (undefined elsewhere): what
// tells a load result whether the generator or the server used the machine, and how the server's
// memory moved. Times are in milliseconds.
import { readFileSync } from 'node:fs';

// Linux reports times in clock ticks of USER_HZ, 100 on every mainstream configuration.
const TICKS_PER_SECOND = 100;

/** The fields of a /proc stat line after the parenthesised command name (which may hold spaces). */
function statFields(path: string): string[] | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text.slice(text.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return undefined;
  }
}

const ticksToMs = (...ticks: (string | number)[]) => (ticks.reduce<number>((sum, tick) => sum + Number(tick), 0) * 1000) / TICKS_PER_SECOND;

/** User and system time of every thread of process `pid` (utime and stime, the 12th and 13th fields after the name). */
export function processCpuMs(pid: number): number | undefined {
  const fields = statFields(`/proc/${pid}/stat`);
  return fields ? ticksToMs(fields[11]!, fields[12]!) : undefined;
}

/** User and system time of one thread: the main thread (the one that runs JavaScript) when `thread` is the pid. */
export function threadCpuMs(pid: number, thread = pid): number | undefined {
  const fields = statFields(`/proc/${pid}/task/${thread}/stat`);
  return fields ? ticksToMs(fields[11]!, fields[12]!) : undefined;
}

/**
 * CPU time of this process's children that have ended and been waited for (cutime and cstime):
 * k6 processes, read before and after they run. Exact, unlike sampling a child that is gone.
 */
export function endedChildrenCpuMs(): number | undefined {
  const fields = statFields('/proc/self/stat');
  return fields ? ticksToMs(fields[13]!, fields[14]!) : undefined;
}

/** Cumulative CPU time counters of all cores, in clock ticks; undefined where /proc/stat is absent. */
export interface CpuCounters {
  /** Time no process used: idle and iowait. */
  idle: number;
  /** Time the host took from this virtual machine. */
  steal: number;
  total: number;
}

/** The machine's CPU counters, from /proc/stat's first line. */
export function cpuCounters(read: () => string = () => readFileSync('/proc/stat', 'utf8')): CpuCounters | undefined {
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
  return { idle: values[3]! + values[4]!, steal: values[7]!, total: values.reduce((sum, value) => sum + value, 0) };
}

/** Idle time of the whole machine in milliseconds, summed over its cores: what no process used. */
export function machineIdleMs(): number | undefined {
  const counters = cpuCounters();
  return counters ? ticksToMs(counters.idle) : undefined;
}

/** CPU time of this process's own threads (the kit, and the embedded server when there is one). */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Resident set of process `pid` in bytes (VmRSS). */
export function processRssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
