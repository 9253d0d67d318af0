import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { fixtureModels, openTestCore, tempDir } from '../test-support.js';

let core: Core;
let model: string;
let embedded: string[] = [];
/** Passages actually sent to the embedding model. */
let passages = 0;

/** Count what reaches the model: a proxy over the model manager and the embedders it hands out. */
function countPassages(c: Core): void {
  const bind = <T extends object>(t: T, p: string | symbol) => {
    const v = Reflect.get(t, p, t) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
  };
  const models = c.ctx.models;
  c.ctx.models = new Proxy(models, {
    get: (t, p) =>
      p === 'getEmbedder'
        ? async (...args: Parameters<typeof models.getEmbedder>) => {
            const e = await t.getEmbedder(...args);
            return new Proxy(e, {
              get: (et, ep) =>
                ep === 'embedPassages' ? async (texts: string[]) => ((passages += texts.length), et.embedPassages(texts)) : bind(et, ep),
            });
          }
        : bind(t, p),
  });
}

const write = (dir: string, rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
const docIds = async (kb: string) => (await core.client.listDocuments({ kb_id: kb, limit: 1000 })).documents.map((d) => d.doc_id).sort();

beforeAll(async () => {
  ({ model } = await fixtureModels());
  core = await openTestCore();
  countPassages(core);
  core.ctx.events.on('ingest', (e) => {
    if (e.stage === 'embed' && e.doc_id) embedded.push(e.doc_id);
  });
});
afterAll(async () => core.close());

describe('folder sources', () => {
  let dir: string;
  let id: string;

  beforeAll(async () => {
    await core.client.createKb({ kb_id: 'folder', embedding_model: model });
    dir = tempDir('ragdesk-source-');
    write(dir, 'guide/intro.md', '# Intro\n\nCranes lift containers in the harbour.');
    write(dir, 'guide/deep/ports.txt', 'Ports charge fees for every berth.');
    write(dir, 'notes.txt', 'A note about customs declarations.');
    write(dir, '.secret.txt', 'hidden dot-file');
    write(dir, '.git/config', 'hidden folder');
    write(dir, 'drafts/wip.txt', 'excluded draft');
    write(dir, 'image.bin.tmp', 'excluded by glob');
  });

  it('adds a folder: every file under the globs becomes a document with doc_id <source>/<path> and source <path>', async () => {
    const s = await core.client.addSource({ kb_id: 'folder', path: dir, exclude: ['drafts', '*.tmp'], source_id: 'docs' });
    expect(s).toMatchObject({
      source_id: 'docs',
      kb_id: 'folder',
      path: dir,
      state: 'idle',
      watching: false,
      counts: { files: 3, indexed: 3, failed: 0 },
    });
    expect(s.last_sync).toMatchObject({ added: 3, failed: 0 });
    expect(s.last_sync_at).not.toBeNull();
    id = s.source_id;
    expect(await docIds('folder')).toEqual(['docs/guide/deep/ports.txt', 'docs/guide/intro.md', 'docs/notes.txt']);
    const doc = await core.client.getDocument({ kb_id: 'folder', doc_id: 'docs/guide/intro.md' });
    expect(doc.source).toBe('guide/intro.md');
    const hits = await core.client.search({
      kb_ids: ['folder'],
      query: 'berth fees customs',
      mode: 'fts',
      filter: { source: 'guide/deep/ports.txt' },
    });
    expect(hits.hits.map((h) => h.doc_id)).toEqual(['docs/guide/deep/ports.txt']);
    expect(await core.client.listSources({ kb_id: 'folder' })).toHaveLength(1);
  });

  it('a sync of an unchanged folder reads, parses and embeds nothing', async () => {
    embedded = [];
    const { summary } = await core.client.syncSource({ source_id: id });
    expect(summary).toMatchObject({ files: 3, added: 0, updated: 0, deleted: 0, unchanged: 3 });
    // A touched file (new mtime, same bytes) is read and hashed, not re-embedded.
    const t = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'notes.txt'), t, t);
    const touched = await core.client.syncSource({ source_id: id });
    expect(touched.summary).toMatchObject({ unchanged: 3, updated: 0 });
    expect(embedded).toEqual([]);
  });

  it('re-indexes changed files, adds new ones and deletes removed ones; only changed files are embedded', async () => {
    embedded = [];
    write(dir, 'notes.txt', 'A note about customs declarations and tariffs.');
    write(dir, 'guide/new.md', '# New\n\nTugboats push ships.');
    fs.rmSync(path.join(dir, 'guide/deep/ports.txt'));
    const { summary } = await core.client.syncSource({ source_id: id });
    expect(summary).toMatchObject({ added: 1, updated: 1, deleted: 1, unchanged: 1 });
    expect(embedded.sort()).toEqual(['docs/guide/new.md', 'docs/notes.txt']);
    expect(await docIds('folder')).toEqual(['docs/guide/intro.md', 'docs/guide/new.md', 'docs/notes.txt']);
    expect((await core.client.getDocument({ kb_id: 'folder', doc_id: 'docs/notes.txt' })).content).toContain('tariffs');
    const chunks = await core.client.listChunks({ kb_id: 'folder', doc_id: 'docs/notes.txt' });
    expect(chunks.total).toBe(1);
  });

  it('names duplicates, and indexes the copy once the original is gone (a rename done in two steps)', async () => {
    write(dir, 'copy-of-intro.md', '# Intro\n\nCranes lift containers in the harbour.');
    await core.client.syncSource({ source_id: id });
    const report = await core.client.healthReport({ kb_id: 'folder', status: ['duplicate'] });
    expect(report.files).toEqual([
      expect.objectContaining({ file: 'copy-of-intro.md', duplicate_of: 'docs/guide/intro.md', indexed: false }),
    ]);
    fs.rmSync(path.join(dir, 'guide/intro.md'));
    const { summary } = await core.client.syncSource({ source_id: id });
    expect(summary).toMatchObject({ deleted: 1, added: 1 });
    expect(await docIds('folder')).toEqual(['docs/copy-of-intro.md', 'docs/guide/new.md', 'docs/notes.txt']);
  });

  it('a renamed or moved file keeps its vectors: nothing is embedded again', async () => {
    passages = 0;
    fs.renameSync(path.join(dir, 'copy-of-intro.md'), path.join(dir, 'intro-moved.md'));
    const { summary } = await core.client.syncSource({ source_id: id });
    expect(summary).toMatchObject({ deleted: 1, added: 1 });
    expect(passages).toBe(0);
    expect(await docIds('folder')).toEqual(['docs/guide/new.md', 'docs/intro-moved.md', 'docs/notes.txt']);
    const hits = await core.client.search({ kb_ids: ['folder'], query: 'cranes lift containers', mode: 'vector', top_k: 1 });
    expect(hits.hits[0]!.doc_id).toBe('docs/intro-moved.md');
    // A changed file is embedded (the counter works).
    write(dir, 'notes.txt', 'A note about customs declarations, tariffs and quotas.');
    await core.client.syncSource({ source_id: id });
    expect(passages).toBeGreaterThan(0);
  });

  it('force re-reads every file but still embeds nothing unchanged', async () => {
    embedded = [];
    const { summary } = await core.client.syncSource({ source_id: id, force: true });
    expect(summary).toMatchObject({ unchanged: 3, added: 0, updated: 0 });
    expect(embedded).toEqual([]);
  });

  it('include globs and --no-recursive narrow what is taken', async () => {
    await core.client.createKb({ kb_id: 'narrow', embedding_model: model });
    await core.client.createKb({ kb_id: 'top', embedding_model: model });
    const a = await core.client.addSource({ kb_id: 'narrow', path: dir, include: ['*.md'], source_id: 'md-only' });
    expect(a.counts.files).toBe(2);
    expect(await docIds('narrow')).toEqual(['md-only/guide/new.md', 'md-only/intro-moved.md']);
    const b = await core.client.addSource({ kb_id: 'top', path: path.join(dir, 'guide'), recursive: false, source_id: 'top' });
    expect(b.counts.files).toBe(1);
    expect(await docIds('top')).toEqual(['top/new.md']);
    await expect(core.client.addSource({ kb_id: 'narrow', path: dir })).rejects.toMatchObject({ code: 'invalid_parameter' });
    await expect(core.client.addSource({ kb_id: 'narrow', path: path.join(dir, 'notes.txt') })).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    await expect(core.client.addSource({ kb_id: 'nope', path: dir })).rejects.toMatchObject({ code: 'kb_not_found' });
  });

  it('pauses and resumes; a missing folder is an error that removes nothing', async () => {
    expect((await core.client.pauseSource({ source_id: 'top' })).state).toBe('paused');
    expect((await core.client.resumeSource({ source_id: 'top' })).state).toBe('idle');
    const moved = `${dir}-moved`;
    fs.renameSync(dir, moved);
    try {
      await expect(core.client.syncSource({ source_id: 'md-only' })).rejects.toMatchObject({ code: 'invalid_parameter' });
      expect((await core.client.listSources({ kb_id: 'narrow' })).find((s) => s.source_id === 'md-only')).toMatchObject({ state: 'error' });
      expect(await docIds('narrow')).toHaveLength(2);
    } finally {
      fs.renameSync(moved, dir);
    }
    expect((await core.client.syncSource({ source_id: 'md-only' })).source.state).toBe('idle');
  });

  it('removing a source deletes its documents (or keeps them when asked); deleting a KB drops its sources', async () => {
    const res = await core.client.removeSource({ source_id: 'md-only' });
    expect(res).toEqual({ source_id: 'md-only', removed: true, documents_deleted: 2 });
    expect(await docIds('narrow')).toEqual([]);
    expect((await core.client.removeSource({ source_id: 'top', keep_documents: true })).documents_deleted).toBe(0);
    expect(await docIds('top')).toEqual(['top/new.md']);
    await core.client.deleteKb({ kb_id: 'folder' });
    expect(await core.client.listSources({})).toEqual([]);
    await expect(core.client.syncSource({ source_id: 'docs' })).rejects.toMatchObject({ code: 'invalid_parameter' });
  });
});
