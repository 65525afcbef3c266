import { runnable } from './invocation';

/**
 * Where a command's words go: results on stdout (JSON with --json, lines otherwise,
 * nothing with --quiet), warnings on stderr, so stdout stays clean for machines. Every
 * command they quote is one that runs on this machine (`runnable`).
 */
export class Output {
  constructor(
    readonly json: boolean,
    readonly quiet: boolean,
  ) {}

  result(data: unknown, lines: () => string[]): void {
    if (this.json)
      process.stdout.write(
        `${JSON.stringify(data, (_key, value: unknown) => (typeof value === 'string' ? runnable(value) : value), 2)}\n`,
      );
    else if (!this.quiet) process.stdout.write(`${runnable(lines().join('\n'))}\n`);
  }

  warn(message: string): void {
    process.stderr.write(`involut: warning: ${runnable(message)}\n`);
  }
}
