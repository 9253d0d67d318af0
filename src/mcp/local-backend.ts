import { McpError, ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../core/auth/scope.js';
import type { Core } from '../core/core.js';
import type { RagClient } from '../shared/contract/index.js';
import { concealInternal, stderrInternalLog, type InternalErrorLog } from '../core/dispatch/internal-errors.js';
import { RagError } from '../shared/errors.js';
import { getPrompt } from './prompts.js';
import { listResources, readResource, RESOURCE_NOT_FOUND } from './resources.js';
import type { Backend, CallInfo } from './server.js';
import { errorResult, okResult } from './results.js';
import type { AnyTool, ToolContext } from './tool-kit.js';

export interface LocalBackendOptions {
  /** The engine; a promise while it is still opening (stdio answers initialize before the store is open). */
  core: () => Core | Promise<Core>;
  /** Who is calling; read on every call so a revoked or changed key takes effect at once. */
  principal: () => Principal | undefined;
  /** What a tool call waits for first, if anything (the stdio server: searches wait for the engine's warm-up). */
  before?: (tool: AnyTool) => Promise<unknown> | undefined;
}

/**
 * Resource and prompt failures are JSON-RPC errors: not-found codes map to MCP's resource-not-found; an internal
 * error is logged and answered with its reference only.
 */
function toMcpError(err: unknown, log: InternalErrorLog): McpError {
  if (err instanceof McpError) return err;
  const env = concealInternal(err, 'mcp', log);
  const code =
    env.code === 'kb_not_found' || env.code === 'document_not_found'
      ? RESOURCE_NOT_FOUND
      : env.code === 'internal'
        ? ErrorCode.InternalError
        : ErrorCode.InvalidParams;
  return new McpError(code, env.message, { code: env.code });
}

/** Answers MCP calls with the engine in this process, limited to the caller's rights. */
export class LocalBackend implements Backend {
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly options: LocalBackendOptions) {}

  /** Resolves when no call is running (used before handing the data dir to another process). */
  idle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  private async track<T>(fn: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await fn();
    } finally {
      if (--this.active === 0) for (const w of this.waiters.splice(0)) w();
    }
  }

  /** Internal errors of this backend's own code go to the engine's log once it is open (stderr before). */
  private log: InternalErrorLog = stderrInternalLog;

  /** The contract as this caller may use it now (a revoked key or a changed right takes effect at once). */
  private async access(): Promise<{ client: RagClient }> {
    const principal = this.options.principal();
    if (!principal) throw new RagError('permission_denied', 'the API key is unknown or was revoked');
    const core = await this.options.core();
    this.log = core.logInternalError;
    return { client: core.clientFor(core.scopeOf(principal)) };
  }

  callTool(tool: AnyTool, args: unknown, _raw: unknown, call: CallInfo): Promise<CallToolResult> {
    return this.track(() => this.runTool(tool, args, call));
  }

  private async runTool(tool: AnyTool, args: unknown, call: CallInfo): Promise<CallToolResult> {
    try {
      const { client } = await this.access();
      await this.options.before?.(tool);
      const ctx: ToolContext = { client, signal: call.signal, ...(call.sample ? { sample: call.sample } : {}) };
      const out = await tool.run(args as never, ctx);
      const checked = tool.output.safeParse(out);
      if (!checked.success) throw new RagError('internal', `${tool.name} produced a result outside its schema: ${checked.error.message}`);
      return okResult(checked.data as Record<string, unknown>);
    } catch (err) {
      return errorResult(err, this.log);
    }
  }

  listResources() {
    return this.track(async () => {
      try {
        return await listResources((await this.access()).client);
      } catch (err) {
        throw toMcpError(err, this.log);
      }
    });
  }

  readResource(uri: string) {
    return this.track(async () => {
      try {
        return await readResource((await this.access()).client, uri);
      } catch (err) {
        throw toMcpError(err, this.log);
      }
    });
  }

  getPrompt(name: string, args: Record<string, string>) {
    return this.track(async () => {
      try {
        return await getPrompt((await this.access()).client, name, args);
      } catch (err) {
        throw toMcpError(err, this.log);
      }
    });
  }
}
