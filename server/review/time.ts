/** Now as ISO 8601 with the local offset, e.g. `2026-08-30T16:40:00-03:00`. */
export function localIsoTime(date = new Date()): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** The same with milliseconds, e.g. `2026-08-30T16:40:00.250-03:00`: for times compared with each other. */
export function localIsoTimeMs(date = new Date()): string {
  const seconds = localIsoTime(date);
  return `${seconds.slice(0, 19)}.${String(date.getMilliseconds()).padStart(3, '0')}${seconds.slice(19)}`;
}
