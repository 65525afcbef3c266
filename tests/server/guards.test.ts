/**
 * Every refusal carries the guards (issue, lower items): malformed request lines and
 * paths, absolute-form request lines naming another host, and `--host` with any loopback
 * address, against the built CLI serving on a real port, spoken to over raw TCP.
 */
import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { childEnv, makeRepo, removeTempDirs, runRounds, startLive, type LiveServer } from '../helpers/server';

afterAll(removeTempDirs);
const running: LiveServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function serve(args: string[] = ['--port', '0']): Promise<LiveServer> {
  const repo = makeRepo();
  runRounds(repo);
  const server = await startLive(repo.dir, childEnv(), args);
  running.push(server);
  return server;
}

/** Sends a request exactly as written and returns the status, headers and body of the answer. */
function raw(
  server: LiveServer,
  lines: string[],
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(`${lines.join('\r\n')}\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.once('error', reject);
    socket.once('close', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

describe('requests the router refuses', () => {
  it('answers a path with invalid percent-encoding with the Host check, the security headers and Involut’s error shape', async () => {
    const server = await serve();
    const host = new URL(server.base).host;
    const bad = await raw(server, [
      'GET /api/blob/%E0%A4%A HTTP/1.1',
      `Host: ${host}`,
      `X-Involut-Token: ${server.token}`,
      'Connection: close',
    ]);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, ''))).toEqual({
      error: { code: 'bad-path', message: 'The request path is not valid percent-encoding.' },
    });
    expect(bad.body).not.toContain('%E0');
    expect(bad.headers['content-security-policy']).toContain("default-src 'none'");
    expect(bad.headers['x-content-type-options']).toBe('nosniff');
    const foreign = await raw(server, [
      'GET /api/blob/%E0%A4%A HTTP/1.1',
      'Host: evil.example:80',
      'Connection: close',
    ]);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('forbidden-host');
  });

  it('refuses an absolute-form request line naming another host, even with a loopback Host', async () => {
    const server = await serve();
    const host = new URL(server.base).host;
    const headers = [`Host: ${host}`, `X-Involut-Token: ${server.token}`, 'Connection: close'];
    const other = await raw(server, ['GET http://evil.example/api/round HTTP/1.1', ...headers]);
    expect(other.status).toBe(403);
    expect(other.body).toContain('forbidden-host');
    expect(other.headers['content-security-policy']).toContain("default-src 'none'");
    const own = await raw(server, [`GET http://${host}/api/health HTTP/1.1`, ...headers]);
    expect(own.status).not.toBe(403);
  });
});

describe('--host with a loopback address', () => {
  it('prints a URL its own Host check accepts for 127.0.0.2', async () => {
    const server = await serve(['--port', '0', '--host', '127.0.0.2']);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/#token=/);
    const page = await fetch(server.base);
    expect(page.status).toBe(200);
    const api = await fetch(`${server.base}/api/round`, { headers: { 'x-involut-token': server.token } });
    expect(api.status).toBe(200);
  });
});
