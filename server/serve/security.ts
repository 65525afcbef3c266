import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The header the viewer sends the session token back in. */
export const TOKEN_HEADER = 'x-involut-token';

/**
 * The viewer's page: scripts, styles and workers only from this server, nothing inline,
 * no framing, no plugins, no form posts anywhere.
 */
const VIEWER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** API answers are data, never documents: even an SVG opened directly runs nothing. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** A fresh capability token for one server session (256 random bits). */
export function mintToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export interface SecurityOptions {
  /** SHA-256 of the session token; the token itself is never kept. */
  tokenHash: Buffer;
  /** The port clients reach; default: the port the app listens on. */
  port?: number;
  /** The `--host` the server was bound to (any loopback address, or another the user chose). */
  host?: string;
}

/**
 * The names a browser may put in `Host`: loopback names at our port, plus the bound
 * host (and, for a wildcard bind, this machine's addresses) when the user chose one.
 * Anything else is a DNS-rebinding attempt or a confused client.
 */
function allowedHosts(port: number, host?: string): Set<string> {
  const names = [...LOOPBACK_NAMES];
  if (host) {
    if (host === '0.0.0.0' || host === '::') {
      for (const list of Object.values(os.networkInterfaces())) {
        for (const address of list ?? [])
          names.push(address.family === 'IPv6' ? `[${address.address}]` : address.address);
      }
    } else names.push(host.includes(':') ? `[${host}]` : host);
  }
  return new Set(names.map((name) => `${name.toLowerCase()}:${port}`));
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A refusal: the status, code and sentence to answer with. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/**
 * Host on every request, Origin on every state-changing one, security headers on every
 * answer. Returns the check of a request's host, for the requests the router itself
 * refuses before any hook runs (a path that is not valid percent-encoding).
 */
export function guardRequests(
  app: FastifyInstance,
  options: SecurityOptions,
): (request: FastifyRequest) => Refusal | null {
  let hosts: Set<string> | null = null;
  const hostsNow = () => {
    if (hosts) return hosts;
    const address = app.server.address();
    const port = options.port ?? (address && typeof address === 'object' ? address.port : 0);
    const names = allowedHosts(port, options.host);
    if (port > 0) hosts = names;
    return names;
  };
  const hostRefusal = (request: FastifyRequest): Refusal | null => {
    const host = (request.headers.host ?? '').toLowerCase();
    if (!hostsNow().has(host))
      return {
        status: 403,
        code: 'forbidden-host',
        message: `Host '${host.slice(0, 100)}' is not this server; open the URL Involut printed.`,
      };
    // An absolute-form request line (`GET http://other/...`) names its own host, which wins over Host.
    const target = request.raw.url ?? '';
    if (!target.startsWith('/')) {
      const named = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(target)?.[1]?.toLowerCase();
      if (named !== host)
        return {
          status: 403,
          code: 'forbidden-host',
          message: 'The request line names another server than this one; open the URL Involut printed.',
        };
    }
    return null;
  };
  app.addHook('onRequest', async (request, reply) => {
    const refusal = hostRefusal(request);
    if (refusal) return refuse(reply, refusal.status, refusal.code, refusal.message);
    const host = (request.headers.host ?? '').toLowerCase();
    if (!SAFE_METHODS.has(request.method) && request.headers.origin !== `http://${host}`) {
      return refuse(
        reply,
        403,
        'forbidden-origin',
        'A write must come from the viewer this server serves (Origin missing or foreign).',
      );
    }
  });
  app.addHook('onSend', async (request, reply) => {
    reply.headers(securityHeaders(isApiPath(request.raw.url ?? '')));
  });
  return hostRefusal;
}

/** Whether a request target (origin- or absolute-form) is under `/api`. */
export function isApiPath(target: string): boolean {
  const path = target.startsWith('/') ? target : target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/api?');
}

/** Headers on every answer (a hijacked stream such as the event stream sets them itself). */
export function securityHeaders(api: boolean): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': api ? API_CSP : VIEWER_CSP,
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    ...(api ? { 'cache-control': 'no-store' } : {}),
  };
}

/** An `onRequest` hook for the API scope: the session token must come back in its header. */
export function requireToken(tokenHash: Buffer) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const sent = request.headers[TOKEN_HEADER];
    if (typeof sent !== 'string' || !timingSafeEqual(hashToken(sent), tokenHash)) {
      return refuse(
        reply,
        401,
        'bad-token',
        `Missing or wrong ${TOKEN_HEADER} header; open the URL Involut printed (it carries the token).`,
      );
    }
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function refuse(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ error: { code, message }, ...extra });
}
