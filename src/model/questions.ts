import type { Card } from '../../schemas/cards';

/** The cards, in reading order, whose question the reader has not answered or skipped yet. */
export function waitingQuestions(cards: Card[], answered: (id: string) => boolean): string[] {
  return cards.filter((card) => card.question && !answered(card.id)).map((card) => card.id);
}
