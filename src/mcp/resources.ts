import {
  McpError,
  ErrorCode,
  type ListResourcesResult,
  type ReadResourceResult,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { RagClient } from '../shared/contract/index.js';

/** Resources: the KB list, each KB's info and each document's text, all limited to what the caller may read. */
export const KBS_URI = 'ragdesk://kbs';
export const kbUri = (kbId: string) => `ragdesk://kb/${encodeURIComponent(kbId)}`;
export const docUri = (kbId: string, docId: string) => `ragdesk://kb/${encodeURIComponent(kbId)}/doc/${encodeURIComponent(docId)}`;

/** MCP's "resource not found" code. */
export const RESOURCE_NOT_FOUND = -32002;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'ragdesk://kb/{kb_id}',
    name: 'knowledge-base',
    title: 'Knowledge base info',
    description: 'One knowledge base: description, counts, model, chunking and filterable metadata fields (JSON)',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'ragdesk://kb/{kb_id}/doc/{doc_id}',
    name: 'document',
    title: 'Document text',
    description: 'The full text of one document (doc_id URL-encoded)',
    mimeType: 'text/plain',
  },
];

/** Documents listed per KB in resources/list (a listing, not a dump: use list_documents to page through all). */
const DOCS_PER_KB = 200;

export async function listResources(client: RagClient): Promise<ListResourcesResult> {
  const kbs = await client.listKbs({});
  const resources: ListResourcesResult['resources'] = [
    {
      uri: KBS_URI,
      name: 'knowledge-bases',
      title: 'Knowledge bases',
      description: 'Every knowledge base you can read (JSON)',
      mimeType: 'application/json',
    },
  ];
  for (const kb of kbs) {
    resources.push({
      uri: kbUri(kb.kb_id),
      name: `kb:${kb.kb_id}`,
      title: kb.name,
      description: kb.description || `Knowledge base ${kb.kb_id}`,
      mimeType: 'application/json',
    });
  }
  for (const kb of kbs) {
    const { documents } = await client.listDocuments({ kb_id: kb.kb_id, limit: DOCS_PER_KB });
    for (const d of documents) {
      resources.push({
        uri: docUri(kb.kb_id, d.doc_id),
        name: `${kb.kb_id}/${d.doc_id}`,
        title: d.title || d.doc_id,
        mimeType: 'text/plain',
        size: d.size,
      });
    }
  }
  return { resources };
}

function parseUri(uri: string): { kind: 'kbs' } | { kind: 'kb'; kbId: string } | { kind: 'doc'; kbId: string; docId: string } {
  if (uri === KBS_URI) return { kind: 'kbs' };
  const m = /^ragdesk:\/\/kb\/([^/]+)(?:\/doc\/(.+))?$/.exec(uri);
  if (!m) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  try {
    const kbId = decodeURIComponent(m[1]!);
    return m[2] === undefined ? { kind: 'kb', kbId } : { kind: 'doc', kbId, docId: decodeURIComponent(m[2]) };
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `Malformed resource URI: ${uri}`);
  }
}

export async function readResource(client: RagClient, uri: string): Promise<ReadResourceResult> {
  const target = parseUri(uri);
  if (target.kind === 'kbs') {
    const kbs = await client.listKbs({});
    const brief = kbs.map((k) => ({
      kb_id: k.kb_id,
      name: k.name,
      description: k.description,
      department: k.department,
      enabled: k.enabled,
      document_count: k.document_count,
    }));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ kbs: brief }, null, 2) }] };
  }
  if (target.kind === 'kb') {
    const kb = await client.getKb({ kb_id: target.kbId });
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(kb, null, 2) }] };
  }
  const doc = await client.getDocument({ kb_id: target.kbId, doc_id: target.docId });
  return {
    contents: [
      {
        uri,
        mimeType: doc.parser === 'markdown' ? 'text/markdown' : 'text/plain',
        text: doc.content,
        _meta: { title: doc.title, source: doc.source },
      },
    ],
  };
}
