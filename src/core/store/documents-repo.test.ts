import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { arrow } from './arrow.js';
import { documentsSchema } from './arrow-schemas.js';
import { DOCUMENTS_TABLE, DocumentsRepo, type DocumentRow } from './documents-repo.js';

const row = (docId: string, file: string | null): DocumentRow => ({
  kb_id: 'k',
  doc_id: docId,
  title: docId,
  source: '/bin/sh',
  metadata: {},
  content: 'text',
  content_hash: docId,
  parser: 'text',
  chunking: { strategy: 'whole', chunk_size: 8192, chunk_overlap: 0 },
  chunk_count: 1,
  size: 4,
  version: 'v1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  file_path: file,
});

describe('documents table: the recorded file path', () => {
  it('is kept apart from the caller-written source, and never part of a summary', async () => {
    const db = await lancedb.connect(tempDir());
    const repo = await DocumentsRepo.open(db);
    await repo.upsert([row('a', '/home/ann/a.md'), row('b', null)], true);
    expect(await repo.filePath('k', 'a')).toBe('/home/ann/a.md');
    expect(await repo.filePath('k', 'b')).toBeNull();
    expect(await repo.filePath('k', 'none')).toBeUndefined();
    expect(await repo.summary('k', 'a')).not.toHaveProperty('file_path');
    expect(await repo.get('k', 'a')).not.toHaveProperty('file_path');
  });

  it('a table from before the column gets it (null) when opened', async () => {
    const db = await lancedb.connect(tempDir());
    const old = new arrow.Schema(documentsSchema().fields.filter((f) => f.name !== 'file_path'));
    await db.createEmptyTable(DOCUMENTS_TABLE, old);
    const repo = await DocumentsRepo.open(db);
    await repo.upsert([row('a', '/home/ann/a.md')]);
    expect(await repo.filePath('k', 'a')).toBe('/home/ann/a.md');
    const again = await DocumentsRepo.open(db);
    expect(await again.filePath('k', 'a')).toBe('/home/ann/a.md');
  });
});

describe('documents table: compaction of one-document writes', () => {
  it('folds the fragments of single writes together, while writes of two KBs go on, and loses none', async () => {
    const db = await lancedb.connect(tempDir());
    const repo = await DocumentsRepo.open(db);
    const table = await db.openTable(DOCUMENTS_TABLE);
    for (let i = 0; i < 40; i++) await repo.upsert([row(`d${i}`, null)], i % 2 === 0);
    await table.checkoutLatest();
    expect((await table.stats()).fragmentStats.numFragments).toBeGreaterThanOrEqual(32);
    // Writes of another KB and deletes run while compaction does: commits are taken one at a time.
    const other = (i: number): DocumentRow => ({ ...row(`o${i}`, null), kb_id: 'other' });
    const [compacted] = await Promise.all([
      repo.compactIfFragmented(),
      (async () => {
        for (let i = 0; i < 10; i++) await repo.upsert([other(i)]);
      })(),
      repo.delete('k', 'd3'),
    ]);
    expect(compacted).toBe(true);
    await table.checkoutLatest();
    expect((await table.stats()).fragmentStats.numFragments).toBeLessThan(16);
    expect(await repo.count('k')).toBe(39);
    expect(await repo.count('other')).toBe(10);
    expect(await repo.summary('k', 'd3')).toBeUndefined();
    expect((await repo.summary('k', 'd39'))?.doc_id).toBe('d39');
    // Few small fragments: nothing to do.
    expect(await repo.compactIfFragmented()).toBe(false);
  });
});

describe('documents table: docHashes', () => {
  it('reads every document of one KB across fragments and batches, or only those the filter keeps', async () => {
    const db = await lancedb.connect(tempDir());
    const repo = await DocumentsRepo.open(db);
    const many = (kb: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...row(`s${(from + i) % 3}/d${from + i}`, null), kb_id: kb, content_hash: `h${from + i}` }));
    // Three writes (three fragments), past LanceDB's batch of 1,024 rows, and another KB's documents beside them.
    await repo.upsert(many('k', 0, 1500), true);
    await repo.upsert(many('k', 1500, 1500), true);
    await repo.upsert(many('other', 0, 700), true);
    const all = await repo.docHashes('k');
    expect(all.size).toBe(3000);
    expect(all.get('s0/d0')).toBe('h0');
    expect(all.get('s2/d2999')).toBe('h2999');
    const mine = await repo.docHashes('k', (id) => id.startsWith('s1/'));
    expect(mine.size).toBe(1000);
    expect([...mine.keys()].every((id) => id.startsWith('s1/'))).toBe(true);
    expect(mine.get('s1/d1600')).toBe('h1600');
    expect((await repo.docHashes('other')).size).toBe(700);
    expect((await repo.docHashes('none')).size).toBe(0);
    // The same reads for the versions (crash repair) and the last write (KB stats).
    expect((await repo.versions('k')).get('s1/d1600')).toBe('v1');
    expect((await repo.versions('k')).size).toBe(3000);
    await repo.upsert([{ ...row('late', null), updated_at: '2026-02-03T04:05:06.000Z' }], true);
    expect(await repo.lastUpdate('k')).toBe('2026-02-03T04:05:06.000Z');
    expect(await repo.lastUpdate('other')).toBe('2026-01-01T00:00:00.000Z');
    expect(await repo.lastUpdate('none')).toBeNull();
  });
});

