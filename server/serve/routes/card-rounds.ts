import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { CardRounds } from '../../../schemas/api';
import type { AppContext } from '../app';
import { finishedRounds, keptCards } from '../../round/rounds';
import { cardRounds } from '../../round/cards';

/**
 * `GET /api/card-rounds`: which round each card of cards.json comes from, from the cards
 * kept per round in `.review/rounds/`. Without an earlier round's cards nothing can be told
 * apart, and the answer says why instead of calling every card new.
 */
export function cardRoundRoutes(api: FastifyInstance, context: AppContext): void {
  api.get('/card-rounds', async (_request, reply) => {
    const answer = await cardRoundsNow(context);
    return reply.type('application/json; charset=utf-8').send(answer);
  });
}

async function cardRoundsNow(context: AppContext): Promise<CardRounds> {
  const { state } = await context.files.read('cards');
  if (state.state !== 'ok') return none('There is no readable cards.json.');
  const { review } = context.files;
  const { round, rounds } = await cardRounds(review, state.data.cards);
  if (round === 1) return none('This is the first round: every card belongs to it.');
  const earlier = (await finishedRounds(review)).filter((n) => n < round);
  const kept = await Promise.all(
    earlier.map((n) =>
      stat(keptCards(review, n)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!kept.includes(true))
    return none(
      `No cards of a round before round ${round} are kept in .review/rounds/ (an older Involut captured it).`,
    );
  return { state: 'ok', data: { round, rounds: Object.fromEntries(rounds) } };
}

const none = (reason: string): CardRounds => ({ state: 'none', reason });
