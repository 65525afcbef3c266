import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';

/** One command's cost: wall time measured here, peak RSS as GNU time reports it. */
export interface Sample {
  /** Wall time from spawn to exit, ms (high resolution; includes the `time` wrapper's exec). */
  ms: number;
  /** GNU time's `%M`: the largest resident set of the command or any one of its descendants, KiB. */
  maxRssKiB: number;
  /** Peak of the summed RSS of the whole process tree, sampled every few ms (only when asked), KiB. */
  treeRssKiB?: number;
  /** Bytes the command wrote to stdout (only when counted). */
  stdoutBytes?: number;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where stdout goes: `/dev/null` (never read, never counted) or `count` (read and discarded, counted). */
  stdout: 'devnull' | 'count';
  /** Sample the whole process tree's RSS through /proc while the command runs. */
  sampleTree?: boolean;
}

/** Runs `argv` under `/usr/bin/time -f '%e %M'` and returns its wall time and peak RSS. */
export function measure(argv: string[], options: RunOptions): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const devnull = options.stdout === 'devnull' ? openSync('/dev/null', 'w') : null;
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%e %M', ...argv], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', devnull ?? 'pipe', 'pipe'],
    });
    if (devnull !== null) closeSync(devnull);
    let stdoutBytes = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const sampler = options.sampleTree && child.pid !== undefined ? treeSampler(child.pid) : null;
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const treeRssKiB = sampler?.stop();
      const lines = stderr.trim().split('\n');
      const last = lines[lines.length - 1] ?? '';
      const match = /^(\d+(?:\.\d+)?) (\d+)$/.exec(last);
      if (code !== 0 || !match) {
        reject(new Error(`${argv.join(' ')} failed (exit ${code}): ${stderr.trim().slice(0, 2000)}`));
        return;
      }
      resolve({
        ms,
        maxRssKiB: Number(match[2]),
        ...(treeRssKiB !== undefined ? { treeRssKiB } : {}),
        ...(options.stdout === 'count' ? { stdoutBytes } : {}),
      });
    });
  });
}

const PAGE_KIB = 4;

/** One process as /proc/<pid>/stat shows it: its command name and the fields after it (0: state, 1: parent…). */
export interface ProcessStat {
  pid: number;
  comm: string;
  fields: string[];
}

/** Every process on the machine now, and whether one descends from another (through at most 64 parents). */
export function processes(): { list: ProcessStat[]; descends: (pid: number, root: number) => boolean } {
  const list: ProcessStat[] = [];
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      list.push({ pid, comm: stat.slice(stat.indexOf('(') + 1, close), fields });
      parents.set(pid, Number(fields[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const descends = (pid: number, root: number) => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops++)
      if (p === root) return true;
    return false;
  };
  return { list, descends };
}

/**
 * Polls /proc for every descendant of `root` and keeps the largest sum of their
 * resident sets. Sampling can miss a short spike, so it is a lower bound, but it
 * counts processes that run at the same time (git beside node), which `%M` does not.
 */
function treeSampler(root: number): { stop: () => number } {
  let peak = 0;
  const tick = () => {
    const { list, descends } = processes();
    let sum = 0;
    for (const { pid, fields } of list) if (descends(pid, root)) sum += Number(fields[21]) * PAGE_KIB;
    peak = Math.max(peak, sum);
  };
  const timer = setInterval(tick, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function loadavg(): string {
  return readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
}
