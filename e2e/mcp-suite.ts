import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

/** Every tool and every error code a tool can produce, through a real client (stdio or HTTP), as the owner. */

export function payload<T = Record<string, unknown>>(result: unknown): T {
  const r = result as CallToolResult;
  if (r.structuredContent) return r.structuredContent as T;
  const first = r.content?.[0];
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as T;
}

export async function expectInvalidParams(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected a JSON-RPC InvalidParams error').toBeInstanceOf(McpError);
  expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
}

export async function expectCode(client: Client, tool: string, args: Record<string, unknown>, code: string): Promise<void> {
  const res = await client.callTool({ name: tool, arguments: args });
  expect(res.isError, `${tool} should fail with ${code}`).toBe(true);
  expect(payload<{ code: string; message: string }>(res)).toMatchObject({ code, message: expect.any(String) });
}

const EXPECTED_TOOLS = [
  'list_accessible_kbs',
  'get_kb_info',
  'search_kb',
  'search_all_accessible_kbs',
  'get_document',
  'list_documents',
  'add_document',
  'add_document_chunked',
  'add_documents_batch',
  'delete_document',
  'ask_knowledge_base',
  'kb_stats',
  'kb_diagnostic',
];

/** Runs every tool once successfully and every reachable error path; `tag` keeps doc ids apart between runs. */
export async function exerciseAllTools(client: Client, tag: string): Promise<void> {
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(EXPECTED_TOOLS);
  for (const t of tools) expect(t.outputSchema, t.name).toBeDefined();

  const kbs = payload<{ kbs: Array<{ kb_id: string }> }>(await call('list_accessible_kbs')).kbs.map((k) => k.kb_id);
  expect(kbs).toEqual(expect.arrayContaining(['alpha', 'beta', 'secret']));
  expect(payload(await call('get_kb_info', { kb_id: 'alpha' }))).toMatchObject({ kb_id: 'alpha', document_count: expect.any(Number) });

  const search = await call('search_kb', { kb_id: 'alpha', query: 'heart disease blood pressure' });
  expect(JSON.parse((search.content as Array<{ text: string }>)[0]!.text)).toEqual(search.structuredContent);
  const hits = payload<{ hits: Array<{ doc_id: string; chunk_index: number; location: object; metadata: object }> }>(search).hits;
  expect(hits[0]).toMatchObject({ doc_id: 'heart', chunk_index: 0, location: expect.any(Object), metadata: expect.any(Object) });
  const all = payload<{ hits: Array<{ metadata: { _source_kb?: string } }> }>(
    await call('search_all_accessible_kbs', { query: 'customs duties таможенные пошлины', top_k: 10 }),
  );
  expect(all.hits.every((h) => typeof h.metadata._source_kb === 'string')).toBe(true);

  expect(payload(await call('get_document', { kb_id: 'alpha', doc_id: 'heart' }))).toMatchObject({
    content: expect.stringContaining('cardiovascular'),
  });
  expect(payload(await call('get_document', { kb_id: 'alpha', doc_id: 'heart', chunk_index: 0 }))).toMatchObject({
    chunks: [expect.objectContaining({ chunk_index: 0 })],
  });
  const before = payload<{ total: number }>(await call('list_documents', { kb_id: 'alpha' })).total;

  const one = `${tag}-one`;
  expect(
    payload(
      await call('add_document', {
        kb_id: 'alpha',
        doc_id: one,
        title: 'One',
        content: `A note about the river ${tag}.`,
        metadata: { year: 2030 },
        source: 'e2e',
      }),
    ),
  ).toMatchObject({ status: 'added', chunk_count: 1 });
  await expectCode(client, 'add_document', { kb_id: 'alpha', doc_id: one, content: 'other text about the sea' }, 'document_already_exists');
  expect(
    payload(
      await call('add_document', {
        kb_id: 'alpha',
        doc_id: one,
        content: 'other text about the sea',
        metadata: { year: 2030 },
        source: 'e2e',
        overwrite: true,
      }),
    ),
  ).toMatchObject({ status: 'updated' });
  const chunked = payload<{ chunk_count: number }>(
    await call('add_document_chunked', {
      kb_id: 'alpha',
      doc_id: `${tag}-long`,
      content: 'Trees grow in the forest near the river. '.repeat(60),
      parser_config: { strategy: 'sentence', chunk_size: 32, chunk_overlap: 0 },
    }),
  );
  expect(chunked.chunk_count).toBeGreaterThan(2);
  const batch = payload<{ added: number; failed: number; results: Array<{ ok: boolean; error?: { code: string } }> }>(
    await call('add_documents_batch', {
      kb_id: 'alpha',
      documents: [
        { doc_id: `${tag}-b1`, content: 'music song art' },
        { doc_id: one, content: 'clash' },
        { doc_id: `${tag}-b3`, content: 'game play sport' },
      ],
    }),
  );
  expect(batch).toMatchObject({ added: 2, failed: 1 });
  expect(batch.results[1]!.error!.code).toBe('document_already_exists');
  const filtered = payload<{ hits: Array<{ doc_id: string }> }>(
    await call('search_kb', { kb_id: 'alpha', query: 'sea river', mode: 'fts', filter_expr: { year__gte: 2030, source: 'e2e' } }),
  );
  expect(filtered.hits.map((h) => h.doc_id)).toEqual([one]);
  expect(payload(await call('delete_document', { kb_id: 'alpha', doc_id: `${tag}-long` }))).toMatchObject({
    deleted: true,
    chunks_deleted: chunked.chunk_count,
  });
  await expectCode(client, 'delete_document', { kb_id: 'alpha', doc_id: `${tag}-long` }, 'document_not_found');
  expect(payload<{ total: number }>(await call('list_documents', { kb_id: 'alpha' })).total).toBe(before + 3);

  const ask = payload<{ answer: string; not_found: boolean; sources: unknown[] }>(
    await call('ask_knowledge_base', { question: 'What is heart disease?' }),
  );
  expect(ask.not_found).toBe(false);
  expect(ask.answer).toMatch(/\[1\]/);
  expect(payload(await call('ask_knowledge_base', { question: 'zzqx wwvy', kb_id: 'alpha' }))).toMatchObject({
    not_found: true,
    sources: [],
  });
  expect(payload<{ kbs: unknown[] }>(await call('kb_stats')).kbs.length).toBeGreaterThanOrEqual(3);
  expect(payload(await call('kb_diagnostic'))).toMatchObject({
    store_path: expect.any(String),
    models: expect.any(Array),
    versions: expect.any(Object),
  });

  // Failures: tool results with stable codes, nothing written.
  await expectCode(client, 'search_kb', { kb_id: 'nope', query: 'x' }, 'kb_not_found');
  await expectCode(client, 'get_kb_info', { kb_id: 'nope' }, 'kb_not_found');
  await expectCode(client, 'get_document', { kb_id: 'alpha', doc_id: 'missing' }, 'document_not_found');
  await expectCode(client, 'search_kb', { kb_id: 'alpha', query: '' }, 'invalid_parameter');
  await expectCode(client, 'search_kb', { kb_id: 'alpha', query: 'x', top_k: 0 }, 'invalid_parameter');
  await expectCode(client, 'search_kb', { kb_id: 'alpha', query: 'x', top_k: 51 }, 'invalid_parameter');
  await expectCode(client, 'search_all_accessible_kbs', { query: 'x', filter_expr: { nosuchfield: 1 } }, 'invalid_parameter');
  await expectCode(client, 'search_kb', { kb_id: 'alpha', query: 'x', filter_expr: { year__gt: 'later' } }, 'invalid_parameter');
  await expectCode(client, 'list_documents', { kb_id: 'alpha', limit: 1001 }, 'invalid_parameter');
  await expectCode(
    client,
    'add_documents_batch',
    { kb_id: 'alpha', documents: Array.from({ length: 501 }, (_, i) => ({ doc_id: `${tag}-x${i}`, content: `item ${i}` })) },
    'invalid_parameter',
  );
  await expectCode(client, 'add_document', { kb_id: 'alpha', doc_id: `${tag}-empty`, content: '   ' }, 'invalid_parameter');
  await expectCode(
    client,
    'add_document_chunked',
    { kb_id: 'alpha', doc_id: `${tag}-bad`, content: 'text', parser_config: { chunk_size: 4 } },
    'invalid_parameter',
  );
  await expectCode(client, 'search_kb', { kb_id: 'broken', query: 'x', mode: 'vector' }, 'model_unavailable');
  // Arguments that break the schema: JSON-RPC InvalidParams.
  await expectInvalidParams(call('search_kb', { kb_id: 'alpha' }));
  await expectInvalidParams(call('search_kb', { kb_id: 'alpha', query: 'x', top_k: 'ten' }));
  await expectInvalidParams(call('add_document', { kb_id: 'alpha', content: 'x', metadata: { nested: { deep: 1 } } }));
  await expectInvalidParams(call('add_document_chunked', { kb_id: 'alpha', content: 'x', parser_config: { strategy: 'paragraphs' } }));
  await expectInvalidParams(call('unknown_tool'));
  expect(payload<{ total: number }>(await call('list_documents', { kb_id: 'alpha' })).total).toBe(before + 3);

  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    expect.arrayContaining(['ragdesk://kbs', 'ragdesk://kb/alpha', 'ragdesk://kb/alpha/doc/heart']),
  );
  const doc = await client.readResource({ uri: 'ragdesk://kb/alpha/doc/heart' });
  expect((doc.contents[0] as { text: string }).text).toContain('cardiovascular');
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual(['answer_with_citations', 'summarize_document']);
  const summary = await client.getPrompt({ name: 'summarize_document', arguments: { kb_id: 'alpha', doc_id: 'heart' } });
  expect(JSON.stringify(summary.messages)).toContain('cardiovascular');
}

