import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RAGDESK_VERSION } from '../shared/version.js';
import { createMcpServer, type Backend } from './server.js';

/** The client name a rehearsal's call carries. */
export const REHEARSAL_CLIENT = 'ragdesk-rehearsal';

/**
 * One tool call through an MCP server made like the stdio one (createMcpServer, the same backend, nothing
 * recorded) and an SDK client, linked in memory; the request and its answer also go through the stdio framing.
 * The code an agent's first call runs (the SDK's protocol and the JSON-RPC schemas, tools/call's request schema,
 * the call handler, the tool, the answer's JSON) is compiled at its first use by V8 and zod: run once here, off the
 * request path, it is not compiled in that call. The answer is thrown away by the caller; nothing records it.
 */
export function rehearseToolCall(backend: Backend, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return linked(backend, (client) => callThrough(client, name, args));
}

/** An SDK client linked in memory to an MCP server made like the stdio one over `backend`, for `work`. */
async function linked<T>(backend: Backend, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: REHEARSAL_CLIENT, version: RAGDESK_VERSION });
  const close = await linkInMemory(createMcpServer({ backend: async () => backend }), client);
  try {
    return await work(client);
  } finally {
    await close();
  }
}

/** One tools/call through `client`, the request and its answer also through the stdio framing. */
async function callThrough(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const params = { name, arguments: args };
  deserializeMessage(serializeMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }));
  const result = await client.request({ method: 'tools/call', params }, CallToolResultSchema);
  deserializeMessage(serializeMessage({ jsonrpc: '2.0', id: 1, result }));
  return result;
}

/** search_kb calls a rehearsal makes: V8 compiles a function's faster code after some runs of it, not at the first. */
export const SEARCH_REHEARSALS = 5;

/**
 * `calls` search_kb calls over one link (as rehearseToolCall makes it): the first with `query`, the next with the
 * openings of the hits it found (other terms, other rows, as an agent's next queries), none once `stopped()`.
 * Resolves with the answers; rejects as a call fails.
 */
export async function rehearseSearch(
  backend: Backend,
  args: Record<string, unknown>,
  query: string,
  calls = SEARCH_REHEARSALS,
  stopped: () => boolean = () => false,
): Promise<CallToolResult[]> {
  return linked(backend, async (client) => {
    const answers: CallToolResult[] = [];
    const queries = [query];
    for (let i = 0; i < calls && !stopped(); i++) {
      const result = await callThrough(client, 'search_kb', { ...args, query: queries[i] ?? query });
      if (result.isError) throw new Error(`search_kb failed: ${JSON.stringify(result.content)}`);
      answers.push(result);
      if (i === 0) {
        const hits = (result.structuredContent as { hits?: Array<{ text?: unknown }> } | undefined)?.hits ?? [];
        for (const h of hits)
          queries.push(
            String(h.text ?? '')
              .split(/\s+/)
              .filter(Boolean)
              .slice(0, 6)
              .join(' ') || query,
          );
      }
    }
    return answers;
  });
}

/** Connect an SDK client to an MCP server in this process (InMemoryTransport); resolves with what closes both. */
export async function linkInMemory(server: McpServer, client: Client): Promise<() => Promise<void>> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return async () => {
    await client.close();
    await server.close();
  };
}
