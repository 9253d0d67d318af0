import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { ActivityLog } from '../core/activity/activity-log.js';
import { keyStoreFor, type KeyStore } from '../core/auth/key-store.js';
import type { Principal } from '../core/auth/scope.js';
import { dataPaths } from '../core/config/data-dir.js';
import type { Core } from '../core/core.js';
import { concealInternal, loggerInternalLog } from '../core/dispatch/internal-errors.js';
import { Metrics } from '../core/metrics/metrics.js';
import { RagError } from '../shared/errors.js';
import { RAGDESK_VERSION } from '../shared/version.js';
import { handleApi } from './api-route.js';
import {
  authenticate,
  DEFAULT_KEY_CONCURRENCY,
  DEFAULT_KEY_UPLOADS,
  DEFAULT_RATE_LIMIT,
  InFlight,
  principalId,
  RateLimiter,
  type RateLimit,
} from './auth.js';
import { HttpError, refuse, sendError, sendJson } from './body.js';
import { McpRoute } from './mcp-route.js';
import { allowedHostHeaders, allowedOrigins, hostForUrl, SECURITY_HEADERS } from './security.js';
import { serveStatic } from './static.js';

export interface HttpServerOptions {
  core: Core;
  /** The owner's bearer token (the lock file's token). */
  ownerToken: string;
  /** Bind address (default 127.0.0.1). */
  host?: string;
  /** Port (default 7411; 0 picks a free one). */
  port?: number;
  /** Answer every /mcp request statelessly (no sessions). */
  stateless?: boolean;
  /** Per-key limit; false for none. The owner is never limited. */
  rateLimit?: RateLimit | false;
  /** Requests one API key may have in progress at once (default 16); uploads among them (default 2). */
  keyConcurrency?: number;
  keyUploads?: number;
  /** MCP sessions in all (default 500) and per API key (default 32; a key's own oldest is closed for a new one). */
  maxSessions?: number;
  maxSessionsPerKey?: number;
  /** The built web console (out/renderer), served at / when it exists. */
  staticDir?: string;
  /** Extra Host header names (e.g. a LAN name when bound to all interfaces) and browser origins to accept. */
  allowedHosts?: string[];
  allowedOrigins?: string[];
  logger?: Logger;
  metrics?: Metrics;
  activity?: ActivityLog;
  keys?: KeyStore;
  /** Another ragdesk process asks this one to give up the data dir (stdio owners agree; the server refuses). */
  onHandover?: () => void;
  sessionIdleMs?: number;
}

