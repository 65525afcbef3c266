import { runnable } from './invocation';

/**
 * Where a command's words go: results on stdout (JSON with --json, lines otherwise,
 * nothing with --quiet), warnings on stderr, so stdout stays clean for machines. Results
 * are printed as given (they hold the user's own text: notes, cards); the commands a
 * warning quotes are made ones that run on this machine (`runnable`).
 */
export class Output {
  constructor(
    readonly json: boolean,
    readonly quiet: boolean,
  ) {}

  result(data: unknown, lines: () => string[]): void {
    if (this.json) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    else if (!this.quiet) process.stdout.write(`${lines().join('\n')}\n`);
  }

  warn(message: string): void {
    process.stderr.write(`involut: warning: ${runnable(message)}\n`);
  }
}
