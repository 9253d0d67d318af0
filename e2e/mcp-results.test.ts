import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../src/core/test-support.js';
import { makeFixture, openTestCore, type Fixture } from '../src/mcp/test-support.js';
import { ROOT } from './cli-support.js';
import { httpClient, startServe, stdioClient, type Connected, type Served } from './mcp-helpers.js';
import { payload } from './mcp-suite.js';

/**
 * Issue 8 through the official SDK client, over stdio and over HTTP: precise citations (item 5: a page-2 sentence of
 * a 3-page PDF cites page 2; Markdown cites its section and lines) and results sized for an agent (item 7:
 * get_document within a character budget that says how to read on; snippet mode of the search tools).
 */

let fx: Fixture;
/** A long document: about 200k characters in 400 paragraphs. */
const LONG = Array.from({ length: 400 }, (_, i) =>
  `Paragraph ${i}. The warehouse keeps pallets of goods in aisle ${i % 37}; customs paperwork for lot ${i} is filed weekly.`.repeat(4),
).join('\n\n');

beforeAll(async () => {
  fx = await makeFixture('ragdesk-e2e-results-');
  const core = await openTestCore(fx.dataDir);
  await core.client.createKb({ kb_id: 'manuals', embedding_model: fx.modelDir });
  // Sentence chunks of 128 tokens, as in the issue: they used to run over pages.
  const chunking = { strategy: 'sentence' as const, chunk_size: 128, chunk_overlap: 16 };
  await core.client.addFile({ kb_id: 'manuals', path: path.join(FIXTURES, 'sample.pdf'), doc_id: 'handbook.pdf', chunking });
  await core.client.addFile({ kb_id: 'manuals', path: path.join(ROOT, 'rag_data/en-customs-clearance.md'), doc_id: 'customs.md' });
  await core.client.addDocument({
    kb_id: 'manuals',
    doc_id: 'long',
    title: 'Warehouse log',
    content: LONG,
    chunking: { strategy: 'token' },
  });
  await core.close();
}, 180_000);

afterAll(() => fx?.cleanup());

async function checkCitationsAndSizes(client: Client): Promise<void> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
    return res;
  };
  type Hit = {
    doc_id: string;
    text: string;
    location: { char_start?: number; page?: number; page_end?: number; heading_path?: string[]; line_start?: number; line_end?: number };
  };

  // Item 5: the page the text is on.
  const pdf = payload<{ hits: Hit[] }>(
    await call('search_kb', { kb_id: 'manuals', query: 'defective goods thirty days refund', mode: 'fts' }),
  );
  expect(pdf.hits[0]).toMatchObject({ doc_id: 'handbook.pdf', location: { page: 2 } });
  expect(pdf.hits[0]!.text).toContain('thirty days');
  expect(pdf.hits[0]!.location.page_end).toBeUndefined();
  // Without page-respecting chunks, this page-3 sentence sat in a chunk that began on page 2 and cited page 2.
  const p3 = payload<{ hits: Hit[] }>(await call('search_kb', { kb_id: 'manuals', query: 'battery UN38.3 dangerous goods', mode: 'fts' }));
  expect(p3.hits[0]).toMatchObject({ doc_id: 'handbook.pdf', location: { page: 3 } });
  // Markdown: the section and the source lines the text is on.
  const md = payload<{ hits: Hit[] }>(await call('search_kb', { kb_id: 'manuals', query: 'inspection fee cost centre', mode: 'fts' }));
  const hit = md.hits.find((h) => h.doc_id === 'customs.md')!;
  expect(hit.location.heading_path).toEqual(['Import Customs Clearance', 'Filing the declaration', 'Physical inspections']);
  const line =
    fs
      .readFileSync(path.join(ROOT, 'rag_data/en-customs-clearance.md'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes('inspection fee')) + 1;
  expect(hit.location.line_start).toBeLessThanOrEqual(line);
  expect(hit.location.line_end).toBeGreaterThanOrEqual(line);
  expect(hit.location.line_end! - hit.location.line_start!).toBeLessThan(8);

  // Item 7: a long document comes in parts of at most 32k characters, never silently cut.
  const first = payload<{ content: string; size: number; truncated: boolean; next_offset: number | null; note: string }>(
    await call('get_document', { kb_id: 'manuals', doc_id: 'long' }),
  );
  expect(first.size).toBe(LONG.length);
  expect(first.content.length).toBeLessThanOrEqual(32_000);
  expect(first).toMatchObject({ truncated: true, next_offset: first.content.length });
  expect(first.note).toContain(`offset=${first.next_offset}`);
  let text = first.content;
  let next = first.next_offset;
  while (next !== null) {
    const part = payload<{ content: string; next_offset: number | null }>(
      await call('get_document', { kb_id: 'manuals', doc_id: 'long', offset: next, max_chars: 100_000 }),
    );
    text += part.content;
    next = part.next_offset;
  }
  expect(text).toBe(LONG);
  const small = await client.callTool({ name: 'get_document', arguments: { kb_id: 'manuals', doc_id: 'long', max_chars: 10 } });
  expect(small.isError).toBe(true);

  // Snippet mode: the best-matching part of each chunk, much smaller than the chunks.
  const args = { kb_id: 'manuals', query: 'customs paperwork lot 123', mode: 'fts', top_k: 10 };
  const full = await call('search_kb', args);
  const snip = await call('search_kb', { ...args, snippet: true, snippet_chars: 150 });
  const fullHits = payload<{ hits: Hit[] }>(full).hits;
  const snipHits = payload<{ hits: Array<Hit & { snippet_of?: { start: number; end: number; chunk_chars: number } }> }>(snip).hits;
  expect(snipHits.map((h) => [h.doc_id, h.location.char_start])).toEqual(fullHits.map((h) => [h.doc_id, h.location.char_start]));
  for (const h of snipHits) expect(h.text.length).toBeLessThanOrEqual(152);
  expect(snipHits.some((h) => h.snippet_of && /customs|paperwork/i.test(h.text))).toBe(true);
  const chars = (hits: Hit[]) => hits.reduce((n, h) => n + h.text.length, 0);
  expect(chars(snipHits)).toBeLessThan(chars(fullHits) / 2);
  const all = payload<{ hits: Hit[] }>(
    await call('search_all_accessible_kbs', { query: 'customs paperwork', snippet: true, snippet_chars: 120 }),
  );
  for (const h of all.hits) expect(h.text.length).toBeLessThanOrEqual(122);
}

describe('citations and result sizes through the SDK client', () => {
  let served: Served | undefined;
  let connected: Connected | undefined;

  afterAll(async () => {
    await connected?.close().catch(() => undefined);
    await served?.stop();
  });

  it('over stdio', async () => {
    const c = await stdioClient(fx.dataDir);
    try {
      await checkCitationsAndSizes(c.client);
    } finally {
      await c.close();
    }
  }, 180_000);

  it('over Streamable HTTP (ragdesk serve)', async () => {
    served = await startServe(fx.dataDir);
    connected = await httpClient(served.url, served.token);
    await checkCitationsAndSizes(connected.client);
  }, 180_000);
});
