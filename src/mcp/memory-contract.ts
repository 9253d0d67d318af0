import { createHash } from 'node:crypto';
import {
  contract,
  DEFAULT_CHUNKING,
  ragClient,
  type Chunk,
  type DocumentFull,
  type Hit,
  type Kb,
  type KbSummary,
  type MethodName,
  type ParsedInput,
  type RagClient,
} from '../shared/contract/index.js';
import { RagError } from '../shared/errors.js';
import type { z } from 'zod';
import type { ToolContext, ToolDef } from './tool-kit.js';

/**
 * The contract over in-memory data, for the MCP tools' unit tests: a real transport (every input parsed and every
 * output checked with the contract's own schemas, as the dispatcher does) in front of a small store of KBs,
 * documents and chunks. Search ranks chunks by how many query words they contain. Not a mock of core internals:
 * tools see exactly what they see in production, the contract.
 */
export interface MemoryDoc {
  doc_id: string;
  title?: string;
  content: string;
  source?: string;
  metadata?: Record<string, string | number | boolean | string[]>;
  /** Chunk texts (default: one chunk, the whole content). */
  chunks?: string[];
}

export interface MemoryState {
  kbs: Kb[];
  docs: Map<string, DocumentFull & { chunks: Chunk[] }>;
  /** Every call that reached the contract: method and parsed input. */
  calls: Array<[MethodName, unknown]>;
  /** KBs the caller may read (undefined: all, the owner). */
  readable?: ReadonlySet<string>;
}

const NOW = '2026-01-01T00:00:00.000Z';
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

export function memoryKb(kb_id: string, extra: Partial<Kb> = {}): Kb {
  return {
    kb_id,
    name: kb_id,
    description: '',
    department: '',
    enabled: true,
    embedding_model: 'fixture',
    embedding_dim: 32,
    languages: [],
    chunking: DEFAULT_CHUNKING,
    metadata_fields: {},
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  };
}

