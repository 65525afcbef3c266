#!/usr/bin/env node
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { version } from '../package.json';
import { InvolutError, machineFault } from './cli/errors';
import { involutCommand, runnable } from './cli/invocation';
import { Output } from './cli/output';

const HELP = `involut ${version}: review what a coding agent changed

Usage:
  involut [serve] [--port N] [--host H] [--no-open]
                                               serve the viewer for this repository (the first
                                               line printed is its URL, with the session token)
  involut rounds [--base REF | --since-last]   capture the round into .review/material.json
  involut rounds --begin                       record the base of the next round (run before the work)
  involut demo [--port N] [--host H] [--no-open] [--keep]
                                               build a small demo repository with a round of an agent's
                                               work and its cards, in a temporary folder, and serve it;
                                               its scripted agent answers your notes when you hand over
  involut prune [--keep N]                     remove older rounds nothing needs (rounds does it by itself,
                                               keeping the last 10 or .involut.json's "keep")
  involut check [--strict]                     check .review/cards.json and notes.json against the contract
                                               and the round: errors exit 1, warnings exit 0 (1 with --strict)
  involut notes [--all] [--wait [--new] [--timeout S]]
                                               print the open notes as Markdown for the agent (--all: every
                                               note, marked open, answered or resolved; --json: notes.json;
                                               --wait: first wait for the reader's hand-over, exit 3 on timeout)
  involut skill [--install [--hooks]]          print the skill that teaches an agent to work with Involut;
                                               --install writes it to .claude/skills/involut/SKILL.md and
                                               to a marked section of AGENTS.md (again: replaced in place);
                                               --hooks also adds a Claude Code Stop hook running rounds and
                                               check to .claude/settings.json
  involut --help | --version | <command> --help

Options for every command, before or after it:
  --repo DIR     the repository (default: the git top level of the current folder; demo builds its own)
  --json         machine-readable output on stdout; errors as {"error":{"code","message"}}
  --quiet        print nothing on success
  -h, --help     this help; after a command, that command's flags and an example

Exit codes: 0 done (check: no errors, and no warnings with --strict); 1 the command failed
(check: errors, or warnings with --strict); 2 the command line is wrong (an unknown command
or option, a missing value).

Options of serve: --port N (default 4747, else the next free port; 0: any free port),
--host H (default 127.0.0.1; anything else warns: the network could reach your code),
--no-open (print the URL, do not open a browser). A second \`involut\` for the same
repository prints the running server's URL and exits.

Options of demo: serve's --port, --host and --no-open; --keep (leave the demo folder in
place when the server stops; by default it is removed on Ctrl-C or SIGTERM).

The base of a round, in order: --base REF; --since-last (the tree the previous round
captured); the base recorded by \`involut rounds --begin\`; the merge-base with the default
branch (origin/HEAD, main, master) when HEAD is not on it; else HEAD.

Files: .review/material.json (written by \`involut rounds\`), .review/cards.json (written by
the agent), .review/notes.json (your notes). Privacy excludes: .involut.json
{"privacyExcludes": [...]} over ~/.config/involut/config.json over built-in defaults.
Rounds kept: the last 10 ({"keep": N} in .involut.json), the one before the newest, and each
one an open note was written on; \`rounds\` prunes the others once a round is finished.
`;

