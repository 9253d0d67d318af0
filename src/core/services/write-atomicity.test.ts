import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { errorCode, fixtureModels, openTestCore } from '../test-support.js';

/**
 * Writes as readers see them, on a real LanceDB with the fixture model: a document replaced while searches run
 * is seen whole in one version, concurrent adds of one doc_id store one document, and a write that fails
 * leaves nothing behind (issue 9, defect 10).
 */

let core: Core;
const section = (word: string, i: number) => `## Part ${i}\n\nThe ${word} clause number ${i} covers shipping of goods by sea.`;
const version = (word: string, parts: number) => Array.from({ length: parts }, (_, i) => section(word, i + 1)).join('\n\n');
const CHUNKING = { strategy: 'markdown', chunk_size: 32, chunk_overlap: 0 } as const;

beforeAll(async () => {
  const { model } = await fixtureModels();
  core = await openTestCore();
  await core.client.createKb({ kb_id: 'atom', embedding_model: model });
  await core.ctx.models.getEmbedder(model);
  await core.client.addDocument({ kb_id: 'atom', doc_id: 'other', content: 'An unrelated note about shipping of goods by rail.' });
});
afterAll(async () => core.close());

describe('a document replaced while searches run', () => {
  it('is seen in its old version or its new one, never both and never neither (fts and hybrid)', async () => {
    const add = (word: string, parts: number) =>
      core.client.addDocument({
        kb_id: 'atom',
        doc_id: 'policy',
        content: version(word, parts),
        format: 'markdown',
        chunking: CHUNKING,
        overwrite: true,
      });
    await add('alphaone', 3);
    // Chunks that hold the version's word (a heading may be a chunk of its own).
    const chunksWith = async (word: string) =>
      (await core.client.listChunks({ kb_id: 'atom', doc_id: 'policy', limit: 100 })).chunks.filter((c) => c.text.includes(word)).length;
    const countA = await chunksWith('alphaone');
    await add('betatwo', 5);
    const countB = await chunksWith('betatwo');
    expect([countA, countB]).toEqual([3, 5]);

    let writing = true;
    const seen = { a: 0, b: 0 };
    const reader = async (mode: 'fts' | 'hybrid') => {
      while (writing) {
        const r = await core.client.search({ kb_ids: ['atom'], query: 'alphaone betatwo clause', mode, top_k: 20 });
        const mine = r.hits.filter((h) => h.doc_id === 'policy');
        const a = mine.filter((h) => h.text.includes('alphaone')).length;
        const b = mine.filter((h) => h.text.includes('betatwo')).length;
        // Old or new, whole: never a mix, never nothing.
        expect([a === countA && b === 0, b === countB && a === 0], `a=${a} b=${b} (${mode})`).toContain(true);
        if (a) seen.a++;
        else seen.b++;
      }
    };
    const readers = [reader('fts'), reader('fts'), reader('hybrid')];
    for (let i = 0; i < 16; i++) await add(i % 2 ? 'betatwo' : 'alphaone', i % 2 ? 5 : 3);
    writing = false;
    await Promise.all(readers);
    expect(seen.a).toBeGreaterThan(0);
    expect(seen.b).toBeGreaterThan(0);
  }, 120_000);
});

