import type { HandOver } from '../schemas/notes';

/** The round being read, as material.json has it: its number (when recorded) and when it was captured. */
export interface RoundMark {
  round?: number;
  generated: string;
}

/**
 * Whether a hand-over was made on the latest round (so the agent still has it to address),
 * not on an earlier one: by round number when both have one, else by time.
 */
export function newerThanRound(handOver: HandOver, round: RoundMark | null): boolean {
  if (round === null) return true;
  if (handOver.round !== undefined && round.round !== undefined) return handOver.round >= round.round;
  return Date.parse(handOver.at) > Date.parse(round.generated);
}

/** The last hand-over, when it is still for the latest round; else null. */
export function pendingHandOver(handedOver: HandOver[] | undefined, round: RoundMark | null): HandOver | null {
  const last = handedOver?.at(-1);
  return last && newerThanRound(last, round) ? last : null;
}