/** The permission matrix for a key that may read alpha and beta and write nothing. */
export async function exerciseReadOnlyKey(client: Client): Promise<void> {
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  const kbs = payload<{ kbs: Array<{ kb_id: string }> }>(await call('list_accessible_kbs'))
    .kbs.map((k) => k.kb_id)
    .sort();
  expect(kbs).toEqual(['alpha', 'beta']);
  await expectCode(client, 'add_document', { kb_id: 'alpha', content: 'a new note' }, 'permission_denied');
  await expectCode(client, 'add_documents_batch', { kb_id: 'alpha', documents: [{ content: 'x' }] }, 'permission_denied');
  await expectCode(client, 'delete_document', { kb_id: 'alpha', doc_id: 'heart' }, 'permission_denied');
  await expectCode(client, 'search_kb', { kb_id: 'secret', query: 'bank' }, 'kb_not_found');
  await expectCode(client, 'get_document', { kb_id: 'secret', doc_id: 'bank' }, 'kb_not_found');
  const all = payload<{ hits: Array<{ kb_id: string }> }>(
    await call('search_all_accessible_kbs', { query: 'bank report money market heart disease', top_k: 50 }),
  );
  expect(all.hits.length).toBeGreaterThan(0);
  expect(all.hits.some((h) => h.kb_id === 'secret')).toBe(false);
  const { resources } = await client.listResources();
  expect(resources.some((r) => r.uri.includes('/secret'))).toBe(false);
  await expect(client.readResource({ uri: 'ragdesk://kb/secret/doc/bank' })).rejects.toThrow(/not found/i);
}

