import { useEffect, useState } from 'react';
import type { Waiting } from '../../schemas/api';
import type { HandOver as HandOverRecord } from '../../schemas/notes';
import type { Api } from '../api/client';
import { pendingHandOver, type RoundMark } from '../../shared/handover';
import type { NotesApi } from '../state/notes-api';
import './handover.css';

interface Props {
  api: Api;
  notes: NotesApi;
  /** How many open notes there are to hand over. */
  open: number;
  /** notes.json's hand-overs, as the server last read them. */
  handedOver: HandOverRecord[] | undefined;
  round: RoundMark;
  /** The agent waiting for a hand-over (`involut notes --wait`), when one is. */
  waiting: Waiting | null;
}

/** States a note can be in that sending again will not fix: the reader must choose first. */
const STUCK = new Set(['conflict', 'gone', 'refused']);

/**
 * "Hand over": tells the agent the notes are ready (a `handedOver` record in notes.json,
 * which `involut notes --wait` is watching for). Unsent drafts are sent first; a note that
 * cannot be sent stops the hand-over, named. Beside it: whether the agent waits or works.
 */
export function HandOver({ api, notes, open, handedOver, round, waiting }: Props) {
  const [phase, setPhase] = useState<'idle' | 'saving' | 'sending'>('idle');
  // What the last press said, and how many hand-overs notes.json held then: a "Handed over" line
  // gives way to the lasting one below once notes.json shows the new record, in whichever order
  // the answer and the file's change arrive.
  const [pressed, setPressed] = useState<{ text: string; before: number } | null>(null);
  const recorded = handedOver?.length ?? 0;
  const setSaid = (text: string | null) => setPressed(text === null ? null : { text, before: recorded });
  const stuck = notes.unsaved.filter((key) => STUCK.has(notes.status(key)?.state ?? ''));

  const send = () => {
    setPhase('sending');
    api.handOver(open).then(
      () => {
        setPhase('idle');
        setSaid(open === 0 ? 'Handed over: nothing to address.' : `Handed over ${count(open)}.`);
      },
      (error: Error) => {
        setPhase('idle');
        setSaid(`Not handed over: ${error.message}`);
      },
    );
  };
  const refuse = (keys: string[]) => {
    setPhase('idle');
    const titles = keys.map((key) => `“${notes.notes[key]?.title || key}”`).join(', ');
    setSaid(`Not handed over: ${keys.length === 1 ? 'this note is' : 'these notes are'} not saved: ${titles}.`);
  };
  const press = () => {
    setSaid(null);
    if (stuck.length > 0) return refuse(stuck);
    if (notes.unsaved.length === 0) return send();
    setPhase('saving');
    notes.retry();
  };
  // Drafts are being saved: hand over once they all are, or stop at one that cannot be.
  useEffect(() => {
    if (phase !== 'saving') return;
    if (stuck.length > 0) refuse(stuck);
    else if (notes.unsaved.length === 0) send();
  });

  const pending = pendingHandOver(handedOver, round);
  const said = pressed && !(pressed.text.startsWith('Handed over') && recorded > pressed.before) ? pressed.text : null;
  const where = pending
    ? waiting
      ? 'The agent is waiting for your next hand-over'
      : `Handed over at ${clock(pending.at)}; the agent is working`
    : waiting
      ? 'The agent is waiting for your hand-over'
      : null;
  return (
    <span className="inv-handover">
      <button
        type="button"
        className="inv-handover-button"
        onClick={press}
        disabled={phase !== 'idle'}
        title="Tell the agent your notes are ready: `involut notes --wait` returns with them"
      >
        {phase === 'saving' ? 'Hand over: saving… ' : 'Hand over '}
        <span className="inv-handover-count">{open}</span>
        <span className="inv-visually-hidden">
          {` ${open === 1 ? 'note' : 'notes'}${open === 0 ? ': nothing to address' : ''}`}
        </span>
      </button>
      <span className="inv-handover-state" role="status" title={said ?? where ?? undefined}>
        {said ?? where}
      </span>
    </span>
  );
}

const count = (n: number) => `${n} ${n === 1 ? 'note' : 'notes'}`;

/** The hour and minute of an ISO time, in the reader's own clock. */
function clock(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
