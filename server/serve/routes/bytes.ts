import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../app';
import { contentTypeOf } from '../content-type';
import { readBlobStream, SMALL_BLOB_BYTES, SmallBlobs } from '../../git/blob-stream';
import { pathForGit } from '../../git/path-bytes';
import { checkRelativePath, decodeTail, insideFolder } from '../paths';
import { assertNoLinks } from '../../review/review-dir';
import { refuse } from '../security';

/** `GET /api/blob/<path>` (before copies in `.review/blobs/`) and `GET /api/after/<ref>` (after bytes from the captured tree). */
export function byteRoutes(api: FastifyInstance, context: AppContext): void {
  const small = new SmallBlobs(context.repo);
  api.addHook('onClose', async () => small.close());
  api.get('/blob/*', async (request, reply) => {
    const relative = decodeTail(request.raw.url ?? '', '/api/blob/');
    const blobs = context.files.review.blobs;
    const file = insideFolder(blobs, relative);
    // Neither .review, nor blobs/, nor anything under it may be a link: nothing is served through one.
    await assertNoLinks(context.files.review, file);
    // A symlink inside blobs/ must not lead out of it.
    const real = await realpath(file).catch(() => null);
    const realBlobs = await realpath(blobs).catch(() => null);
    if (!real || !realBlobs || !real.startsWith(realBlobs + path.sep) || !(await stat(real)).isFile()) {
      return notFound(reply, `No before copy at blobs/${relative}.`);
    }
    return reply.type(contentTypeOf(file, false)).send(createReadStream(real));
  });

  api.get('/after/*', async (request, reply) => {
    const ref = checkRelativePath(decodeTail(request.raw.url ?? '', '/api/after/'));
    const material = await context.files.materialEntries();
    const entry = material?.byRef.get(ref);
    if (!material?.tree || !entry) return notFound(reply, `'${ref}' is not a file of the current material.`);
    if (entry.status === 'deleted')
      return notFound(reply, `'${ref}' was deleted in this round: it has no after version.`);
    if (entry.withheld)
      return notFound(reply, `'${ref}' is withheld by a privacy exclude: its content never leaves git.`);
    const file = pathForGit(ref, entry.ref_base64);
    const whole =
      typeof file === 'string' && entry.bytes != null && entry.bytes <= SMALL_BLOB_BYTES
        ? await small.read(material.tree, file)
        : null;
    const stream = whole ?? (await readBlobStream(context.repo, material.tree, file));
    if (!stream)
      return notFound(
        reply,
        `'${ref}' has no file content in the captured tree (a submodule, or the round's ref is gone).`,
      );
    return reply.type(contentTypeOf(ref, !entry.binary)).send(stream);
  });
}

function notFound(reply: FastifyReply, message: string): FastifyReply {
  return refuse(reply, 404, 'not-found', message);
}
