import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Cards } from '../../../schemas/cards';
import { buildDemoRepo, demoFixture } from '../../demo/build-repo';
import { emitRound, type RoundSummary } from '../../round/material';
import { openRepo } from '../../git/repo';
import { startScriptedAgent } from '../../demo/scripted-agent';
import { runnable } from '../invocation';
import { Output } from '../output';
import { reviewDir, writeFileAtomic } from '../../review/review-dir';
import { describeRound, jsonRound } from './rounds';

export interface DemoFlags {
  /** As `involut serve`: default 4747 or the next free port; 0: any free port. */
  port?: number;
  host?: string;
  open: boolean;
  /** Leave the demo folder in place when the server stops. */
  keep: boolean;
}

/**
 * `involut demo`: builds a small real repository with a round of an agent's work in a
 * temporary folder, captures it with the same code as `involut rounds`, writes the cards
 * an agent would have written (`fixtures/demo-repo/cards.json`: every card field, every
 * render kind, one file left unclaimed on purpose), then serves it exactly as
 * `involut serve` does, until SIGINT or SIGTERM. The folder is removed afterwards unless
 * `keep`.
 */
export async function demo(flags: DemoFlags, out: Output): Promise<void> {
  const early = new EarlySignals();
  let built: { dir: string; folder: string } | null = null;
  try {
    built = await buildDemoRepo();
    const { dir, folder } = built;
    const summary = await emitRound(await openRepo(dir), {});
    for (const warning of summary.warnings) out.warn(warning);
    const cards = await writeDemoCards(dir);
    const claimed = new Set(cards.cards.flatMap((card) => card.refs));
    const material = JSON.parse(await readFile(summary.materialFile, 'utf8')) as { material: Array<{ ref: string }> };
    const unclaimed = material.material.map((entry) => entry.ref).filter((ref) => !claimed.has(ref));
    const facts = {
      folder,
      kept: flags.keep,
      cards: reviewDir(dir).cards,
      cards_count: cards.cards.length,
      request: cards.request ?? null,
      unclaimed,
      ...jsonRound(summary),
    };
    const lines = describe(summary, dir, cards, unclaimed, flags.keep);
    // Loaded only here, as `involut serve` does: Fastify alone takes a while to import.
    const { serve } = await import('./serve');
    // Stopped while it was being built: nothing to serve.
    if (early.pending) info(out, `${early.pending}: stopping before serving.`);
    else {
      // The agent that answers the reader's notes, waiting as `involut notes --wait` would.
      const agent = startScriptedAgent(dir, (line) => info(out, line));
      try {
        await serve(
          { repo: dir, port: flags.port, host: flags.host, open: flags.open },
          new DemoOutput(out, facts, lines, early),
        );
      } finally {
        await agent.stop();
      }
    }
    if (flags.keep) info(out, `Kept the demo repository in ${dir}; \`involut --repo ${dir}\` serves it again.`);
  } finally {
    early.release();
    if (built && !flags.keep) {
      await rm(built.folder, { recursive: true, force: true });
      info(out, `Removed the demo folder ${built.folder}.`);
    }
  }
}

/**
 * Holds a SIGINT or SIGTERM that arrives before `serve` listens for them: while the demo is
 * built, or between the URL being printed and serve's handlers being set (a test or a
 * supervisor may answer the URL with SIGTERM at once). Without it the signal's default
 * action would end the process there and leave the demo folder behind. `handOn` gives a held
 * signal to serve once it listens; `release` stops holding.
 */
class EarlySignals {
  pending: NodeJS.Signals | null = null;
  private readonly hold = (signal: NodeJS.Signals) => {
    this.pending ??= signal;
  };

  constructor() {
    process.on('SIGINT', this.hold);
    process.on('SIGTERM', this.hold);
  }

  /** Called as serve prints its URL: it sets its handlers in the same turn, so on the next one they are there. */
  handOn(): void {
    setImmediate(() => {
      const held = this.pending;
      this.release();
      // serve's handler takes it; if serve already had it too, that handler is gone and this does nothing.
      if (held) process.emit(held, held);
    });
  }

  release(): void {
    process.off('SIGINT', this.hold);
    process.off('SIGTERM', this.hold);
  }
}

/** Copies the demo's cards into `.review/cards.json` the way an agent should write it: whole, through a rename. */
async function writeDemoCards(dir: string): Promise<Cards> {
  const text = await readFile(path.join(demoFixture(), 'cards.json'), 'utf8');
  const cards = Cards.parse(JSON.parse(text));
  await writeFileAtomic(reviewDir(dir).cards, text);
  return cards;
}

function describe(summary: RoundSummary, dir: string, cards: Cards, unclaimed: string[], keep: boolean): string[] {
  const renders = [...new Set(cards.cards.map((card) => card.render ?? 'code'))];
  const intents = [...new Set(cards.cards.map((card) => card.intent))];
  return [
    'Involut demo: Dungeon Dash, a small game, after a coding agent worked on this request:',
    `  “${cards.request}”`,
    '',
    ...describeRound(summary, dir),
    `  cards     ${cards.cards.length} in .review/cards.json: intents ${intents.join(', ')}; drawings ${renders.join(', ')}`,
    `  unclaimed ${unclaimed.length ? `${unclaimed.join(', ')} (no card claims it, on purpose: the viewer lists it apart)` : 'none'}`,
    '',
    'Its agent waits for your notes: write some in the viewer, press “Hand over”, and it answers each',
    'with a card in round 2 (a script: it keeps your words as a TODO where you wrote them).',
    '',
    keep
      ? `The demo folder ${dirOf(dir)} stays when the server stops (--keep).`
      : `The demo folder ${dirOf(dir)} is removed when the server stops; --keep keeps it.`,
  ];
}

const dirOf = (dir: string) => path.dirname(dir);

/**
 * The output `serve` writes through: its one result (the viewer URL) carries the demo's
 * facts in --json, and in text is followed by what the demo built (on stderr, like the
 * rest of serve's words, so stdout's first line stays the URL).
 */
class DemoOutput extends Output {
  constructor(
    out: Output,
    private readonly facts: Record<string, unknown>,
    private readonly lines: string[],
    private readonly early: EarlySignals,
  ) {
    super(out.json, out.quiet);
  }

  override result(data: unknown, lines: () => string[]): void {
    super.result({ ...(data as Record<string, unknown>), ...this.facts }, lines);
    info(this, this.lines.join('\n'));
    this.early.handOn();
  }
}

function info(out: Output, text: string): void {
  if (!out.quiet && !out.json) process.stderr.write(`${runnable(text)}\n`);
}
