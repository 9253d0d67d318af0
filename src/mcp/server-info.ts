import { RAGDESK_VERSION } from '../shared/version.js';

/**
 * What ragdesk's MCP server says about itself at `initialize`, without the SDK: the SDK server (server.ts) and the
 * stdio front (stdio-front.ts), which answers `initialize` before the SDK is loaded, both use these.
 */

export const SERVER_INFO = { name: 'ragdesk', title: 'ragdesk knowledge bases', version: RAGDESK_VERSION };

/**
 * As the SDK's McpServer declares them: with a capability for tools, resources or prompts it adds
 * `listChanged: true` to it (ragdesk sends no such notification; clients have always been told this).
 */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { listChanged: true },
  prompts: { listChanged: true },
  logging: {},
};

export const INSTRUCTIONS =
  'ragdesk serves local knowledge bases. Typical use: list_accessible_kbs → search_kb (or search_all_accessible_kbs) → ' +
  'get_document for more context → answer citing doc_id/title and location. ask_knowledge_base does search + answer in one call. ' +
  'Errors come back as {code, message}: kb_not_found, document_not_found, permission_denied, invalid_parameter and others.';

/**
 * The SDK's LATEST_PROTOCOL_VERSION and SUPPORTED_PROTOCOL_VERSIONS (@modelcontextprotocol/sdk 1.32), written down
 * so that answering `initialize` does not load the SDK's types (and the zod schemas they build); stdio-front.test.ts
 * fails when an SDK update changes them.
 */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

/** The `initialize` result for a client asking for `requested`, as the SDK's Server._oninitialize makes it. */
export function initializeResult(requested: string) {
  return {
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
    capabilities: SERVER_CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
  };
}
