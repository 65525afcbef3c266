import type { FastifyReply } from 'fastify';
import type { RoundEntry, RoundIndex } from '../../../schemas/api';
import type { AppContext } from '../app';
import { refuse } from '../security';

/**
 * The text file of the current material that a byte route reads lines of, or the refusal
 * already sent: not a file of the material, withheld (its content never leaves git), or a
 * binary or submodule (no lines).
 */
export async function textEntry(
  context: AppContext,
  ref: string,
  reply: FastifyReply,
): Promise<{ entry: RoundEntry; source: RoundIndex['source'] } | FastifyReply> {
  const { state, index } = await context.files.read('material');
  const entry = index?.byRef.get(ref);
  if (state.state !== 'ok' || !entry) return notFound(reply, `'${ref}' is not a file of the current material.`);
  if (entry.withheld)
    return notFound(reply, `'${ref}' is withheld by a privacy exclude: its content never leaves git.`);
  if (entry.binary || entry.submodule)
    return refuse(reply, 400, 'not-text', `'${ref}' has no lines: it is a binary file or a submodule.`);
  return { entry, source: state.data.source };
}

export function notFound(reply: FastifyReply, message: string): FastifyReply {
  return refuse(reply, 404, 'not-found', message);
}
