import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { LinesQuery, type Lines } from '../../../schemas/api';
import type { AppContext } from '../app';
import { readBlobStream } from '../../git/blob-stream';
import { pathForGit } from '../../git/path-bytes';
import { checkRelativePath, decodeTail } from '../paths';
import { refuse } from '../security';
import { notFound, textEntry } from './text-entry';

/** Text files longer than this are not sent as lines: the reader has the diff, and a file this size is not read by context. */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * `GET /api/lines/<ref>?side=after|before&from=&to=`: lines of a file of the material, from
 * the round itself: the captured tree for the after side, the round's base for the before
 * side (under the old path of a rename). Never the working tree, never a withheld or binary file.
 */
export function lineRoutes(api: FastifyInstance, context: AppContext): void {
  api.get('/lines/*', async (request, reply) => {
    const ref = checkRelativePath(decodeTail(request.raw.url ?? '', '/api/lines/'));
    const query = LinesQuery.safeParse(request.query);
    if (!query.success)
      return refuse(reply, 400, 'bad-query', 'side is before or after; from and to are line numbers from 1.');
    const found = await textEntry(context, ref, reply);
    if (!('entry' in found)) return found;
    const { entry, source } = found;
    const { side } = query.data;
    if (side === 'after' && entry.status === 'deleted')
      return notFound(reply, `'${ref}' was deleted in this round: it has no after version.`);
    if (side === 'before' && entry.status === 'added')
      return notFound(reply, `'${ref}' was added in this round: it has no before version.`);
    const tree = side === 'after' ? source.tree : source.base;
    const file =
      side === 'before' && entry.from !== undefined
        ? pathForGit(entry.from, entry.from_base64)
        : pathForGit(ref, entry.ref_base64);
    const stream = tree ? await readBlobStream(context.repo, tree, file) : null;
    if (!stream)
      return notFound(
        reply,
        `'${ref}' has no ${side} version in this round's git objects (the round's refs may be gone).`,
      );
    const text = await readAll(stream);
    if (text === null)
      return refuse(reply, 413, 'too-large', `'${ref}' is over ${MAX_BYTES / 1024 / 1024} MB; read it in your editor.`);
    const all = splitLines(text);
    const from = Math.max(1, query.data.from ?? 1);
    const to = Math.min(all.length, query.data.to ?? all.length);
    const body: Lines = { side, total: all.length, from, lines: to >= from ? all.slice(from - 1, to) : [] };
    return reply.type('application/json; charset=utf-8').send(body);
  });
}

/** The lines of a file as git numbers them: a last line without a newline is a line, a final newline starts none. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

async function readAll(stream: Readable): Promise<string | null> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of stream as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BYTES) {
      stream.destroy();
      return null;
    }
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}
