/**
 * The only module that imports elkjs. ELK runs in a Web Worker (elkjs's own
 * `elk-worker.min.js`, served from this origin): a layered layout of 500 nodes takes
 * about half a second, which on the page's thread would freeze scrolling and typing.
 */
import ElkApi, { type ElkNode } from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';
import type { ElkGraphJson } from './model';

export interface Layouter {
  /** ELK's layered layout of `graph`, computed in this layouter's worker. */
  layout(graph: ElkGraphJson): Promise<ElkGraphJson>;
  /** Terminates the worker; a layout still running never settles. Safe to call twice. */
  dispose(): void;
}

/** Starts a worker for one drawing. */
export function startLayouter(): Layouter {
  // elk-api only listens for answers: a worker that fails to load (blocked, 404) would leave
  // every layout pending forever, so its `error` event rejects them instead.
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const elk = new ElkApi({
    workerUrl: elkWorkerUrl,
    workerFactory: (url) => {
      const worker = new Worker(url!);
      worker.addEventListener('error', (event) =>
        fail(new Error(event.message || 'the layout worker could not start')),
      );
      return worker;
    },
  });
  return {
    // ElkGraphJson is the subset of ELK's JSON this render writes and reads.
    layout: (graph) =>
      Promise.race([elk.layout(graph as unknown as ElkNode) as unknown as Promise<ElkGraphJson>, failed]),
    dispose: () => elk.terminateWorker(),
  };
}
