import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { ActivityLog } from '../core/activity/activity-log.js';
import type { Principal } from '../core/auth/scope.js';
import type { Core } from '../core/core.js';
import { LocalBackend } from '../mcp/local-backend.js';
import type { Metrics } from '../core/metrics/metrics.js';
import { callRecorder } from '../mcp/recorder.js';
import { createMcpServer } from '../mcp/server.js';
import { readJson, sendJson } from './body.js';
import { principalId } from './auth.js';

/** Largest JSON-RPC body accepted on /mcp (a 500-document batch fits). */
export const MCP_BODY_LIMIT = 64 * 1024 * 1024;
/** The body limit for a key that may write nowhere: its tools take a query, ids and a filter (1 MiB). */
export const MCP_READ_BODY_LIMIT = 1024 * 1024;
/** MCP sessions one API key may hold; a new one beyond closes that key's own oldest. */
export const DEFAULT_SESSIONS_PER_KEY = 32;

interface Session {
  id: string;
  principal: Principal;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

export interface McpRouteOptions {
  core: Core;
  /** Every request is stateless (no session ids). Default: sessions, with stateless answers for requests without one. */
  stateless?: boolean;
  /** Idle sessions are closed after this long (default 2 h; a client then gets 404 and starts a new one). */
  sessionIdleMs?: number;
  maxSessions?: number;
  /** Sessions one API key may hold (default 32); the owner is limited by maxSessions only. */
  maxSessionsPerKey?: number;
  metrics?: Metrics;
  activity?: ActivityLog;
  logger?: Logger;
}

/** Whether an initialize message (or batch) declares the client's sampling capability. */
export function declaresSampling(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => isInitializeRequest(m) && Boolean((m.params.capabilities as { sampling?: unknown } | undefined)?.sampling));
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * Streamable HTTP on /mcp. An `initialize` without a session id opens a session (its own McpServer bound to the
 * caller's key); requests carrying `Mcp-Session-Id` go to it; any other request without a session id is
 * answered statelessly by a server and transport made for that request alone.
 */
export class McpRoute {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: McpRouteOptions) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private newServer(principal: () => Principal): McpServer {
    const { core, metrics, activity, logger } = this.options;
    return createMcpServer({
      backend: async () => new LocalBackend({ core: () => core, principal }),
      onCall: callRecorder({
        ...(metrics ? { metrics } : {}),
        ...(activity ? { activity } : {}),
        ...(logger ? { logger } : {}),
        transport: 'http',
        keyName: () => principal().name,
      }),
    });
  }

  /** What a caller may send: a key that may write nowhere sends queries only, so its bodies stay small. */
  private bodyLimit(principal: Principal): number {
    if (principal.kind === 'owner') return MCP_BODY_LIMIT;
    const scope = this.options.core.scopeOf(principal);
    return !scope.owner && scope.write.size === 0 ? MCP_READ_BODY_LIMIT : MCP_BODY_LIMIT;
  }

  async handle(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    const limit = this.bodyLimit(principal);
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string' && sid) {
      const session = this.sessions.get(sid);
      // A session belongs to the key that opened it: another key gets the same answer as an unknown id.
      if (!session || principalId(session.principal) !== principalId(principal)) return rpcError(res, 404, -32001, 'Session not found');
      session.lastSeen = Date.now();
      session.principal = principal;
      const body = req.method === 'POST' ? await readJson(req, limit) : undefined;
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return rpcError(res, 405, -32000, 'Method not allowed without a session: POST JSON-RPC messages to /mcp');
    }
    const body = await readJson(req, limit);
    const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
    if (initializing && !this.options.stateless) return this.openSession(req, res, body, principal);
    return this.stateless(req, res, body, principal);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown, principal: Principal): Promise<void> {
    this.makeRoomFor(principal);
    const holder: { session?: Session } = {};
    const server = this.newServer(() => holder.session?.principal ?? principal);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MCP_BODY_LIMIT,
      // Answer with plain JSON unless the client can be asked for sampling: only then does a call need an SSE
      // stream (ask_knowledge_base asks the client's model mid-call). JSON saves the stream per call.
      enableJsonResponse: !declaresSampling(body),
      onsessioninitialized: (id) => {
        holder.session = { id, principal, transport, server, lastSeen: Date.now() };
        this.sessions.set(id, holder.session);
        this.trimKey(holder.session);
        this.options.logger?.debug({ session: id, key_name: principal.name }, 'mcp session opened');
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private async stateless(req: IncomingMessage, res: ServerResponse, body: unknown, principal: Principal): Promise<void> {
    const server = this.newServer(() => principal);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MCP_BODY_LIMIT });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /**
   * Room for one more session of `principal`. A key at its own limit loses its own least recently used session;
   * when the server is full, the key holding the most sessions loses its least recently used one. So no key can
   * close the sessions of others by opening many of its own.
   */
  private makeRoomFor(principal: Principal): void {
    const byKey = new Map<string, Session[]>();
    for (const s of this.sessions.values()) {
      const id = principalId(s.principal);
      const list = byKey.get(id) ?? [];
      list.push(s);
      byKey.set(id, list);
    }
    const lru = (list: Session[]) => list.reduce((a, b) => (b.lastSeen < a.lastSeen ? b : a));
    const perKey = this.options.maxSessionsPerKey ?? DEFAULT_SESSIONS_PER_KEY;
    const mine = byKey.get(principalId(principal)) ?? [];
    if (principal.kind === 'key' && mine.length >= perKey) return this.closeSession(lru(mine));
    if (this.sessions.size < (this.options.maxSessions ?? 500)) return;
    const heaviest = [...byKey.values()].reduce((a, b) => (b.length > a.length ? b : a));
    this.closeSession(lru(heaviest));
  }

  /** Sessions opened at the same moment may pass makeRoomFor together: the key's oldest beyond its limit go. */
  private trimKey(added: Session): void {
    if (added.principal.kind !== 'key') return;
    const id = principalId(added.principal);
    const mine = [...this.sessions.values()]
      .filter((s) => s !== added && principalId(s.principal) === id)
      .sort((a, b) => a.lastSeen - b.lastSeen);
    const perKey = this.options.maxSessionsPerKey ?? DEFAULT_SESSIONS_PER_KEY;
    for (const s of mine.slice(0, Math.max(0, mine.length + 1 - perKey))) this.closeSession(s);
  }

  /** Sessions held by a principal (owner or key id). */
  sessionsOf(id: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (principalId(s.principal) === id) n++;
    return n;
  }

  private closeSession(s: Session): void {
    this.sessions.delete(s.id);
    void s.transport.close().catch(() => undefined);
    void s.server.close().catch(() => undefined);
  }

  private sweep(): void {
    const idle = this.options.sessionIdleMs ?? 2 * 60 * 60_000;
    const now = Date.now();
    for (const s of this.sessions.values()) if (now - s.lastSeen > idle) this.closeSession(s);
  }

  /** Close every session (server shutdown or hand-over). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const s of [...this.sessions.values()]) this.closeSession(s);
  }
}
