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

  async handle(req: IncomingMessage, res: ServerResponse, principal: Principal): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string' && sid) {
      const session = this.sessions.get(sid);
      // A session belongs to the key that opened it: another key gets the same answer as an unknown id.
      if (!session || principalId(session.principal) !== principalId(principal)) return rpcError(res, 404, -32001, 'Session not found');
      session.lastSeen = Date.now();
      session.principal = principal;
      const body = req.method === 'POST' ? await readJson(req, MCP_BODY_LIMIT) : undefined;
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return rpcError(res, 405, -32000, 'Method not allowed without a session: POST JSON-RPC messages to /mcp');
    }
    const body = await readJson(req, MCP_BODY_LIMIT);
    const initializing = Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
    if (initializing && !this.options.stateless) return this.openSession(req, res, body, principal);
    return this.stateless(req, res, body, principal);
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown, principal: Principal): Promise<void> {
    this.evictIfFull();
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

  private evictIfFull(): void {
    const max = this.options.maxSessions ?? 500;
    if (this.sessions.size < max) return;
    const oldest = [...this.sessions.values()].sort((a, b) => a.lastSeen - b.lastSeen)[0];
    if (oldest) this.closeSession(oldest);
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
