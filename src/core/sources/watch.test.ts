import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../core.js';
import { eventually, fixtureModels, tempDir } from '../test-support.js';

let core: Core;
let dataDir: string;
let dir: string;
let embedded: string[] = [];

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};
const docIds = async () => (await core.client.listDocuments({ kb_id: 'live', limit: 1000 })).documents.map((d) => d.doc_id).sort();
const ftsDocs = async (q: string) =>
  (await core.client.search({ kb_ids: ['live'], query: q, mode: 'fts', top_k: 20 })).hits.map((h) => h.doc_id);

async function open(): Promise<Core> {
  const c = await Core.open({ dataDir, allowDownload: false, watchSources: true });
  c.ctx.events.on('ingest', (e) => {
    if (e.stage === 'embed' && e.doc_id) embedded.push(e.doc_id);
  });
  return c;
}

beforeAll(async () => {
  const { model } = await fixtureModels();
  dataDir = tempDir();
  dir = tempDir('ragdesk-watched-');
  write('a.txt', 'Albatross notes about the southern ocean.');
  write('guide/b.md', '# Beacons\n\nBeacons guide ships at night.');
  write('guide/c.md', '# Compass\n\nA compass points north.');
  core = await open();
  await core.client.createKb({ kb_id: 'live', embedding_model: model });
  const s = await core.client.addSource({ kb_id: 'live', path: dir, source_id: 'w' });
  expect(s).toMatchObject({ watching: true, counts: { indexed: 3 } });
});
afterAll(async () => core.close());

describe('watched folder sources', () => {
  it('reflects an edit in search, re-embedding only the edited file', async () => {
    embedded = [];
    write('a.txt', 'Albatross notes about the northern fjords.');
    await eventually(async () => expect(await ftsDocs('fjords')).toEqual(['w/a.txt']));
    expect(await ftsDocs('southern')).toEqual([]);
    expect(embedded).toEqual(['w/a.txt']);
  });

  it('survives an editor-style atomic save (write a temp file, rename it over the original)', async () => {
    embedded = [];
    write('guide/c.md.tmp-4242', '# Compass\n\nA compass points to magnetic north, a gyrocompass to true north.');
    fs.renameSync(path.join(dir, 'guide/c.md.tmp-4242'), path.join(dir, 'guide/c.md'));
    await eventually(async () => expect(await ftsDocs('gyrocompass')).toEqual(['w/guide/c.md']));
    await eventually(async () => expect(await docIds()).toEqual(['w/a.txt', 'w/guide/b.md', 'w/guide/c.md']));
  });

  it('adds new files, follows renames of files and folders, and removes deleted files', async () => {
    write('guide/deep/d.txt', 'Dolphins swim beside the bow.');
    await eventually(async () => expect(await ftsDocs('dolphins')).toEqual(['w/guide/deep/d.txt']));
    fs.renameSync(path.join(dir, 'a.txt'), path.join(dir, 'albatross.txt'));
    await eventually(async () => expect(await ftsDocs('albatross')).toEqual(['w/albatross.txt']));
    fs.renameSync(path.join(dir, 'guide'), path.join(dir, 'manual'));
    await eventually(async () =>
      expect(await docIds()).toEqual(['w/albatross.txt', 'w/manual/b.md', 'w/manual/c.md', 'w/manual/deep/d.txt']),
    );
    fs.rmSync(path.join(dir, 'manual/deep/d.txt'));
    await eventually(async () => expect(await ftsDocs('dolphins')).toEqual([]));
    // The file ledger is settled right after the delete's commit (which searches see first): counts follow.
    await eventually(async () => {
      const [src] = await core.client.listSources({});
      expect(src!.counts).toMatchObject({ files: 3, indexed: 3 });
    });
  });

  it('a paused source ignores changes until resumed', async () => {
    await core.client.pauseSource({ source_id: 'w' });
    expect((await core.client.listSources({}))[0]).toMatchObject({ state: 'paused', watching: false });
    write('paused.txt', 'Pelicans while paused.');
    await new Promise((r) => setTimeout(r, 1200));
    expect(await ftsDocs('pelicans')).toEqual([]);
    await core.client.resumeSource({ source_id: 'w' });
    await eventually(async () => expect(await ftsDocs('pelicans')).toEqual(['w/paused.txt']));
  });

  it('rescans at start what changed while ragdesk was not running', async () => {
    await core.close();
    write('offline.txt', 'Ospreys seen while the app was closed.');
    fs.rmSync(path.join(dir, 'paused.txt'));
    embedded = [];
    core = await open();
    await eventually(async () => expect(await ftsDocs('ospreys')).toEqual(['w/offline.txt']));
    await eventually(async () => expect(await ftsDocs('pelicans')).toEqual([]));
    expect(embedded).toEqual(['w/offline.txt']);
  });
});
