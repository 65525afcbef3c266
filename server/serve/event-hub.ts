import type { ServerResponse } from 'node:http';
import type { ChangedEvent } from '../../schemas/api';

/** Keeps proxies and the browser from dropping an idle stream. */
const HEARTBEAT_MS = 20_000;

/** The open Server-Sent Events streams, and the one message they carry. */
export class EventHub {
  private readonly clients = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | null = null;

  get size(): number {
    return this.clients.size;
  }

  /** Starts an event stream on a raw response; it ends when the client goes or the hub closes. */
  add(response: ServerResponse, headers: Record<string, string>): void {
    response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // The first bytes tell the client it is subscribed; `retry` sets its reconnect pause.
    response.write('retry: 1000\n: connected\n\n');
    this.clients.add(response);
    response.once('close', () => this.clients.delete(response));
    this.heartbeat ??= setInterval(() => this.write(': heartbeat\n\n'), HEARTBEAT_MS).unref();
  }

  broadcast(event: ChangedEvent): void {
    this.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  /** Ends every stream, so the server can close without waiting on open viewers. */
  closeAll(): void {
    for (const client of this.clients) client.end();
    this.clients.clear();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private write(text: string): void {
    for (const client of this.clients) client.write(text);
  }
}
