import fs from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { DOCUMENTS_TABLE } from '../store/documents-repo.js';
import { openTestCore } from '../test-support.js';

/**
 * Large texts live in content files, not in the documents table (store/content-files.ts): written before their
 * rows, found by getDocument, and gone with the version they belong to (replaced, deleted, rolled back).
 */

const BOUND = 1_000;
let core: Core;
const big = (word: string) =>
  `# ${word}\n\n` + Array.from({ length: 40 }, (_, i) => `The ${word} ledger line ${i} lists cargo.`).join('\n');
const files = () => {
  const dir = path.dirname(core.ctx.store.contents.file('k', 'x', 'y'));
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};
const fileOf = async (docId: string) => {
  const row = await core.ctx.store.docs.summary('k', docId);
  return path.basename(core.ctx.store.contents.file('k', docId, row!.version));
};
/** The `content` column as LanceDB holds it, read apart from ragdesk's repository. */
const storedContent = async (docId: string) => {
  const db = await lancedb.connect(path.join(core.ctx.options.dataDir, 'lance'));
  const table = await db.openTable(DOCUMENTS_TABLE);
  const rows = await table.query().where(`doc_id = '${docId}'`).select(['content']).toArray();
  table.close();
  return String(rows[0]?.content);
};

beforeAll(async () => {
  core = await openTestCore({ contentFileMinChars: BOUND });
  await core.client.createKb({ kb_id: 'k' });
});
afterAll(async () => core.close());