export interface RunningHttpServer {
  server: http.Server;
  host: string;
  port: number;
  /** Base URL, e.g. http://127.0.0.1:7411 */
  url: string;
  metrics: Metrics;
  mcp: McpRoute;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 7411;

const CORS_HEADERS = 'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id';

function routeOf(pathname: string): string {
  if (pathname === '/mcp') return '/mcp';
  if (pathname.startsWith('/api/')) return '/api';
  if (pathname === '/health' || pathname === '/metrics' || pathname === '/internal/handover') return pathname;
  return 'static';
}

/**
 * The local HTTP server (node:http, no framework: the SDK's Streamable HTTP transport takes node requests as
 * they are, and every check below is a few lines): `/mcp`, `/api/:method`, `/health`, `/metrics` and the web
 * console, behind Host/Origin validation, bearer auth and a per-key rate limit.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { core, logger } = options;
  const metrics = options.metrics ?? new Metrics(core.opMetrics);
  // Internal errors reach callers as a reference into this server's log.
  if (logger) core.setInternalErrorLog(loggerInternalLog(logger));
  const keys = options.keys ?? keyStoreFor(dataPaths(core.dataDir).keys);
  const limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const inFlight = new InFlight(options.keyConcurrency ?? DEFAULT_KEY_CONCURRENCY);
  const uploads = new InFlight(options.keyUploads ?? DEFAULT_KEY_UPLOADS);
  const mcp = new McpRoute({
    core,
    metrics,
    ...(options.stateless ? { stateless: true } : {}),
    ...(options.activity ? { activity: options.activity } : {}),
    ...(logger ? { logger } : {}),
    ...(options.sessionIdleMs ? { sessionIdleMs: options.sessionIdleMs } : {}),
    ...(options.maxSessions ? { maxSessions: options.maxSessions } : {}),
    ...(options.maxSessionsPerKey ? { maxSessionsPerKey: options.maxSessionsPerKey } : {}),
  });
  metrics.gauge('ragdesk_mcp_sessions', 'Open MCP sessions.', () => mcp.sessionCount);
  let hosts = new Set<string>();
  let origins = new Set<string>();

  /** Authenticate, then hold a key to its rate and to its share of requests in progress (`limited`). */
  function authorize(req: IncomingMessage, res: ServerResponse, limited: boolean): Principal | undefined {
    const principal = authenticate(req, options.ownerToken, keys);
    if (!principal) {
      refuse(req, res, 401, 'permission_denied', 'missing or invalid API key: send Authorization: Bearer <key>', {
        'WWW-Authenticate': 'Bearer realm="ragdesk"',
      });
      return undefined;
    }
    if (limited && principal.kind === 'key') {
      const wait = limiter?.take(principalId(principal)) ?? 0;
      if (wait > 0) {
        refuse(req, res, 429, 'busy', `rate limit exceeded for key "${principal.name}"; retry in ${wait}s`, {
          'Retry-After': String(wait),
        });
        return undefined;
      }
    }
    if (limited && principal.kind === 'key') {
      // A key may not hold more than its share of the server: requests in progress are counted until answered.
      const release = inFlight.enter(principalId(principal));
      if (!release) {
        refuse(req, res, 429, 'busy', `key "${principal.name}" has ${inFlight.limit} requests in progress; retry when one is answered`, {
          'Retry-After': '1',
        });
        return undefined;
      }
      res.on('close', release);
    }
    return principal;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routeOf(pathname);
    const started = performance.now();
    res.on('finish', () => {
      metrics.countHttp(route, res.statusCode);
      logger?.debug({ method: req.method, route, status: res.statusCode, ms: Math.round(performance.now() - started) }, 'http request');
    });
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    // DNS-rebinding protection: a page on evil.example resolving to 127.0.0.1 still sends Host: evil.example.
    if (!hosts.has(String(req.headers.host ?? '').toLowerCase()))
      return refuse(req, res, 403, 'permission_denied', 'Host header not allowed');
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!origins.has(origin.toLowerCase())) return refuse(req, res, 403, 'permission_denied', 'Origin not allowed');
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id, retry-after');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': CORS_HEADERS,
        'Access-Control-Max-Age': '600',
      });
      return void res.end();
    }
    if (route === '/health') {
      return sendJson(res, 200, {
        status: 'ok',
        version: RAGDESK_VERSION,
        pid: process.pid,
        uptime_s: Math.round((Date.now() - metrics.started) / 1000),
        mcp_sessions: mcp.sessionCount,
      });
    }
    if (route === '/metrics') {
      if (!authorize(req, res, false)) return;
      const text = metrics.render();
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end(text);
    }
    if (route === '/mcp') {
      // A session's standing GET stream is neither rate-limited nor counted (sessions per key bound those).
      const principal = authorize(req, res, req.method !== 'GET');
      if (principal) await mcp.handle(req, res, principal);
      return;
    }
    if (route === '/api') {
      const principal = authorize(req, res, true);
      if (!principal) return;
      let method: string;
      try {
        method = decodeURIComponent(pathname.slice('/api/'.length));
      } catch {
        return refuse(req, res, 400, 'invalid_parameter', 'the method name in the path is not valid percent-encoding');
      }
      return handleApi(req, res, method, principal, core, uploads);
    }
    if (route === '/internal/handover') {
      const principal = authorize(req, res, false);
      if (!principal) return;
      if (principal.kind !== 'owner' || req.method !== 'POST')
        return sendError(res, 403, 'permission_denied', 'only the owner may ask for the data dir');
      if (!options.onHandover) return sendError(res, 409, 'busy', 'this ragdesk process keeps the data dir (it is a server)');
      sendJson(res, 202, { releasing: true, pid: process.pid });
      res.on('finish', () => options.onHandover?.());
      return;
    }
    if (serveStatic(req, res, options.staticDir, pathname)) return;
    sendError(res, 404, 'invalid_parameter', `nothing at ${pathname}`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) return refuse(req, res, err.status, err.code, err.message, err.headers);
      // Whatever escaped a route is logged where the engine logs internal errors, and answered with its reference.
      const where = `${req.method ?? 'HTTP'} ${(req.url ?? '/').split(/[?#]/)[0]}`;
      const env = concealInternal(
        err instanceof RagError && err.code === 'internal' ? err : new RagError('internal', String(err), { cause: err }),
        where,
        core.logInternalError,
      );
      if (!res.headersSent) sendError(res, 500, 'internal', env.message);
      else res.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    // Rejects with the socket error as it is (EADDRINUSE…): callers choose to fall back or to explain.
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.removeAllListeners('error');
      server.on('error', (err) => logger?.error({ err }, 'http server error'));
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHostHeaders(host, port, options.allowedHosts);
  origins = allowedOrigins(hosts, options.allowedOrigins);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : hostForUrl(host);
  logger?.info({ host, port }, 'http server listening');
  return {
    server,
    host,
    port,
    metrics,
    mcp,
    url: `http://${urlHost}:${port}`,
    async close() {
      await mcp.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
