import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type CreateMessageRequest,
  type CreateMessageResult,
  type GetPromptResult,
  type ListResourcesResult,
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { PROMPTS, checkPromptArgs } from './prompts.js';
import { RESOURCE_TEMPLATES } from './resources.js';
import { errorResult } from './results.js';
import { INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from './server-info.js';
import type { AnyTool } from './tool-kit.js';
import TOOL_LIST_JSON from './tool-list.json';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Facts about the call a backend needs besides the arguments. */
export interface CallInfo {
  /** The client's name and version from `initialize` (e.g. `claude-ai 0.1.0`). */
  clientName: string | null;
  /** Ask the client's model, when the client declared sampling. */
  sample?: (params: CreateMessageRequest['params']) => Promise<CreateMessageResult>;
  signal: AbortSignal;
}

/**
 * Where tool calls, resource reads and prompts are answered: the engine in this process (`LocalBackend`) or
 * another ragdesk process's `/mcp` (the stdio bridge). `initialize`, `tools/list` and the other listings never
 * touch a backend, so they answer before any store or model is open.
 */
export interface Backend {
  callTool(tool: AnyTool, args: unknown, rawArgs: unknown, call: CallInfo): Promise<CallToolResult>;
  listResources(call: CallInfo): Promise<ListResourcesResult>;
  readResource(uri: string, call: CallInfo): Promise<ReadResourceResult>;
  getPrompt(name: string, args: Record<string, string>, call: CallInfo): Promise<GetPromptResult>;
  /** Set on a link to another process (the stdio bridge's RemoteBackend), whose calls may fail for the link. */
  readonly remote?: boolean;
  /** A remote backend whose link broke: the next call finds a backend again. */
  dead?: boolean;
  close?(): Promise<void>;
}

/** One finished tool call, for metrics, the activity log and logs. */
export interface CallRecord {
  tool: string;
  args: unknown;
  clientName: string | null;
  latencyMs: number;
  result?: CallToolResult;
  /** Set when the call failed before reaching a tool (arguments that broke the schema). */
  protocolError?: string;
  count?: number | null;
}

export interface McpServerOptions {
  backend: () => Promise<Backend>;
  /** Told about every tool call (the owner process records; a bridge leaves that to the owner). */
  onCall?: (record: CallRecord) => void;
  /** Instructions shown to the model at initialize. */
  instructions?: string;
  /** Told once a tools/list answer has been handed to the transport (the stdio server then warms up). */
  onToolsListed?: () => void;
}

/** The error code carried by a failed tool result's JSON text, if any. */
export function errorCodeOf(result: CallToolResult): string | null {
  if (!result.isError) return null;
  const first = result.content?.[0];
  if (first?.type !== 'text') return 'internal';
  try {
    return String((JSON.parse(first.text) as { code?: unknown }).code ?? 'internal');
  } catch {
    return 'internal';
  }
}

/**
 * The tools/list answer: the JSON Schemas the SDK would derive from the tools' zod schemas (draft-7, input and
 * output views), written down once in tool-list.json (tool-list.test.ts checks it against the live schemas and
 * rewrites it with `vitest -u`). Answering from it keeps the zod schemas of the tools and of the contract off
 * the path of `initialize` and `tools/list`: a stdio server builds them only for its first call.
 */
export const TOOL_LIST = TOOL_LIST_JSON as unknown as readonly Tool[];
const TOOL_NAMES = new Set(TOOL_LIST.map((t) => t.name));

let tools: Promise<ReadonlyMap<string, AnyTool>> | undefined;

/** The tools by name, their module (and the contract's schemas) loaded at the first call or by a warm-up. */
export function loadTools(): Promise<ReadonlyMap<string, AnyTool>> {
  tools ??= import('./tools/index.js').then(({ TOOLS }) => new Map(TOOLS.map((t) => [t.name, t])));
  return tools;
}

function callInfo(mcp: McpServer, extra: Extra): CallInfo {
  const client = mcp.server.getClientVersion();
  const sampling = mcp.server.getClientCapabilities()?.sampling;
  return {
    clientName: client ? `${client.name}${client.version ? ` ${client.version}` : ''}` : null,
    signal: extra.signal,
    ...(sampling
      ? {
          sample: (params: CreateMessageRequest['params']) =>
            extra.sendRequest({ method: 'sampling/createMessage', params }, CreateMessageResultSchema, { timeout: 120_000 }),
        }
      : {}),
  };
}

/** A call is recorded once its answer is on its way (the SDK sends it in this turn's microtasks), not before. */
function recordLater(onCall: McpServerOptions['onCall'], record: CallRecord): void {
  if (onCall) setImmediate(() => onCall(record));
}

/**
 * The ragdesk MCP server: every tool listed with its title, description, input and output schemas and hints;
 * resources and prompts. Tool calls are validated here: arguments that break the input schema are a
 * JSON-RPC InvalidParams error (the SDK alone would turn them into a tool result), domain failures are tool
 * results with `isError` and `{code, message}`.
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    instructions: options.instructions ?? INSTRUCTIONS,
  });
  // No mcp.registerTool: tools/list and tools/call are answered by the handlers below (the SDK's own would
  // convert the zod schemas for every listing and validate arguments a second time).
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => {
    // The SDK sends the answer in this turn's microtasks: the callback runs after it.
    if (options.onToolsListed) setImmediate(options.onToolsListed);
    return { tools: TOOL_LIST as Tool[] };
  });
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const started = performance.now();
    const { name, arguments: rawArgs } = request.params;
    const info = callInfo(mcp, extra);
    if (!TOOL_NAMES.has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const tool = (await loadTools()).get(name)!;
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
      recordLater(options.onCall, {
        tool: name,
        args: rawArgs,
        clientName: info.clientName,
        latencyMs: performance.now() - started,
        protocolError: 'invalid_params',
      });
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for tool ${name}: ${message}`);
    }
    let result: CallToolResult;
    try {
      const backend = await options.backend();
      result = await backend.callTool(tool, parsed.data, rawArgs ?? {}, info);
    } catch (err) {
      // No engine to answer (busy data dir, refused key): still a tool result with a stable code.
      if (err instanceof McpError) throw err;
      result = errorResult(err);
    }
    let count: number | null = null;
    if (!result.isError && result.structuredContent && tool.count) {
      try {
        count = tool.count(result.structuredContent as never);
      } catch {
        count = null;
      }
    }
    recordLater(options.onCall, {
      tool: name,
      args: rawArgs,
      clientName: info.clientName,
      latencyMs: performance.now() - started,
      result,
      count,
    });
    return result;
  });

  mcp.server.setRequestHandler(ListResourcesRequestSchema, async (_req, extra) =>
    (await options.backend()).listResources(callInfo(mcp, extra)),
  );
  mcp.server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  mcp.server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) =>
    (await options.backend()).readResource(req.params.uri, callInfo(mcp, extra)),
  );
  mcp.server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  mcp.server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    const args = checkPromptArgs(req.params.name, req.params.arguments ?? {});
    return (await options.backend()).getPrompt(req.params.name, args, callInfo(mcp, extra));
  });
  return mcp;
}
