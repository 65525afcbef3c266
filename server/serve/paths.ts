import path from 'node:path';

/** A request path that must never reach the file system or git. */
export class PathRefused extends Error {
  constructor(
    readonly raw: string,
    reason: string,
  ) {
    super(`Refused path '${raw.slice(0, 200)}': ${reason}.`);
    this.name = 'PathRefused';
  }
}

/**
 * The part of a request URL after `prefix`, percent-decoded exactly once.
 * Works on the raw URL the client sent, not on the router's decoded copy, so
 * a path is decoded in one place and one way.
 */
export function decodeTail(rawUrl: string, prefix: string): string {
  const pathname = rawUrl.split('?', 1)[0]!.split('#', 1)[0]!;
  if (!pathname.startsWith(prefix)) throw new PathRefused(pathname, `it does not start with ${prefix}`);
  try {
    return decodeURIComponent(pathname.slice(prefix.length));
  } catch {
    throw new PathRefused(pathname, 'it is not valid percent-encoding');
  }
}

/**
 * Checks a decoded request path (relative, `/`-separated) and returns it unchanged.
 * Refused: empty, NUL, backslashes, absolute paths and drive letters, `.`/`..`/empty
 * segments, and any of those hidden under further layers of percent-encoding
 * (`%252e%252e%252f`), which a careless second decode elsewhere would turn into a traversal.
 */
export function checkRelativePath(decoded: string): string {
  let layer = decoded;
  for (let depth = 0; depth < 4; depth += 1) {
    const reason = unsafeReason(layer);
    if (reason)
      throw new PathRefused(
        decoded,
        depth === 0 ? reason : `it hides ${reason.replace(/^it /, '')} under percent-encoding`,
      );
    const next = decodeLayer(layer);
    if (next === layer) return decoded;
    layer = next;
  }
  throw new PathRefused(decoded, 'it is percent-encoded too many times');
}

/** Joins a checked relative path to its folder and makes sure the result stays inside it. */
export function insideFolder(folder: string, relative: string): string {
  const file = path.resolve(folder, checkRelativePath(relative));
  const back = path.relative(folder, file);
  if (back === '' || back.startsWith('..') || path.isAbsolute(back)) {
    throw new PathRefused(relative, 'it leaves its folder');
  }
  return file;
}

function unsafeReason(candidate: string): string | null {
  if (candidate === '') return 'it is empty';
  if (candidate.includes('\0')) return 'it contains a NUL byte';
  if (candidate.includes('\\')) return 'it contains a backslash';
  if (candidate.startsWith('/') || /^[A-Za-z]:/.test(candidate)) return 'it is absolute';
  for (const segment of candidate.split('/')) {
    if (segment === '..') return 'it climbs out with ..';
    if (segment === '.' || segment === '') return 'it has an empty or . segment';
  }
  return null;
}

function decodeLayer(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a literal `%` in a file name: nothing more to decode
  }
}