/** `involut <command> --help`: what the command does, its own flags, and an example. */
const COMMAND_HELP: Record<string, string> = {
  serve: `involut serve [--port N] [--host H] [--no-open]   (or just: involut)
Serve the viewer for this repository; the first line printed is its URL, with the session token.
A second \`involut\` for the same repository prints the running server's URL and exits.
  --port N     default 4747, else the next free port; 0: any free port
  --host H     default 127.0.0.1; anything else warns: the network could reach your code
  --no-open    print the URL, do not open a browser
Example: involut --no-open --port 0`,
  rounds: `involut rounds [--base REF | --since-last] | --begin
Capture the round (commits since its base, staged, unstaged, untracked) into .review/material.json.
  --begin        record the base of the next round; run it before the work starts
  --base REF     compare with this branch, tag or commit
  --since-last   compare with the tree the previous round captured
Without either, the base is the one --begin recorded, else the merge-base with the default
branch when HEAD is not on it, else HEAD.
Example: involut rounds --begin   (then, when the work is done: involut rounds)`,
  prune: `involut prune [--keep N]
Remove the finished rounds nothing needs now: their refs (refs/involut/rounds/<n>), their folders
(.review/rounds/<n>/) and every before copy in .review/blobs/ no kept round uses. Kept: the last
N rounds, the round before the newest, and each round an open note was written on. Never runs
git gc. \`involut rounds\` does this by itself after each round.
  --keep N   keep the last N rounds (default: "keep" in .involut.json, else 10)
Example: involut prune --keep 3`,
  demo: `involut demo [--port N] [--host H] [--no-open] [--keep]
Build a small demo repository with a round of an agent's work and its cards, in a temporary
folder, and serve it (serve's --port, --host and --no-open). A scripted agent waits for your
notes there: press "Hand over" in the viewer and it answers each with a card in the next round.
  --keep   leave the demo folder in place when the server stops (by default it is removed)
Example: involut demo --no-open --json`,
  check: `involut check [--strict]
Check .review/cards.json and notes.json against the contract, the round and what the viewer
draws. Earlier rounds' cards are never edited: what only the code moving on explains is
information about them, not a warning.
  --strict   warnings exit 1 too
Exit: 1 on errors (or warnings with --strict), else 0.
Example: involut check --strict --json`,
  notes: `involut notes [--all] [--wait [--new] [--timeout S]]
Print the open notes as Markdown for the agent, by card and by file, each with its key.
  --all         the answered and resolved ones too, each marked with its state
  --json        notes.json as it is
  --wait        first wait until the reader presses "Hand over" in the viewer (a hand-over
                newer than the latest round), then print; needs no running server
  --new         with --wait: wait for a hand-over made after this call
  --timeout S   with --wait: give up after S seconds (default 540) and exit 3, saying to
                run the same command again
Exit: 0 when it printed the notes, 3 when --wait timed out (run it again), 130 on Ctrl-C.
Example: involut notes --wait`,
  skill: `involut skill [--install [--hooks]]
Print the skill that teaches an agent to work with Involut.
  --install   write it to .claude/skills/involut/SKILL.md and to a marked section of AGENTS.md
              (again: replaced in place)
  --hooks     with --install: also add to .claude/settings.json a Claude Code Stop hook that runs
              involut rounds && involut check when the agent stops; other settings are kept, a
              second run adds nothing, a settings file that is not valid JSON is left untouched
Without --hooks nothing outside the skill is written.
Example: involut skill --install --hooks`,
};

