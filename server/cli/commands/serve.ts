import { excludeReview } from '../../round/ignore';
import { openRepo } from '../../git/repo';
import type { Output } from '../output';
import { findRunningServer } from '../../serve/running-servers';
import { isLoopback } from '../../serve/security';
import { startServer } from '../../serve/start';

export interface ServeFlags {
  repo: string;
  /** Default: 4747, or the next free port. */
  port?: number;
  /** Default: 127.0.0.1. */
  host?: string;
  /** Open the viewer in the default browser. */
  open: boolean;
}

/**
 * `involut` / `involut serve`: serve the review of this repository until SIGINT or SIGTERM.
 * The first line on stdout is the viewer URL (with its token); if a server for this
 * repository is already running, that line is its URL and the command ends at once.
 */
export async function serve(flags: ServeFlags, out: Output): Promise<void> {
  const repo = await openRepo(flags.repo);
  const { root } = repo;
  const running = await findRunningServer(root);
  if (running) {
    out.result({ url: running.url, repo: root, running: true }, () => [running.url]);
    info(out, `Involut is already serving ${root} (pid ${running.pid}).`);
    return;
  }
  // The viewer creates .review/ when the first note is saved: git must ignore it before then.
  // A repository the reader may not write (someone else's checkout) is still served.
  await excludeReview(repo).catch((error: NodeJS.ErrnoException) => {
    if (!['EACCES', 'EPERM', 'EROFS'].includes(error.code ?? '')) throw error;
    out.warn(
      `Involut could not add /.review/ to ${repo.excludeFile} (${error.code}), so git may list .review/ once a note is saved.`,
    );
  });
  const host = flags.host ?? '127.0.0.1';
  if (!isLoopback(host)) out.warn(exposedWarning(host));
  // Listen for the stop signals before anything is printed: whoever reads the URL may stop us at once.
  const stopped = stopSignal();
  const server = await startServer({
    repo,
    host,
    port: flags.port,
    onError: (error) => out.warn(describe(error)),
  });
  if (server.other) {
    out.result({ url: server.other.url, repo: root, running: true }, () => [server.other!.url]);
    return;
  }
  out.result({ url: server.url, repo: root, running: false }, () => [server.url]);
  info(out, `Serving the review of ${root}; Ctrl-C stops it.`);
  if (flags.open) {
    // Loaded only here: it is 60 ms of the start, before the first byte, for every server.
    import('open')
      .then(({ default: open }) => open(server.url))
      .catch((error: unknown) =>
        out.warn(`could not open a browser (${describe(error)}); open the URL above yourself.`),
      );
  }
  const signal = await stopped;
  info(out, `${signal}: finishing note writes and stopping.`);
  await server.close();
}

/** Waits for the first SIGINT or SIGTERM; a second one finds no handler and ends the process at once. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function exposedWarning(host: string): string {
  return [
    `SERVING ON ${host}, NOT ONLY ON THIS MACHINE.`,
    'Anyone who can reach this address and learns the URL token can read your code and write notes your agent will act on.',
    'Use --host 127.0.0.1 (the default) unless you know why you need this.',
  ].join('\n  ');
}

function info(out: Output, line: string): void {
  if (!out.quiet && !out.json) process.stderr.write(`${line}\n`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
