import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type Implementation,
} from '@modelcontextprotocol/sdk/types.js';
import { RagError } from '../shared/errors.js';
import { RAGDESK_VERSION } from '../shared/version.js';
import { isLinkFailure } from './link-failure.js';
import type { Backend, CallInfo } from './server.js';
import type { AnyTool } from './tool-kit.js';

export interface RemoteTarget {
  /** `http://127.0.0.1:<port>/mcp` of the process that owns the data dir. */
  url: string;
  /** Bearer token: an API key, or the owner token from the lock file. */
  token: string;
}

export interface RemoteBackendOptions {
  /** The stdio client's name and version, passed on so the owner's activity log shows who called. */
  clientInfo?: Implementation;
  /** Forward the owner's sampling requests to the stdio client (when it declared sampling). */
  sample?: (params: CreateMessageRequest['params']) => Promise<CreateMessageResult>;
}

/** Long enough for a 500-document batch on a slow machine; progress notifications reset it. */
const CALL_TIMEOUT_MS = 10 * 60_000;

export { isLinkFailure };

/**
 * The owner answered 429 (this key's rate, or its requests in progress): the link is fine and the call was not
 * run. Said as `busy` with the owner's message (it names the wait), instead of dropping the session and retrying.
 */
export function refusedForNow(err: unknown): RagError | undefined {
  if (!(err instanceof StreamableHTTPError) || err.code !== 429) return undefined;
  const body = /\{.*\}/s.exec(err.message)?.[0];
  let message = 'the ragdesk server is limiting this key (rate limit); retry in a moment';
  try {
    const parsed = body ? (JSON.parse(body) as { error?: { message?: unknown } }) : undefined;
    if (typeof parsed?.error?.message === 'string') message = parsed.error.message;
  } catch {
    // keep the general message
  }
  return new RagError('busy', message, { details: { status: 429 } });
}

/**
 * The stdio bridge: answers calls by forwarding them to another ragdesk process's Streamable HTTP `/mcp`
 * with the SDK's client, so `ragdesk mcp` works while the desktop app or `ragdesk serve` owns the data dir.
 */
export class RemoteBackend implements Backend {
  private readonly client: Client;
  private transport: StreamableHTTPClientTransport | undefined;
  private connected: Promise<void> | undefined;
  readonly remote = true;
  dead = false;

  constructor(
    readonly target: RemoteTarget,
    options: RemoteBackendOptions = {},
  ) {
    const info = options.clientInfo ?? { name: 'ragdesk-bridge', version: RAGDESK_VERSION };
    this.client = new Client({ name: info.name, version: info.version }, { capabilities: options.sample ? { sampling: {} } : {} });
    if (options.sample) {
      const sample = options.sample;
      this.client.setRequestHandler(CreateMessageRequestSchema, (req) => sample(req.params));
    }
    this.client.onclose = () => {
      this.dead = true;
    };
  }

  /** Connect (once); rejects when the owner cannot be reached or refuses the token. */
  connect(): Promise<void> {
    this.connected ??= (async () => {
      this.transport = new StreamableHTTPClientTransport(new URL(this.target.url), {
        requestInit: { headers: { Authorization: `Bearer ${this.target.token}` } },
      });
      await this.client.connect(this.transport);
    })().catch((err: unknown) => {
      this.dead = true;
      throw err;
    });
    return this.connected;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    await this.connect();
    try {
      return await fn();
    } catch (err) {
      const refused = refusedForNow(err);
      if (refused) throw refused;
      if (isLinkFailure(err)) this.dead = true;
      throw err;
    }
  }

  callTool(tool: AnyTool, _args: unknown, rawArgs: unknown, call: CallInfo) {
    return this.guard(() =>
      this.client.request(
        { method: 'tools/call', params: { name: tool.name, arguments: rawArgs as Record<string, unknown> } },
        CallToolResultSchema,
        { signal: call.signal, timeout: CALL_TIMEOUT_MS, resetTimeoutOnProgress: true },
      ),
    );
  }

  listResources(call: CallInfo) {
    return this.guard(() => this.client.listResources({}, { signal: call.signal }));
  }

  readResource(uri: string, call: CallInfo) {
    return this.guard(() => this.client.readResource({ uri }, { signal: call.signal }));
  }

  getPrompt(name: string, args: Record<string, string>, call: CallInfo) {
    return this.guard(() => this.client.getPrompt({ name, arguments: args }, { signal: call.signal }));
  }

  async close(): Promise<void> {
    this.dead = true;
    try {
      await this.transport?.terminateSession();
    } catch {
      // the owner may be gone already
    }
    await this.client.close().catch(() => undefined);
  }
}