const COMMON = {
  repo: { type: 'string' },
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

const ROUNDS = {
  ...COMMON,
  base: { type: 'string' },
  'since-last': { type: 'boolean', default: false },
  begin: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

const SERVE = {
  ...COMMON,
  port: { type: 'string' },
  host: { type: 'string' },
  'no-open': { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** Serve's flags but --repo (the demo builds its own), and --keep. */
const DEMO = {
  json: COMMON.json,
  quiet: COMMON.quiet,
  help: COMMON.help,
  port: SERVE.port,
  host: SERVE.host,
  'no-open': SERVE['no-open'],
  keep: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

const PRUNE = { ...COMMON, keep: { type: 'string' } } as const satisfies ParseArgsConfig['options'];
const CHECK = { ...COMMON, strict: { type: 'boolean', default: false } } as const satisfies ParseArgsConfig['options'];
const NOTES = {
  ...COMMON,
  all: { type: 'boolean', default: false },
  wait: { type: 'boolean', default: false },
  new: { type: 'boolean', default: false },
  timeout: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];
const SKILL = {
  ...COMMON,
  install: { type: 'boolean', default: false },
  hooks: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** The flags that take a value, so the word after one is not read as the command. */
const TAKES_VALUE = new Set(['--repo', '--base', '--port', '--host', '--timeout']);
// `--keep` takes a number for prune and nothing for demo: a number after it is its value (see splitCommand).

/** A command: its flags, and what it does with them; it returns the exit code (0 unless said). */
interface Command<O extends Options> {
  options: O;
  run: (values: Values<O>, out: Output) => Promise<number | void>;
}
type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>
>['values'];
const command = <O extends Options>(c: Command<O>) => c as unknown as Command<Options>;

const COMMANDS: Record<string, Command<Options>> = {
  serve: command({
    options: SERVE,
    run: async (values, out) => {
      const flags = {
        repo: values.repo ?? process.cwd(),
        port: portFlag(values.port),
        host: values.host,
        open: !values['no-open'],
      };
      // Loaded only here: Fastify alone takes ~0.3 s to import, which `rounds` must not pay.
      const { serve } = await import('./cli/commands/serve');
      await serve(flags, out);
    },
  }),
  rounds: command({
    options: ROUNDS,
    run: async (values, out) => {
      // Every command is loaded when it runs: zod (which the others use) would cost `rounds` a third of its start-up.
      const { rounds } = await import('./cli/commands/rounds');
      await rounds(
        { repo: values.repo ?? process.cwd(), base: values.base, sinceLast: values['since-last'], begin: values.begin },
        out,
      );
    },
  }),
  demo: command({
    options: DEMO,
    run: async (values, out) => {
      const { demo } = await import('./cli/commands/demo');
      await demo({ port: portFlag(values.port), host: values.host, open: !values['no-open'], keep: values.keep }, out);
    },
  }),
  prune: command({
    options: PRUNE,
    run: async (values, out) =>
      (await import('./cli/commands/prune')).prune({ repo: values.repo ?? process.cwd(), keep: values.keep }, out),
  }),
  check: command({
    options: CHECK,
    run: async (values, out) =>
      (await import('./cli/commands/check')).check({ repo: values.repo ?? process.cwd(), strict: values.strict }, out),
  }),
  notes: command({
    options: NOTES,
    run: async (values, out) => {
      const flags = { repo: values.repo ?? process.cwd(), all: values.all };
      if (!values.wait) {
        if (values.new || values.timeout !== undefined)
          throw new InvolutError('usage', '--new and --timeout go with --wait; run `involut notes --help` to see how.');
        return (await import('./cli/commands/notes')).notes(flags, out);
      }
      const { notesWait, DEFAULT_WAIT_SECONDS } = await import('./cli/commands/notes-wait');
      const timeout = values.timeout === undefined ? DEFAULT_WAIT_SECONDS : secondsFlag(values.timeout);
      const again = [
        'involut notes --wait',
        ...(values.new ? ['--new'] : []),
        ...(values.all ? ['--all'] : []),
        ...(values.json ? ['--json'] : []),
        ...(values.timeout !== undefined ? [`--timeout ${values.timeout}`] : []),
        ...(values.repo !== undefined ? [`--repo ${JSON.stringify(values.repo)}`] : []),
      ].join(' ');
      return notesWait({ ...flags, fresh: values.new, timeout, again }, out);
    },
  }),
  skill: command({
    options: SKILL,
    run: async (values, out) =>
      (await import('./cli/commands/skill')).skill(
        { repo: values.repo ?? process.cwd(), install: values.install, hooks: values.hooks },
        out,
      ),
  }),
};

/** Runs one command line; the only place that decides the exit code. */
async function main(argv: string[]): Promise<number> {
  const out = new Output(argv.includes('--json'), argv.includes('--quiet'));
  try {
    if (argv[0] === '--version' || argv[0] === '-v') {
      process.stdout.write(`${version}\n`);
      return 0;
    }
    const { name: given, args } = splitCommand(argv);
    if (given === 'help') return help(args.find((arg) => !arg.startsWith('-')));
    // `involut` alone, or with flags only, means `involut serve`.
    const name = given ?? 'serve';
    const chosen = COMMANDS[name];
    if (!chosen) throw await unknownCommand(name);
    if (args.includes('--help') || args.includes('-h')) return help(given);
    const { values } = parse(args, chosen.options, name);
    return (await chosen.run(values, new Output(values.json === true, values.quiet === true))) ?? 0;
  } catch (error) {
    return report(error, out);
  }
}

/** The command word (the first word that is neither a flag nor a flag's value) and the rest, in order. */
function splitCommand(argv: string[]): { name: string | undefined; args: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('-')) {
      if (TAKES_VALUE.has(arg) || (arg === '--keep' && /^\d+$/.test(argv[i + 1] ?? ''))) i++;
      continue;
    }
    return { name: arg, args: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { name: undefined, args: argv };
}

async function unknownCommand(name: string): Promise<InvolutError> {
  // Loaded only for a mistyped command: every other start, `involut rounds` first, is spared it.
  const { default: leven } = await import('leven');
  const nearest = Object.keys(COMMANDS)
    .map((known) => ({ known, distance: leven(name, known) }))
    .sort((a, b) => a.distance - b.distance)[0]!;
  const guess =
    nearest.distance <= Math.max(2, Math.floor(name.length / 3)) ? ` (did you mean \`involut ${nearest.known}\`?)` : '';
  return new InvolutError('usage', `Unknown command '${name}'${guess}; run \`involut --help\` to see the commands.`);
}

/** The whole help, or one command's; either says how to run Involut here when `involut` is not on PATH. */
function help(name?: string): number {
  const text = (name && COMMAND_HELP[name]) || HELP;
  const here = involutCommand() === 'involut' ? '' : `\nOn this machine, run Involut as: ${involutCommand()}\n`;
  process.stdout.write(`${text.trimEnd()}\n${here}`);
  return 0;
}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, name: string) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new InvolutError('usage', `${usageMessage(error)}; run \`involut ${name} --help\` to see its options.`);
  }
}

function portFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new InvolutError('usage', `--port takes a port number from 0 to 65535, not '${text}'.`);
  return port;
}

function secondsFlag(text: string): number {
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0)
    throw new InvolutError('usage', `--timeout takes a number of seconds above 0, not '${text}'.`);
  return seconds;
}

/** Turns node:util's parse errors into one short sentence. */
function usageMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const unknown = /Unknown option '([^']+)'/.exec(text);
  if (unknown) return `Unknown option '${unknown[1]}'`;
  const positional = /Unexpected argument '([^']+)'/.exec(text);
  if (positional) return `Unexpected argument '${positional[1]}'`;
  const missing = /Option '([^']+?)(?: <value>)?' argument missing/.exec(text);
  if (missing) return `Option '${missing[1]}' needs a value`;
  // `--base --json`: node calls the next flag an "ambiguous" value; the value is what is missing.
  const ambiguous = /Option '([^']+?)(?: <value>)?' argument is ambiguous/.exec(text);
  if (ambiguous) return `Option '${ambiguous[1]}' needs a value`;
  return text.split('\n')[0]!.replace(/\.$/, '');
}

function report(thrown: unknown, out: Output): number {
  const error = machineFault(thrown) ?? thrown;
  const known = error instanceof InvolutError;
  const code = known ? error.code : 'internal';
  const message = known
    ? runnable(error.message)
    : `Unexpected error: ${error instanceof Error ? error.message : String(error)} (please report it with the command you ran).`;
  if (out.json) process.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  else process.stderr.write(`involut: ${message}\n`);
  if (!known && process.env.INVOLUT_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return known && error.code === 'usage' ? 2 : 1;
}

process.exitCode = await main(process.argv.slice(2));