describe('concurrent adds of one new doc_id', () => {
  it('store exactly one document; the others get document_already_exists', async () => {
    const N = 8;
    const outcomes = await Promise.allSettled(
      Array.from({ length: N }, (_, i) =>
        core.client.addDocument({ kb_id: 'atom', doc_id: 'race', content: `Race entry ${i}: the pilot boards the vessel.` }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const codes = await Promise.all(outcomes.filter((o) => o.status === 'rejected').map((o) => errorCode(Promise.reject(o.reason))));
    expect(codes).toEqual(Array(N - 1).fill('document_already_exists'));
    const docs = (await core.client.listDocuments({ kb_id: 'atom', limit: 100 })).documents.filter((d) => d.doc_id === 'race');
    expect(docs).toHaveLength(1);
    const table = (await core.ctx.store.chunks('atom'))!;
    const versions = (await table.docVersions()).filter((v) => v.doc_id === 'race');
    expect(versions).toHaveLength(1);
  });

  it('with overwrite, all succeed and one version remains: the last one written', async () => {
    const N = 8;
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        core.client.addDocument({
          kb_id: 'atom',
          doc_id: 'race2',
          content: `Second race entry ${i}: the tug pulls the barge.`,
          overwrite: true,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'added')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'updated')).toHaveLength(N - 1);
    const table = (await core.ctx.store.chunks('atom'))!;
    const versions = (await table.docVersions()).filter((v) => v.doc_id === 'race2');
    expect(versions).toHaveLength(1);
    const row = await core.ctx.store.docs.get('atom', 'race2');
    expect(row!.version).toBe(versions[0]!.version);
    const hits = await core.client.search({ kb_ids: ['atom'], query: 'second race entry tug barge', mode: 'fts', top_k: 20 });
    expect(hits.hits.filter((h) => h.doc_id === 'race2').map((h) => h.text)).toEqual([row!.content]);
  });
});

describe('concurrent adds of one content under different doc_ids', () => {
  it('store it once; the others are skipped as its duplicates, decided again under the lock', async () => {
    const N = 6;
    const decided = core.ctx.store.docs.changes.now;
    const content = 'Duplicate race: the ferry leaves at dawn with the mail.';
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => core.client.addDocument({ kb_id: 'atom', doc_id: `dup-${i}`, content })),
    );
    const added = results.filter((r) => r.status === 'added');
    expect(added).toHaveLength(1);
    const skipped = results.filter((r) => r.status === 'skipped');
    expect(skipped).toHaveLength(N - 1);
    for (const r of skipped) expect(r.duplicate_of).toBe(added[0]!.doc_id);
    const stored = (await core.client.listDocuments({ kb_id: 'atom', limit: 500 })).documents.filter((d) => d.doc_id.startsWith('dup-'));
    expect(stored.map((d) => d.doc_id)).toEqual([added[0]!.doc_id]);
    // The one write was recorded: every add that had decided before it saw it under the lock.
    expect(core.ctx.store.docs.changes.since('atom', decided)!.docIds).toEqual(new Set([added[0]!.doc_id]));
  });
});

describe('the decision of a write under the lock', () => {
  it('is not read again when no write touched its doc_ids or contents since it was taken', async () => {
    await core.client.createKb({ kb_id: 'decide', embedding_model: 'none' });
    const docs = core.ctx.store.docs;
    const known = docs.known.bind(docs);
    let reads = 0;
    docs.known = (...args) => {
      reads++;
      return known(...args);
    };
    try {
      await core.client.addDocument({ kb_id: 'decide', doc_id: 'alone', content: 'A lone note about the lighthouse keeper.' });
      expect(reads).toBe(1);
      reads = 0;
      // Two adds of one doc_id at once: the second one's decision is read again under the lock, and refused.
      const both = await Promise.allSettled(
        ['first', 'second'].map((w) =>
          core.client.addDocument({ kb_id: 'decide', doc_id: 'pair', content: `The ${w} note about the pier.` }),
        ),
      );
      expect(reads).toBe(3);
      expect(both.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    } finally {
      docs.known = known;
    }
  });
});

describe('a write that fails after its chunks were committed (issue 9, defect 10)', () => {
  it('is rolled back at once: no orphan chunk is searchable, a replaced document keeps its old version', async () => {
    const docs = core.ctx.store.docs;
    const upsert = docs.upsert.bind(docs);
    const table = (await core.ctx.store.chunks('atom'))!;
    const before = await table.count();
    // The documents commit fails (a full disk, a conflict): the chunks were committed just before it.
    docs.upsert = () => Promise.reject(new Error('documents commit failed'));
    try {
      await expect(
        core.client.addDocument({ kb_id: 'atom', doc_id: 'doomed', content: 'Zeppelinfracht travels by airship.' }),
      ).rejects.toBeDefined();
      await expect(
        core.client.addDocument({ kb_id: 'atom', doc_id: 'other', content: 'Quokkafracht replaces the rail note.', overwrite: true }),
      ).rejects.toBeDefined();
    } finally {
      docs.upsert = upsert;
    }
    expect(await table.count()).toBe(before);
    const search = async (q: string) =>
      (await core.client.search({ kb_ids: ['atom'], query: q, mode: 'fts', top_k: 5 })).hits.map((h) => h.doc_id);
    expect(await search('zeppelinfracht airship')).toEqual([]);
    expect(await search('quokkafracht')).toEqual([]);
    expect(await search('unrelated note rail')).toEqual(['other']);
    expect(await errorCode(core.client.getDocument({ kb_id: 'atom', doc_id: 'doomed' }))).toBe('document_not_found');
    // And the KB takes the same writes once the fault is gone.
    await core.client.addDocument({ kb_id: 'atom', doc_id: 'doomed', content: 'Zeppelinfracht travels by airship.' });
    expect(await search('zeppelinfracht airship')).toEqual(['doomed']);
  });
});
