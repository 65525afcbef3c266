import { readFileSync } from 'node:fs';

/** Whether a process with this id runs (one of another user's counts: it cannot be signalled, but it is there). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process `pid` started, as the kernel counts it (clock ticks since boot, from
 * `/proc/<pid>/stat`); null where there is no /proc or no such process. A lock records it
 * beside the process number, so a number the system gave again to another process is not
 * taken for the lock's holder.
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name (field 2) is in parentheses and may hold spaces: the fields are counted after it.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start && /^\d+$/.test(start) ? start : null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote `start` for `pid` still runs (not another that got its number since). */
export function isSameProcessAlive(pid: number, start: string | null): boolean {
  if (!isAlive(pid)) return false;
  if (start === null) return true;
  const now = processStart(pid);
  return now === null || now === start;
}
