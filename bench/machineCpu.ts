import { readdir, readFile } from 'node:fs/promises';

/** The machine's CPU counters at one moment: all cores from /proc/stat, and each running program's by its name. */
export interface CpuSnapshot {
  busyTicks: number;
  totalTicks: number;
  /** Ticks (user + system) of the processes alive now, summed by program name (`postgres`, `temporal`, `node`, ...). */
  byProgram: Map<string, number>;
}

/** Where the machine's CPU went between two snapshots, in cores (1 = one core busy the whole time). */
export interface CpuUse {
  /** Of all cores, in percent: near 100 means the cores were the wall. */
  machineBusyPercent: number;
  cores: number;
  /** Cores used by each program name that used at least a hundredth of one. */
  byProgram: Record<string, number>;
}

const TICKS_PER_SECOND = 100;

export async function cpuSnapshot(): Promise<CpuSnapshot> {
  const [cpu] = (await readFile('/proc/stat', 'utf8')).split('\n');
  const ticks = cpu!.trim().split(/\s+/).slice(1).map(Number);
  // Fields: user nice system idle iowait irq softirq steal; idle and iowait are the cores' time doing nothing.
  const idle = ticks[3]! + ticks[4]!;
  const totalTicks = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  const byProgram = new Map<string, number>();
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (stat === undefined) continue; // ended since the listing
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    byProgram.set(name, (byProgram.get(name) ?? 0) + cpuTicksOf(stat));
  }
  return { busyTicks: totalTicks - idle, totalTicks, byProgram };
}

/** CPU time (ms, user and system) a thread of this process has used so far, by its kernel thread id. */
export async function threadCpuMs(tid: number): Promise<number> {
  const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8');
  return (cpuTicksOf(stat) * 1000) / TICKS_PER_SECOND;
}

/** utime + stime of a /proc stat line: fields 14 and 15, counted after the name (which may hold spaces). */
function cpuTicksOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** What was used between `before` and `after`, over `seconds` of wall time. Processes that ended in between are not counted by program. */
export function cpuUse(before: CpuSnapshot, after: CpuSnapshot, seconds: number): CpuUse {
  const byProgram: Record<string, number> = {};
  for (const [name, ticks] of after.byProgram) {
    const cores = (ticks - (before.byProgram.get(name) ?? 0)) / TICKS_PER_SECOND / seconds;
    if (cores >= 0.01) byProgram[name] = Math.round(cores * 100) / 100;
  }
  const total = after.totalTicks - before.totalTicks;
  return {
    machineBusyPercent: Math.round(((after.busyTicks - before.busyTicks) / Math.max(1, total)) * 1000) / 10,
    cores: Math.round((total / TICKS_PER_SECOND / seconds) * 10) / 10,
    byProgram,
  };
}