describe('a large text in a content file', () => {
  it('is written to its file, its row left empty, and read back whole; a small one stays in its row', async () => {
    const text = big('walrus');
    expect(text.length).toBeGreaterThanOrEqual(BOUND);
    await core.client.addDocument({ kb_id: 'k', doc_id: 'large', content: text });
    await core.client.addDocument({ kb_id: 'k', doc_id: 'small', content: 'A walrus note, short.' });
    expect(await storedContent('large')).toBe('');
    expect(await storedContent('small')).toBe('A walrus note, short.');
    expect(files()).toEqual([await fileOf('large')]);
    expect((await core.client.getDocument({ kb_id: 'k', doc_id: 'large' })).content).toBe(text);
    const hits = await core.client.search({ query: 'walrus ledger', kb_ids: ['k'], mode: 'fts', top_k: 3 });
    expect(hits.hits[0]?.doc_id).toBe('large');
  });

  it('replaced: the new version gets its own file and the old one goes; replaced by a small text, no file stays', async () => {
    const old = await fileOf('large');
    await core.client.addDocument({ kb_id: 'k', doc_id: 'large', content: big('narwhal'), overwrite: true });
    const now = await fileOf('large');
    expect(now).not.toBe(old);
    expect(files()).toEqual([now]);
    expect((await core.client.getDocument({ kb_id: 'k', doc_id: 'large' })).content).toBe(big('narwhal'));
    await core.client.addDocument({ kb_id: 'k', doc_id: 'large', content: 'Now a short narwhal note.', overwrite: true });
    expect(files()).toEqual([]);
    expect((await core.client.getDocument({ kb_id: 'k', doc_id: 'large' })).content).toBe('Now a short narwhal note.');
  });

  it('deleted: its file goes with it', async () => {
    await core.client.addDocument({ kb_id: 'k', doc_id: 'gone', content: big('seal') });
    expect(files()).toEqual([await fileOf('gone')]);
    await core.client.deleteDocument({ kb_id: 'k', doc_id: 'gone' });
    expect(files()).toEqual([]);
  });

  it('a write that fails after its files were written leaves no file and no document', async () => {
    const docs = core.ctx.store.docs;
    const upsert = docs.upsert.bind(docs);
    docs.upsert = () => Promise.reject(new Error('documents commit failed'));
    try {
      await expect(core.client.addDocument({ kb_id: 'k', doc_id: 'doomed', content: big('kraken') })).rejects.toBeDefined();
    } finally {
      docs.upsert = upsert;
    }
    expect(files()).toEqual([]);
    expect(await core.ctx.store.docs.summary('k', 'doomed')).toBeUndefined();
    // The KB takes the same write once the store is well again.
    await core.client.addDocument({ kb_id: 'k', doc_id: 'doomed', content: big('kraken') });
    expect(files()).toEqual([await fileOf('doomed')]);
  });

  it('is written while the write waits for the write lock of the KB, not once it holds it', async () => {
    let release!: () => void;
    const held = core.ctx.store.writes.run('k', () => new Promise<void>((r) => (release = r)));
    const before = files();
    const adding = core.client.addDocument({ kb_id: 'k', doc_id: 'early', content: big('dugong') });
    try {
      // The lock is held: the file must appear all the same (before this change it was written under the lock).
      let appeared = false;
      for (let i = 0; i < 100 && !appeared; i++) {
        await new Promise((r) => setTimeout(r, 50));
        appeared = files().length > before.length;
      }
      expect(appeared).toBe(true);
      expect(await core.ctx.store.docs.summary('k', 'early')).toBeUndefined();
    } finally {
      release();
      await held;
    }
    await adding;
    expect(files()).toEqual([...before, await fileOf('early')].sort());
  });

  it('a write refused under the lock (another stored its doc_id meanwhile) leaves no file of its own', async () => {
    let release!: () => void;
    const held = core.ctx.store.writes.run('k', () => new Promise<void>((r) => (release = r)));
    const before = files();
    // Both decide "new" while the lock is held; the first to get it stores the document, the other is refused.
    const texts = [big('manatee'), big('sirenia')];
    const adds = Promise.allSettled(texts.map((content) => core.client.addDocument({ kb_id: 'k', doc_id: 'raced', content })));
    await new Promise((r) => setTimeout(r, 300));
    release();
    await held;
    const settled = await adds;
    const won = settled.findIndex((s) => s.status === 'fulfilled');
    expect(won).toBeGreaterThanOrEqual(0);
    expect(settled[1 - won]).toMatchObject({ status: 'rejected', reason: { code: 'document_already_exists' } });
    expect(files()).toEqual([...before, await fileOf('raced')].sort());
    expect((await core.client.getDocument({ kb_id: 'k', doc_id: 'raced' })).content).toBe(texts[won]);
  });

  it('a batch whose one file fails: the write waits for the others, and no file of the batch is left', async () => {
    const contents = core.ctx.store.contents;
    const put = contents.put.bind(contents);
    contents.put = async (kbId, docId, version, text) => {
      if (docId === 'fails') throw new Error('disk full');
      // The other file of the batch is still being written when the first one fails (and the write rolls back).
      await new Promise((r) => setTimeout(r, 1_500));
      return put(kbId, docId, version, text);
    };
    const before = files();
    try {
      await expect(
        core.client.addDocumentsBatch({
          kb_id: 'k',
          documents: [
            { doc_id: 'slow', content: big('beluga') },
            { doc_id: 'fails', content: big('orcinus') },
          ],
        }),
      ).rejects.toBeDefined();
    } finally {
      contents.put = put;
    }
    // Past the slow file's end, in case the write did not wait for it.
    await new Promise((r) => setTimeout(r, 1_700));
    expect(files()).toEqual(before);
    expect(await core.ctx.store.docs.summary('k', 'slow')).toBeUndefined();
  });

  it('a batch of large documents through a folder job: every text in its file, none in the documents table', async () => {
    const dir = fs.mkdtempSync(path.join(core.ctx.options.dataDir, 'folder-'));
    for (let i = 0; i < 6; i++) fs.writeFileSync(path.join(dir, `f${i}.md`), big(`orca${i}x`));
    const before = files().length;
    const added = await core.client.addFiles({ kb_id: 'k', paths: [dir] });
    expect(added).toMatchObject({ files: 6, added: 6, failed: 0 });
    expect(files().length).toBe(before + 6);
    const listed = await core.client.listDocuments({ kb_id: 'k', limit: 100 });
    const fromFolder = listed.documents.filter((d) => d.title.startsWith('orca'));
    expect(fromFolder).toHaveLength(6);
    for (const d of fromFolder) {
      expect(await storedContent(d.doc_id)).toBe('');
      // The parsed Markdown, whole (the heading's marker is not part of it).
      const content = (await core.client.getDocument({ kb_id: 'k', doc_id: d.doc_id })).content;
      expect(content.length).toBeGreaterThanOrEqual(BOUND);
      expect(content).toContain(`The ${d.title} ledger line 39 lists cargo.`);
    }
  });
});