describe('documents table: known (a write decision in one query)', () => {
  it('gives the existing documents’ summaries and a holder of each stored hash, in batches of 500, for one KB only', async () => {
    const db = await lancedb.connect(tempDir());
    const repo = await DocumentsRepo.open(db);
    const many = (kb: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...row(`d${from + i}`, null), kb_id: kb, content_hash: `h${(from + i) % 900}` }));
    await repo.upsert(many('k', 0, 1200), true);
    await repo.upsert(many('other', 0, 50), true);
    // 700 ids (two batches), of which 600 exist; 800 hashes, of which 500 are stored (some by two documents).
    const ids = Array.from({ length: 700 }, (_, i) => `d${i * 2}`);
    const hashes = Array.from({ length: 800 }, (_, i) => `h${i + 400}`);
    const known = await repo.known('k', ids, hashes);
    expect([...known.existing.keys()].sort()).toEqual(ids.filter((id) => Number(id.slice(1)) < 1200).sort());
    expect(known.existing.size).toBe(600);
    expect(known.existing.get('d1198')).toMatchObject({ kb_id: 'k', doc_id: 'd1198', content_hash: 'h298', version: 'v1' });
    expect(known.existing.get('d1198')).not.toHaveProperty('content');
    expect(known.hashes.size).toBe(500);
    // Each stored hash to a document that holds it (h400 is held by d400 and d1300).
    for (const [hash, docId] of known.hashes) expect(`h${Number(docId.slice(1)) % 900}`).toBe(hash);
    // summaries and findByHashes are its two halves.
    expect(await repo.summaries('k', ids)).toEqual(known.existing);
    expect(await repo.findByHashes('k', hashes)).toEqual(known.hashes);
    // Only ids, only hashes, neither, another KB.
    expect((await repo.known('k', ['d3', 'nope'], [])).existing.size).toBe(1);
    expect((await repo.known('k', [], ['h3'])).hashes.get('h3')).toMatch(/^d(3|903)$/);
    expect((await repo.known('k', [], ['h3'])).existing.size).toBe(0);
    expect(await repo.known('k', [], [])).toEqual({ existing: new Map(), hashes: new Map() });
    expect((await repo.known('other', ['d1', 'd60'], ['h60'])).existing.size).toBe(1);
  });
});

describe('documents table: page', () => {
  it('gives the page of the newest documents, filtered, as ordering every row would, with the total', async () => {
    const db = await lancedb.connect(tempDir());
    const repo = await DocumentsRepo.open(db);
    // 3,000 documents written in an order unrelated to their times (and ties), in two writes.
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 2500) * 1000).toISOString();
    const docs = Array.from({ length: 3000 }, (_, i) => ({
      ...row(`d${i}`, null),
      title: i % 10 === 0 ? `Pallet ${i}` : `Note ${i}`,
      updated_at: at(i),
    }));
    await repo.upsert(docs.slice(0, 1700), true);
    await repo.upsert(docs.slice(1700), true);
    const order = (list: typeof docs) =>
      [...list].sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.doc_id.localeCompare(b.doc_id)).map((d) => d.doc_id);
    const all = order(docs);
    for (const [offset, limit] of [
      [0, 5],
      [3, 5],
      [1990, 20],
      [2995, 10],
    ] as const) {
      const page = await repo.page('k', offset, limit);
      expect(page.total).toBe(3000);
      expect(page.documents.map((d) => d.doc_id)).toEqual(all.slice(offset, offset + limit));
    }
    const pallets = order(docs.filter((d) => d.title.startsWith('Pallet')));
    const found = await repo.page('k', 7, 4, 'pALLet');
    expect(found.total).toBe(300);
    expect(found.documents.map((d) => d.doc_id)).toEqual(pallets.slice(7, 11));
  });
});
