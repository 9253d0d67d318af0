import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { concealInternal, stderrInternalLog, type InternalErrorLog } from '../core/dispatch/internal-errors.js';

/*
 * Tool results, kept apart from the tools' zod schemas (tool-kit.ts): the stdio server answers `initialize` and
 * `tools/list` with this module loaded and none of the schemas built.
 */

/** A successful result: structured content and the same JSON as text. */
export function okResult(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

/**
 * A failed call: `isError` and `{code, message}` (plus details when there are any) as JSON text. An internal error
 * from the contract already carries only a reference into the log; one raised in a tool itself is logged in `log`
 * (the engine's log where there is one) and answered the same way, so no path or stack fragment reaches the agent.
 */
export function errorResult(err: unknown, log: InternalErrorLog = stderrInternalLog): CallToolResult {
  const body = concealInternal(err, 'mcp tool', log);
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