function storeDoc(state: MemoryState, kbId: string, d: MemoryDoc): DocumentFull {
  const texts = d.chunks ?? [d.content];
  let at = 0;
  const chunks: Chunk[] = texts.map((text, chunk_index) => {
    const start = Math.max(0, d.content.indexOf(text, at));
    at = start + text.length;
    return { chunk_index, text, characters: text.length, tokens: text.split(/\s+/).length, location: { char_start: start, char_end: at } };
  });
  const full = {
    kb_id: kbId,
    doc_id: d.doc_id,
    title: d.title ?? d.doc_id,
    source: d.source ?? '',
    metadata: d.metadata ?? {},
    parser: 'text',
    chunking: DEFAULT_CHUNKING,
    chunk_count: chunks.length,
    size: d.content.length,
    content_hash: sha256Hex(d.content),
    created_at: NOW,
    updated_at: NOW,
    content: d.content,
  };
  state.docs.set(`${kbId}/${d.doc_id}`, { ...full, chunks });
  return full;
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A RagClient over in-memory KBs; `state` shows what reached it. */
export function memoryClient(
  kbs: Record<string, MemoryDoc[]>,
  options: { readable?: string[] } = {},
): { client: RagClient; state: MemoryState } {
  const state: MemoryState = { kbs: Object.keys(kbs).map((id) => memoryKb(id)), docs: new Map(), calls: [] };
  if (options.readable) state.readable = new Set(options.readable);
  for (const [kbId, docs] of Object.entries(kbs)) for (const d of docs) storeDoc(state, kbId, d);
  const visible = (id: string) => !state.readable || state.readable.has(id);
  const kbOf = (id: string) => {
    const kb = state.kbs.find((k) => k.kb_id === id);
    if (!kb || !visible(id)) throw new RagError('kb_not_found', `knowledge base "${id}" not found`, { details: { kb_id: id } });
    return kb;
  };
  const docsOf = (kbId: string) => [...state.docs.values()].filter((d) => d.kb_id === kbId);
  const docOf = (kbId: string, docId: string) => {
    kbOf(kbId);
    const d = state.docs.get(`${kbId}/${docId}`);
    if (!d) throw new RagError('document_not_found', `document "${docId}" not found in "${kbId}"`);
    return d;
  };
  const summary = (kb: Kb): KbSummary => ({
    ...kb,
    document_count: docsOf(kb.kb_id).length,
    chunk_count: docsOf(kb.kb_id).reduce((n, d) => n + d.chunk_count, 0),
  });
  const handlers: Partial<{ [M in MethodName]: (input: ParsedInput<M>) => unknown }> = {
    listKbs: () => state.kbs.filter((k) => visible(k.kb_id)).map(summary),
    getKb: (i) => summary(kbOf(i.kb_id)),
    getDocument: (i) => {
      const { chunks: _chunks, ...doc } = docOf(i.kb_id, i.doc_id);
      return doc;
    },
    listDocuments: (i) => {
      kbOf(i.kb_id);
      const all = docsOf(i.kb_id).map(({ chunks: _chunks, content: _content, ...d }) => d);
      return { total: all.length, documents: all.slice(i.offset, i.offset + i.limit) };
    },
    listChunks: (i) => {
      const d = docOf(i.kb_id, i.doc_id);
      return { total: d.chunks.length, chunks: d.chunks.slice(i.offset, i.offset + i.limit) };
    },
    addDocument: (i) => {
      kbOf(i.kb_id);
      const doc_id = i.doc_id ?? sha256Hex(i.content).slice(0, 16);
      const existed = state.docs.has(`${i.kb_id}/${doc_id}`);
      if (existed && !i.overwrite) throw new RagError('document_already_exists', `document "${doc_id}" already exists`);
      const d = storeDoc(state, i.kb_id, { ...i, doc_id, metadata: (i.metadata ?? {}) as MemoryDoc['metadata'] });
      return { kb_id: i.kb_id, doc_id, status: existed ? 'updated' : 'added', chunk_count: d.chunk_count, parser: 'text', embedded: true };
    },
    addDocumentsBatch: (i) => {
      kbOf(i.kb_id);
      const results = i.documents.map((raw, index) => {
        const item = raw as { doc_id: string; content: string };
        const d = storeDoc(state, i.kb_id, item);
        const result = {
          kb_id: i.kb_id,
          doc_id: d.doc_id,
          status: 'added' as const,
          chunk_count: d.chunk_count,
          parser: 'text',
          embedded: true,
        };
        return { index, doc_id: item.doc_id, ok: true, result };
      });
      return { results, added: results.length, updated: 0, skipped: 0, failed: 0 };
    },
    deleteDocument: (i) => {
      const d = docOf(i.kb_id, i.doc_id);
      state.docs.delete(`${i.kb_id}/${i.doc_id}`);
      return { kb_id: i.kb_id, doc_id: i.doc_id, deleted: true, chunks_deleted: d.chunk_count };
    },
    search: (i) => {
      const kbs = (i.kb_ids ?? state.kbs.filter((k) => k.enabled && visible(k.kb_id)).map((k) => k.kb_id)).map(kbOf);
      const terms = new Set(words(i.query));
      const hits: Hit[] = [];
      for (const kb of kbs) {
        for (const d of docsOf(kb.kb_id)) {
          for (const c of d.chunks) {
            const score = words(c.text).filter((w) => terms.has(w)).length;
            if (score > 0 || i.mode === 'vector') {
              hits.push({
                kb_id: kb.kb_id,
                doc_id: d.doc_id,
                title: d.title,
                text: c.text,
                score,
                chunk_index: c.chunk_index,
                location: c.location,
                source: d.source,
                metadata: d.metadata,
              });
            }
          }
        }
      }
      hits.sort((a, b) => b.score - a.score);
      return { mode: i.mode, reranked: false, hits: hits.slice(0, i.top_k) };
    },
    // Marks whole words that equal a query word (this store's search matches words exactly).
    highlightTerms: (i) => {
      const terms = new Set(words(i.query));
      const marks = (i.texts ?? []).map((t) =>
        [...t.matchAll(/[\p{L}\p{N}]+/gu)]
          .filter((m) => terms.has(m[0].toLowerCase()))
          .map((m): [number, number] => [m.index, m.index + m[0].length]),
      );
      return { prefixes: [], exact: [...terms], ...(i.texts ? { marks } : {}) };
    },
    modelStatus: () => [{ model: 'fixture', resolved: '/models/fixture', kind: 'embedding', state: 'loaded', dim: 32 }],
    stats: () => ({
      kbs: state.kbs
        .filter((k) => visible(k.kb_id))
        .map((k) => ({
          kb_id: k.kb_id,
          name: k.name,
          enabled: k.enabled,
          documents: docsOf(k.kb_id).length,
          chunks: summary(k).chunk_count,
          size_bytes: 1000,
          embedding_model: k.embedding_model,
          embedding_dim: k.embedding_dim,
          vector_index: 'none',
          fts_index: 'ready',
          last_update: NOW,
          migration: null,
        })),
    }),
    listSources: () => [],
    listJobs: () => ({ jobs: [] }),
    healthReport: (i) => ({ kb_id: kbOf(i.kb_id).kb_id, embedding_model: 'fixture', updated_at: null, total: 0, counts: {}, files: [] }),
    diagnostic: () => ({
      data_dir: state.readable ? null : '/data',
      store_path: state.readable ? null : '/data/lance',
      versions: { ragdesk: 'test' },
      models: [{ model: 'fixture', resolved: '/models/fixture', kind: 'embedding', state: 'loaded', dim: 32 }],
      kbs: [],
      warnings: [],
    }),
  };
  const client = ragClient(async (method, raw) => {
    const name = method as MethodName;
    const spec = contract[name];
    const parsed = spec.input.safeParse(raw);
    if (!parsed.success) throw new RagError('invalid_parameter', parsed.error.issues.map((x) => x.message).join('; '));
    state.calls.push([name, parsed.data]);
    const handler = handlers[name] as ((input: unknown) => unknown) | undefined;
    if (!handler) throw new RagError('internal', `${method} is not part of the memory contract`);
    const out = spec.output.safeParse(await handler(parsed.data));
    if (!out.success) throw new RagError('internal', `memory ${method} broke the contract: ${out.error.message}`);
    return out.data;
  });
  return { client, state };
}

/** Run a tool as the MCP server does: arguments parsed with its input schema, result checked against its output. */
export async function runTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: ToolDef<I, O>,
  args: z.input<I>,
  client: RagClient,
  extra: Partial<Omit<ToolContext, 'client'>> = {},
): Promise<z.output<O>> {
  const parsed = tool.input.parse(args);
  const out = await tool.run(parsed, { client, signal: new AbortController().signal, ...extra });
  return tool.output.parse(out);
}
