import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { RagError } from '../shared/errors.js';

/**
 * A failure of the link to the owner (refused, closed, session gone), as opposed to an answer from it. Apart from
 * remote-backend.ts so that the stdio server can tell without loading the SDK's HTTP client.
 */
export function isLinkFailure(err: unknown): boolean {
  if (err instanceof McpError) return err.code === ErrorCode.ConnectionClosed;
  if (err instanceof RagError) return false;
  return true;
}
