import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownParser } from '../parse/markdown-parser.js';
import { Core } from '../core.js';
import { errorCode, fixtureModels, openTestCore, tempDir } from '../test-support.js';
import { upkeepRuns } from './indexing.js';
import { streamFile, type StreamInput } from './stream-ingest.js';

let core: Core;
const dir = tempDir('ragdesk-stream-');

beforeAll(async () => {
  const { model } = await fixtureModels();
  core = await openTestCore({ streamFromBytes: 10_000 });
  await core.client.createKb({ kb_id: 'big', embedding_model: model, languages: ['en', 'ru', 'zh'] });
});
afterAll(async () => core.close());

/** A Markdown log whose every paragraph carries `marker` and a number; chapter headings every 50 days. */
function log(marker: string, days: number): string {
  const out = ['# Harbour log', ''];
  for (let i = 0; i < days; i++) {
    if (i % 50 === 0) out.push(`## Chapter ${i / 50}`, '');
    out.push(`### Day ${i}`, '', `${marker} day${i}x: ${i} ships moored. Прибыло ${i} судов. 到达${i}艘船。`, '');
  }
  return out.join('\n');
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const input = (file: string, docId: string, extra: Partial<StreamInput> = {}): StreamInput => ({
  path: file,
  format: 'markdown',
  doc_id: docId,
  source: file,
  chunking: { strategy: 'markdown', chunk_size: 64, chunk_overlap: 0 },
  overwrite: false,
  fallbackTitle: path.basename(file),
  sectionChars: 4000,
  ...extra,
});

const hitsOf = async (query: string) => (await core.client.search({ kb_ids: ['big'], query, mode: 'fts', top_k: 50 })).hits;

describe('streamFile', () => {
  it('writes a file section by section: the text, blocks and citations of a whole-file parse', async () => {
    const text = log('alpha', 300);
    const file = write('log.md', text);
    const r = await streamFile(core.ctx, 'big', input(file, 'log'));
    expect(r).toMatchObject({ status: 'added', embedded: true });
    const whole = await markdownParser.parse({ data: Buffer.from(text), filename: file });
    const doc = await core.client.getDocument({ kb_id: 'big', doc_id: 'log' });
    // The full text comes back from the content file, exactly what a whole parse gives.
    expect(doc.content).toBe(whole.text);
    expect(doc).toMatchObject({ title: 'Harbour log', chunk_count: r.chunk_count, size: whole.text.length });
    const [hit] = await hitsOf('day287x');
    expect(hit?.location).toMatchObject({ heading_path: ['Harbour log', 'Chapter 5', 'Day 287'] });
    // Character ranges point into the document's text; line numbers into the file.
    expect(doc.content.slice(hit!.location.char_start, hit!.location.char_end)).toContain('day287x');
    const lines = text.split('\n').slice(hit!.location.line_start! - 1, hit!.location.line_end);
    expect(lines.join('\n')).toContain('day287x');
    const chunks = await core.client.listChunks({ kb_id: 'big', doc_id: 'log', limit: 500 });
    expect(chunks.total).toBe(r.chunk_count);
    expect(chunks.chunks.map((c) => c.chunk_index)).toEqual([...Array(Math.min(500, r.chunk_count)).keys()]);
  });

  it('keeps an overwrite invisible until it is whole, while other writes and deletes go on', async () => {
    const v1 = write('v1.md', log('beta', 120));
    await streamFile(core.ctx, 'big', input(v1, 'swap'));
    const before = (await core.client.listChunks({ kb_id: 'big', doc_id: 'swap', limit: 1 })).total;
    const v2 = write('v2.md', log('gamma', 240));
    let sections = 0;
    const r = await streamFile(
      core.ctx,
      'big',
      input(v2, 'swap', {
        overwrite: true,
        onProgress: async () => {
          sections++;
          // Mid-write: searches, chunk lists and counts see the old version only.
          expect(await hitsOf('gamma')).toHaveLength(0);
          if (sections <= 2) {
            expect((await hitsOf('beta')).length).toBeGreaterThan(0);
            expect((await core.client.listChunks({ kb_id: 'big', doc_id: 'swap', limit: 1 })).total).toBe(before);
          } else expect(await hitsOf('beta')).toHaveLength(0);
          // Another writer of the same KB is not held up, and its write is searchable at once.
          await core.client.addDocument({ kb_id: 'big', doc_id: `side-${sections}`, content: `delta side${sections}x note` });
          expect(await hitsOf(`side${sections}x`)).toHaveLength(1);
          // Deleting the document meanwhile removes the old version, not the rows being written.
          if (sections === 2) await core.client.deleteDocument({ kb_id: 'big', doc_id: 'swap' });
        },
      }),
    );
    expect(sections).toBeGreaterThan(3);
    // The document was deleted mid-write, so the write lands as a new document.
    expect(r).toMatchObject({ status: 'added' });
    expect(await hitsOf('beta')).toHaveLength(0);
    expect((await hitsOf('gamma day239x'))[0]?.doc_id).toBe('swap');
    expect((await core.client.listChunks({ kb_id: 'big', doc_id: 'swap', limit: 1 })).total).toBe(r.chunk_count);
  });

  it('leaves nothing behind when cancelled, refused or unchanged', async () => {
    const file = write('c.md', log('epsilon', 200));
    const stop = new AbortController();
    let n = 0;
    const cancelled = streamFile(
      core.ctx,
      'big',
      input(file, 'cancel', { signal: stop.signal, onProgress: () => void (++n === 2 && stop.abort()) }),
    );
    expect(await errorCode(cancelled)).toBe('busy');
    expect(await hitsOf('epsilon')).toHaveLength(0);
    expect(await errorCode(core.client.getDocument({ kb_id: 'big', doc_id: 'cancel' }))).toBe('document_not_found');
    const kbDir = path.dirname(core.ctx.store.contents.file('big', 'cancel', 'x'));
    expect(fs.readdirSync(kbDir).filter((f) => f.endsWith('.part'))).toEqual([]);

    expect(await errorCode(streamFile(core.ctx, 'big', input(file, 'log')))).toBe('document_already_exists');
    // The same text again is unchanged, with or without overwrite.
    const again = await streamFile(core.ctx, 'big', input(write('log.md', log('alpha', 300)), 'log'));
    expect(again).toMatchObject({ status: 'skipped', skipped_reason: expect.stringContaining('unchanged') });
    const copy = await streamFile(core.ctx, 'big', input(write('copy.md', log('alpha', 300)), 'copy'));
    expect(copy).toMatchObject({ status: 'skipped', duplicate_of: 'log' });
    // No rows of the dropped writes are left, visible or not.
    const table = (await core.ctx.store.chunks('big'))!;
    const docs = new Map((await core.ctx.store.docs.listAll('big')).map((d) => [d.doc_id, d.version]));
    for (const p of await table.docVersions()) expect(docs.get(p.doc_id), `${p.doc_id} ${p.version}`).toBe(p.version);
  });

  it('an engine closing mid-file (the app quitting) leaves the document whole or absent at the next start', async () => {
    const { model } = await fixtureModels();
    const dataDir = tempDir('ragdesk-stream-close-');
    const first = await Core.open({ dataDir, allowDownload: false, streamFromBytes: 10_000 });
    await first.client.createKb({ kb_id: 'q', embedding_model: model });
    await first.client.addDocument({ kb_id: 'q', doc_id: 'keep', content: 'kappa note that stays' });
    let n = 0;
    await streamFile(
      first.ctx,
      'q',
      input(write('q.md', log('kappa', 200)), 'cut', { onProgress: async () => void (++n === 2 && (await first.close())) }),
    ).catch(() => undefined);
    const again = await Core.open({ dataDir, allowDownload: false });
    try {
      const docs = new Map((await again.ctx.store.docs.listAll('q')).map((d) => [d.doc_id, d]));
      const table = (await again.ctx.store.chunks('q'))!;
      // Every chunk row belongs to its document's version (nothing staged is left to show), every document is whole.
      for (const p of await table.docVersions()) expect(docs.get(p.doc_id)?.version, p.doc_id).toBe(p.version);
      for (const d of docs.values()) expect(await table.count(`doc_id = '${d.doc_id}'`), d.doc_id).toBe(d.chunk_count);
      const hits = (await again.client.search({ kb_ids: ['q'], query: 'kappa', mode: 'fts', top_k: 50 })).hits;
      expect(new Set(hits.map((h) => h.doc_id))).toEqual(new Set(docs.keys()));
      expect(fs.readdirSync(path.join(dataDir, 'lance')).filter((f) => f.startsWith('.staging-'))).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('removes the content file with its document', async () => {
    const doc = await core.ctx.store.docs.summary('big', 'log');
    const file = core.ctx.store.contents.file('big', 'log', doc!.version);
    expect(fs.existsSync(file)).toBe(true);
    await core.client.deleteDocument({ kb_id: 'big', doc_id: 'log' });
    expect(fs.existsSync(file)).toBe(false);
  });

  it("an overwrite leaves the new version's content file and removes the one it replaced", async () => {
    await streamFile(core.ctx, 'big', input(write('t1.md', log('theta', 120)), 'twice'));
    const old = core.ctx.store.contents.file('big', 'twice', (await core.ctx.store.docs.summary('big', 'twice'))!.version);
    expect(fs.existsSync(old)).toBe(true);
    const r = await streamFile(core.ctx, 'big', input(write('t2.md', log('iota', 130)), 'twice', { overwrite: true }));
    expect(r).toMatchObject({ status: 'updated' });
    const now = core.ctx.store.contents.file('big', 'twice', (await core.ctx.store.docs.summary('big', 'twice'))!.version);
    expect(now).not.toBe(old);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(now)).toBe(true);
    expect((await core.client.getDocument({ kb_id: 'big', doc_id: 'twice' })).content).toContain('iota day129x');
  });

  it('takes large files of ragdesk add (a job) through the stream, with progress in bytes and chunks', async () => {
    // Over a million characters: two sections of the default size.
    const file = write('journal.md', log('zeta', 15_000));
    const seen: Array<{ bytes: number; chunks: number }> = [];
    const onIngest = (e: { stage: string; bytes?: number; chunks?: number }) => {
      if (e.bytes !== undefined) seen.push({ bytes: e.bytes, chunks: e.chunks ?? 0 });
    };
    core.ctx.events.on('ingest', onIngest);
    const res = await core.client.addFiles({ kb_id: 'big', paths: [file] }).finally(() => core.ctx.events.off('ingest', onIngest));
    expect(res).toMatchObject({ added: 1, failed: 0 });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)!.bytes).toBe(fs.statSync(file).size);
    expect((await hitsOf('day14999x'))[0]?.doc_id).toBe(res.results[0]?.doc_id);
  });
});

describe('a first write too large to index at once', () => {
  it('is searchable at once (a scan), indexed by upkeep, and close gives back the workers before that upkeep', async () => {
    const { model } = await fixtureModels();
    const own = await openTestCore({ streamFromBytes: 10_000, inlineIndexRows: 20 });
    let disposedAtUpkeepRuns = -1;
    const dispose = own.ctx.models.dispose.bind(own.ctx.models);
    own.ctx.models.dispose = async () => {
      disposedAtUpkeepRuns = upkeepRuns(own.ctx).length;
      await dispose();
    };
    try {
      await own.client.createKb({ kb_id: 'first', embedding_model: model });
      const r = await streamFile(own.ctx, 'first', input(write('first.md', log('gamma', 60)), 'first'));
      expect(r.chunk_count).toBeGreaterThan(20);
      const table = (await own.ctx.store.chunks('first'))!;
      expect(table.ftsIndexReady).toBe(false);
      const hits = (await own.client.search({ kb_ids: ['first'], query: 'gamma day42x', mode: 'fts', top_k: 3 })).hits;
      expect(hits[0]!.text).toContain('day42x');
      expect(upkeepRuns(own.ctx)).toHaveLength(0);
    } finally {
      await own.close();
    }
    // The model worker was stopped before the upkeep that close ran, which built the index.
    expect(disposedAtUpkeepRuns).toBe(0);
    expect(upkeepRuns(own.ctx).map((u) => u.kb_id)).toEqual(['first']);
  });
});
