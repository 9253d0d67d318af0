import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core/core.js';
import { TOOL_NAMES } from './tools/index.js';
import { memoryClient, payload, seededCore, type MemoryPair } from './test-support.js';

let seeded: Awaited<ReturnType<typeof seededCore>>;
let core: Core;
let pair: MemoryPair;

beforeAll(async () => {
  seeded = await seededCore();
  core = seeded.core;
  pair = await memoryClient(core);
});

afterAll(async () => {
  await pair?.close();
  await seeded?.close();
});

const call = (name: string, args: Record<string, unknown> = {}) => pair.client.callTool({ name, arguments: args });

async function expectInvalidParams(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
}

describe('MCP server over the in-memory transport', () => {
  it('lists the 13 tools with titles, schemas and closed-world hints', async () => {
    const { tools } = await pair.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(TOOL_NAMES).toHaveLength(13);
    for (const t of tools) {
      expect(t.title).toBeTruthy();
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations?.openWorldHint).toBe(false);
      expect(typeof t.annotations?.readOnlyHint).toBe('boolean');
    }
    const search = tools.find((t) => t.name === 'search_kb')!;
    expect(search.inputSchema.required).toEqual(['kb_id', 'query']);
    expect((search.inputSchema.properties as Record<string, { default?: unknown }>).top_k!.default).toBe(5);
    expect(tools.find((t) => t.name === 'delete_document')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('answers list_accessible_kbs with structured content and the same JSON as text', async () => {
    const res = await call('list_accessible_kbs');
    expect(res.isError).toBeFalsy();
    expect(JSON.parse((res.content as Array<{ text: string }>)[0]!.text)).toEqual(res.structuredContent);
    const kbs = payload<{ kbs: Array<{ kb_id: string; document_count: number }> }>(res).kbs;
    expect(kbs.map((k) => k.kb_id).sort()).toEqual(['alpha', 'beta', 'secret']);
    expect(kbs.find((k) => k.kb_id === 'alpha')!.document_count).toBe(3);
  });

  it('searches one KB with defaults and returns citable hits', async () => {
    const out = payload<{ hits: Array<Record<string, unknown>>; mode: string }>(
      await call('search_kb', { kb_id: 'alpha', query: 'heart disease blood' }),
    );
    expect(out.mode).toBe('hybrid');
    expect(out.hits.length).toBeGreaterThan(0);
    expect(out.hits.length).toBeLessThanOrEqual(5);
    expect(out.hits[0]).toMatchObject({ doc_id: 'heart', title: 'Heart disease', chunk_index: 0, kb_id: 'alpha' });
    for (const k of ['text', 'score', 'metadata', 'location']) expect(out.hits[0]).toHaveProperty(k);
  });

  it('filters with filter_expr as an object or as text', async () => {
    const obj = payload<{ hits: Array<{ doc_id: string }> }>(
      await call('search_kb', { kb_id: 'alpha', query: 'goods tax coffee heart', mode: 'fts', filter_expr: { year__gte: 2020 } }),
    );
    expect(obj.hits.map((h) => h.doc_id).sort()).toEqual(['coffee', 'heart']);
    const text = payload<{ hits: Array<{ doc_id: string }> }>(
      await call('search_kb', { kb_id: 'alpha', query: 'goods tax coffee heart', mode: 'fts', filter_expr: 'source=gov' }),
    );
    expect(text.hits.map((h) => h.doc_id)).toEqual(['customs']);
  });

  it('searches every KB and tags each hit with metadata._source_kb', async () => {
    const out = payload<{ hits: Array<{ kb_id: string; metadata: Record<string, unknown> }> }>(
      await call('search_all_accessible_kbs', { query: 'customs duties goods таможенные пошлины', top_k: 10 }),
    );
    const kbs = new Set(out.hits.map((h) => h.metadata._source_kb));
    expect(kbs.has('alpha') && kbs.has('beta')).toBe(true);
    for (const h of out.hits) expect(h.metadata._source_kb).toBe(h.kb_id);
  });

  it('reads KB info, documents, chunks, stats and diagnostics', async () => {
    const info = payload<Record<string, unknown>>(await call('get_kb_info', { kb_id: 'alpha' }));
    expect(info).toMatchObject({ kb_id: 'alpha', embedding_model: seeded.fx.modelDir, document_count: 3, chunk_count: 3 });
    expect((info.filterable_fields as Record<string, string>).year).toBe('number');
    const doc = payload<Record<string, unknown>>(await call('get_document', { kb_id: 'alpha', doc_id: 'heart' }));
    expect(doc.content).toContain('cardiovascular');
    const around = payload<{ chunks: unknown[] }>(
      await call('get_document', { kb_id: 'alpha', doc_id: 'heart', chunk_index: 0, window: 2 }),
    );
    expect(around.chunks).toHaveLength(1);
    const list = payload<{ total: number; documents: Array<{ doc_id: string }> }>(
      await call('list_documents', { kb_id: 'alpha', limit: 2 }),
    );
    expect(list.total).toBe(3);
    expect(list.documents).toHaveLength(2);
    const stats = payload<{ kbs: Array<{ kb_id: string; documents: number }> }>(await call('kb_stats'));
    expect(stats.kbs.find((k) => k.kb_id === 'alpha')!.documents).toBe(3);
    const diag = payload<Record<string, unknown>>(await call('kb_diagnostic'));
    expect(diag).toHaveProperty('store_path');
    expect(diag).toHaveProperty('models');
  });

  it('adds one-chunk and chunked documents, a batch, and deletes', async () => {
    const one = payload<{ status: string; chunk_count: number }>(
      await call('add_document', {
        kb_id: 'alpha',
        doc_id: 'note',
        title: 'Note',
        content: 'A short note about the river and the sea. '.repeat(40),
      }),
    );
    expect(one).toMatchObject({ status: 'added', chunk_count: 1 });
    const chunked = payload<{ chunk_count: number }>(
      await call('add_document_chunked', {
        kb_id: 'alpha',
        doc_id: 'long',
        content: 'The forest has many trees and birds. '.repeat(80),
        parser_config: { strategy: 'token', chunk_size: 32, chunk_overlap: 4 },
      }),
    );
    expect(chunked.chunk_count).toBeGreaterThan(3);
    const batch = payload<{ results: Array<{ ok: boolean; error?: { code: string } }>; added: number; failed: number }>(
      await call('add_documents_batch', {
        kb_id: 'alpha',
        documents: [
          { doc_id: 'b1', content: 'music and song' },
          { doc_id: 'b2', content: '' },
          { doc_id: 'b3', content: 'football team win' },
        ],
      }),
    );
    expect(batch.added).toBe(2);
    expect(batch.failed).toBe(1);
    expect(batch.results[1]!.error!.code).toBe('invalid_parameter');
    const del = payload<{ deleted: boolean; chunks_deleted: number }>(await call('delete_document', { kb_id: 'alpha', doc_id: 'long' }));
    expect(del.deleted).toBe(true);
    expect(del.chunks_deleted).toBe(chunked.chunk_count);
    const gone = await call('get_document', { kb_id: 'alpha', doc_id: 'long' });
    expect(gone.isError).toBe(true);
  });

  it('asks with an extractive answer and citations, or not_found', async () => {
    const out = payload<{ answer: string; sources: Array<{ n: number; doc_id: string }>; not_found: boolean; method: string }>(
      await call('ask_knowledge_base', { question: 'What is heart disease?', kb_id: 'alpha' }),
    );
    expect(out.not_found).toBe(false);
    expect(out.method).toBe('extractive');
    expect(out.answer).toMatch(/\[\d\]/);
    expect(out.sources[0]!.n).toBe(1);
    const none = payload<{ not_found: boolean; sources: unknown[] }>(
      await call('ask_knowledge_base', { question: 'zzzz qqqq', kb_id: 'alpha' }),
    );
    expect(none).toMatchObject({ not_found: true, sources: [] });
  });

  it('asks through MCP sampling when the client supports it', async () => {
    const sampler = await memoryClient(core, {
      sampling: (text) => `Sampled answer [1] (${text.includes('[1]') ? 'with sources' : 'no sources'})`,
    });
    try {
      const out = payload<{ answer: string; method: string }>(
        await sampler.client.callTool({ name: 'ask_knowledge_base', arguments: { question: 'heart disease', kb_id: 'all' } }),
      );
      expect(out).toMatchObject({ method: 'sampling', answer: 'Sampled answer [1] (with sources)' });
    } finally {
      await sampler.close();
    }
  });

  it('reports domain failures as isError results with stable codes', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['search_kb', { kb_id: 'nope', query: 'x' }, 'kb_not_found'],
      ['search_kb', { kb_id: 'alpha', query: '   ' }, 'invalid_parameter'],
      ['search_kb', { kb_id: 'alpha', query: 'x', top_k: 0 }, 'invalid_parameter'],
      ['search_kb', { kb_id: 'alpha', query: 'x', top_k: 51 }, 'invalid_parameter'],
      ['search_kb', { kb_id: 'alpha', query: 'x', filter_expr: { colour: 'red' } }, 'invalid_parameter'],
      ['search_kb', { kb_id: 'alpha', query: 'x', filter_expr: { year__gte: 'soon' } }, 'invalid_parameter'],
      ['get_document', { kb_id: 'alpha', doc_id: 'missing' }, 'document_not_found'],
      ['get_document', { kb_id: 'alpha', doc_id: 'heart', chunk_index: 9 }, 'invalid_parameter'],
      ['delete_document', { kb_id: 'alpha', doc_id: 'missing' }, 'document_not_found'],
      ['add_document', { kb_id: 'alpha', doc_id: 'heart', content: 'different text about cats' }, 'document_already_exists'],
      ['add_document', { kb_id: 'alpha', content: '' }, 'invalid_parameter'],
      ['list_documents', { kb_id: 'alpha', limit: 0 }, 'invalid_parameter'],
      ['list_documents', { kb_id: 'alpha', limit: 1001 }, 'invalid_parameter'],
      [
        'add_documents_batch',
        { kb_id: 'alpha', documents: Array.from({ length: 501 }, (_, i) => ({ content: `doc ${i}` })) },
        'invalid_parameter',
      ],
    ];
    for (const [tool, args, code] of cases) {
      const res = await call(tool, args);
      expect(res.isError, `${tool} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(res.structuredContent).toBeUndefined();
      expect(payload<{ code: string; message: string }>(res)).toMatchObject({ code });
    }
    const docs = payload<{ total: number }>(await call('list_documents', { kb_id: 'alpha' }));
    expect(docs.total).toBe(6);
  });

  it('reports too_large for a text over the engine limit, writing nothing', async () => {
    const limit = core.ctx.options.maxTextChars;
    core.ctx.options.maxTextChars = 100;
    try {
      const res = await call('add_document', { kb_id: 'beta', doc_id: 'huge', content: 'закон '.repeat(50) });
      expect(payload(res)).toMatchObject({ code: 'too_large' });
    } finally {
      core.ctx.options.maxTextChars = limit;
    }
    expect(payload(await call('get_document', { kb_id: 'beta', doc_id: 'huge' }))).toMatchObject({ code: 'document_not_found' });
  });

  it('rejects arguments that break the schema with JSON-RPC InvalidParams', async () => {
    await expectInvalidParams(call('search_kb', { kb_id: 'alpha' }));
    await expectInvalidParams(call('search_kb', { kb_id: 'alpha', query: 'x', top_k: 'five' }));
    await expectInvalidParams(call('search_kb', { kb_id: 'alpha', query: 'x', mode: 'magic' }));
    await expectInvalidParams(call('search_kb', { kb_id: 'alpha', query: 'x', colour: 1 }));
    await expectInvalidParams(call('add_document', { kb_id: 'alpha', content: 42 }));
    await expectInvalidParams(call('no_such_tool', {}));
  });

  it('serves resources and prompts', async () => {
    const { resources } = await pair.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('ragdesk://kbs');
    expect(uris).toContain('ragdesk://kb/alpha');
    expect(uris).toContain('ragdesk://kb/alpha/doc/heart');
    const { resourceTemplates } = await pair.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('ragdesk://kb/{kb_id}/doc/{doc_id}');
    const doc = await pair.client.readResource({ uri: 'ragdesk://kb/alpha/doc/heart' });
    expect((doc.contents[0] as { text: string }).text).toContain('cardiovascular');
    await expect(pair.client.readResource({ uri: 'ragdesk://kb/alpha/doc/missing' })).rejects.toThrow(/not found/);
    const { prompts } = await pair.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['answer_with_citations', 'summarize_document']);
    const p = await pair.client.getPrompt({ name: 'summarize_document', arguments: { kb_id: 'alpha', doc_id: 'heart' } });
    expect(JSON.stringify(p.messages)).toContain('cardiovascular');
    const a = await pair.client.getPrompt({ name: 'answer_with_citations', arguments: { question: 'What is a duty?' } });
    expect(JSON.stringify(a.messages)).toContain('list_accessible_kbs');
    await expectInvalidParams(pair.client.getPrompt({ name: 'summarize_document', arguments: { kb_id: 'alpha' } }));
  });
});