/** A 60-section customs handbook (Markdown), none of whose words is in the React note. */
export function customsHandbook(): string {
  const topics = ['declaration', 'tariff classification', 'inspection', 'bonded warehouse', 'origin certificate', 'duty drawback'];
  return Array.from({ length: 60 }, (_, i) => {
    const topic = topics[i % topics.length]!;
    return (
      `## Section ${i + 1}: ${topic}\n\n` +
      `Importers lodge a customs declaration for each consignment before the goods are released (section ${i + 1}). ` +
      `The ${topic} rules decide the duty owed at the border; brokers keep the invoice, packing list and bill of lading. ` +
      `Officers may hold a container for inspection at the port until every document is checked.`
    );
  }).join('\n\n');
}

/**
 * Issue 8's repro of read-your-writes full-text search, through a real client: an empty KB (`kbId`, created by the
 * caller), a short note with add_document, a 60-section handbook with add_document_chunked, then searches that
 * must rank as a freshly built index would. `ruKb` holds a Russian customs document (the seed's beta).
 */
export async function exerciseReadYourWrites(client: Client, kbId: string, ruKb = 'beta'): Promise<void> {
  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  const added = await call('add_document', {
    kb_id: kbId,
    doc_id: 'react-18',
    title: 'React 18 note',
    content: 'React 18 brings concurrent rendering: React can prepare several versions of the UI at once and interrupt a render.',
  });
  expect(payload(added)).toMatchObject({ status: 'added' });
  const handbook = await call('add_document_chunked', {
    kb_id: kbId,
    doc_id: 'customs-handbook',
    title: 'Customs handbook',
    content: customsHandbook(),
    parser_config: { strategy: 'sentence', chunk_size: 128 },
  });
  expect(payload<{ chunk_count: number }>(handbook).chunk_count).toBeGreaterThan(20);

  type Hits = { hits: Array<{ doc_id: string; kb_id: string; text: string }> };
  const fts = payload<Hits>(await call('search_kb', { kb_id: kbId, query: 'customs declaration', mode: 'fts', top_k: 10 }));
  expect(fts.hits).toHaveLength(10);
  expect(fts.hits.every((h) => h.doc_id === 'customs-handbook')).toBe(true);
  for (const mode of ['fts', 'hybrid']) {
    const react = payload<Hits>(await call('search_kb', { kb_id: kbId, query: 'How does concurrent rendering work in React 18?', mode }));
    expect(react.hits[0]?.doc_id, mode).toBe('react-18');
  }
  const all = payload<Hits>(await call('search_all_accessible_kbs', { query: 'customs declaration таможенная', mode: 'fts', top_k: 10 }));
  // Scores comparable across KBs: the handbook's chunks and the Russian document both make the list.
  expect([...new Set(all.hits.map((h) => h.kb_id))]).toEqual(expect.arrayContaining([kbId, ruKb]));
}
