import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  McpError,
  type CallToolResult,
  type CreateMessageRequest,
  type CreateMessageResult,
  type Implementation,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { RagError } from '../shared/errors.js';
import { isLinkFailure } from './link-failure.js';
import { createMcpServer, loadTools, type Backend, type CallInfo, type CallRecord } from './server.js';
import { errorResult } from './results.js';
import type { AnyTool } from './tool-kit.js';

/** Delay between `initialized` and opening the engine in the background, for a client that does not list tools. */
const EAGER_RESOLVE_DELAY_MS = 250;

/** What a backend resolver learns about the stdio client once it has initialised. */
export interface StdioClientFacts {
  clientInfo?: Implementation;
  /** Forward a sampling request to the stdio client (only when it declared sampling). */
  sample?: (params: CreateMessageRequest['params']) => Promise<CreateMessageResult>;
}

/**
 * A backend that is found lazily and found again when the link to a remote owner breaks (the owner restarted,
 * or handed over): each call goes to the current backend, and a call that hit a broken link is retried once.
 */
export class FailoverBackend implements Backend {
  private current: Promise<Backend> | undefined;

  constructor(private readonly find: () => Promise<Backend>) {}

  /** The backend to use now, resolving it if there is none or the remote one died. */
  async backend(): Promise<Backend> {
    const cur = this.current;
    if (cur) {
      const b = await cur.catch(() => undefined);
      if (b && !b.dead) return b;
      void b?.close?.();
      if (this.current !== cur) return this.backend();
      this.current = undefined;
    }
    this.current ??= this.find();
    return this.current;
  }

  /** Forget the current backend (after handing the data dir over); the next call resolves again. */
  reset(): void {
    this.current = undefined;
  }

  private async withRetry<T>(fn: (b: Backend) => Promise<T>): Promise<T> {
    const b = await this.backend();
    try {
      return await fn(b);
    } catch (err) {
      if (!b.remote || !isLinkFailure(err)) throw err;
      b.dead = true;
      return fn(await this.backend());
    }
  }

  async callTool(tool: AnyTool, args: unknown, raw: unknown, call: CallInfo): Promise<CallToolResult> {
    try {
      return await this.withRetry((b) => b.callTool(tool, args, raw, call));
    } catch (err) {
      if (err instanceof McpError && !isLinkFailure(err)) throw err;
      if (err instanceof RagError) return errorResult(err);
      return errorResult(
        new RagError('busy', `the ragdesk server could not be reached: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
  }

  listResources(call: CallInfo) {
    return this.withRetry((b) => b.listResources(call));
  }

  readResource(uri: string, call: CallInfo) {
    return this.withRetry((b) => b.readResource(uri, call));
  }

  getPrompt(name: string, args: Record<string, string>, call: CallInfo) {
    return this.withRetry((b) => b.getPrompt(name, args, call));
  }
}

export interface StdioServerOptions {
  /** Find where calls go (the engine here, or another process's /mcp); called again after a broken link. */
  resolve: (client: StdioClientFacts) => Promise<Backend>;
  onCall?: (record: CallRecord) => void;
  logger?: Logger;
  stdin?: Readable;
  stdout?: Writable;
  /**
   * Requests the stdio front answered before the SDK was loaded and replays here so that the server learns the
   * client (`initialize`): the server's own answer to each is not sent (once per id).
   */
  answered?: Iterable<string | number>;
  /** Warm up at once (the front has listed the tools already). */
  warmNow?: boolean;
}

export interface RunningStdio {
  server: McpServer;
  failover: FailoverBackend;
  /** Resolves when the client closes stdin or the connection. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP over stdio through the SDK: stdout carries only protocol messages. `ragdesk mcp` starts it behind the stdio
 * front (stdio-front.ts), which answers the first `initialize` and `tools/list` before the SDK is loaded; here too
 * `tools/list` is answered before the tools' schemas or the engine are loaded. The backend is resolved and warmed
 * in the background once the tools are listed, or at the first call.
 */
export async function startStdioServer(options: StdioServerOptions): Promise<RunningStdio> {
  const holder: { server?: McpServer } = {};
  const facts = (): StdioClientFacts => {
    const s = holder.server!.server;
    const info = s.getClientVersion();
    return {
      ...(info ? { clientInfo: info } : {}),
      ...(s.getClientCapabilities()?.sampling ? { sample: (params: CreateMessageRequest['params']) => s.createMessage(params) } : {}),
    };
  };
  const failover = new FailoverBackend(() => options.resolve(facts()));
  // Open the engine, warm it and load the tools in the background as soon as the client has its tool list (or
  // shortly after `initialized`, for a client that does not list); a call that needs them sooner waits for the
  // same promises.
  const warmUp = () => {
    void loadTools().catch(() => undefined);
    failover.backend().catch((err: unknown) => options.logger?.warn({ err }, 'no backend yet; will retry at the first call'));
  };
  // Calls go through the failover itself, so a call that meets a broken link is retried on the next backend.
  const server = createMcpServer({
    backend: async () => failover,
    onToolsListed: warmUp,
    ...(options.onCall ? { onCall: options.onCall } : {}),
  });
  holder.server = server;
  server.server.oninitialized = () => {
    setTimeout(warmUp, EAGER_RESOLVE_DELAY_MS).unref();
  };
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const answered = new Set(options.answered ?? []);
  if (answered.size > 0) {
    const send = transport.send.bind(transport);
    transport.send = async (message: JSONRPCMessage) => {
      if (('result' in message || 'error' in message) && answered.delete(message.id as string | number)) return;
      return send(message);
    };
  }
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  server.server.onclose = () => resolveClosed();
  stdin.once('end', () => resolveClosed());
  stdin.once('close', () => resolveClosed());
  await server.connect(transport);
  if (options.warmNow) warmUp();
  return {
    server,
    failover,
    closed,
    async close() {
      await server.close().catch(() => undefined);
      resolveClosed();
    },
  };
}
