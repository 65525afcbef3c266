import type { FastifyInstance } from 'fastify';
import type { WhitespaceDiff } from '../../../schemas/api';
import type { AppContext } from '../app';
import { hunkStart } from '../../git/diff';
import { DIFF_FLAGS } from '../../git/git';
import { checkRelativePath, decodeTail } from '../paths';
import { refuse } from '../security';
import { notFound, textEntry } from './text-entry';

/**
 * `GET /api/whitespace/<ref>`: git's own `diff -w` of a modified or renamed text file
 * between the round's base and its captured tree (under the old path of a rename), for
 * the reader who hides whitespace-only changes. Only files of the material; never the
 * working tree, never a withheld, binary or submodule file.
 */
export function whitespaceRoutes(api: FastifyInstance, context: AppContext): void {
  api.get('/whitespace/*', async (request, reply) => {
    const ref = checkRelativePath(decodeTail(request.raw.url ?? '', '/api/whitespace/'));
    const found = await textEntry(context, ref, reply);
    if (!('entry' in found)) return found;
    const { entry, source } = found;
    if (entry.status !== 'modified' && entry.status !== 'renamed')
      return refuse(reply, 400, 'not-modified', `'${ref}' was ${entry.status}: every line of it changed.`);
    const { base, tree } = source;
    if (!base || !tree) return notFound(reply, `This round names no base and tree to compare '${ref}' in.`);
    // Two blobs by path: a rename is compared with its old path, and nothing else is read.
    const output = await context.repo.git
      .runBytes(['diff', ...DIFF_FLAGS, '-w', `${base}:${entry.from ?? ref}`, `${tree}:${ref}`])
      .catch(() => null);
    if (output === null)
      return notFound(reply, `'${ref}' is not in this round's git objects (the round's refs may be gone).`);
    const at = hunkStart(output);
    const body: WhitespaceDiff = { diff: at === -1 ? '' : output.subarray(at).toString('utf8') };
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
