import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../core.js';
import { eventually, fixtureModels, tempDir } from '../test-support.js';
import { scanFolder, sourceFilter, statForSource } from './scan.js';

/**
 * A synced folder with links out of it (a repo with a link to ~/.aws/credentials): nothing outside is indexed
 * unless the source was told to follow links, and the full scan and the watcher agree about every link.
 */

let core: Core;
let folder: string;
let outside: string;

const docIds = async (kb: string) => (await core.client.listDocuments({ kb_id: kb, limit: 1000 })).documents.map((d) => d.doc_id).sort();

beforeAll(async () => {
  const { model } = await fixtureModels();
  const root = tempDir('ragdesk-links-');
  outside = path.join(root, 'home');
  folder = path.join(root, 'repo');
  fs.mkdirSync(path.join(outside, '.aws'), { recursive: true });
  fs.writeFileSync(path.join(outside, '.aws', 'credentials'), '[default]\naws_secret_access_key = SECRETSECRET\n');
  fs.mkdirSync(path.join(outside, 'notes'));
  fs.writeFileSync(path.join(outside, 'notes', 'diary.md'), '# Diary\n\nPrivate diary kept outside the repo.\n');
  fs.mkdirSync(path.join(folder, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'readme.md'), '# Readme\n\nHow to build the harbour crane simulator.\n');
  fs.writeFileSync(path.join(folder, 'docs', 'guide.txt'), 'The crane guide: lift slowly, watch the wind.\n');
  fs.symlinkSync(path.join(outside, '.aws', 'credentials'), path.join(folder, 'credentials.txt'));
  fs.symlinkSync(path.join(outside, 'notes'), path.join(folder, 'notes'));
  fs.symlinkSync(folder, path.join(folder, 'docs', 'loop'));
  fs.symlinkSync(path.join(folder, 'readme.md'), path.join(folder, 'docs', 'readme-link.md'));
  core = await Core.open({ dataDir: tempDir(), allowDownload: false, watchSources: true });
  await core.client.createKb({ kb_id: 'safe', embedding_model: model });
  await core.client.createKb({ kb_id: 'trusting', embedding_model: model });
});
afterAll(async () => core.close());

describe('folder sources and symbolic links', () => {
  it('by default indexes only what is really inside the folder: no link is followed, to a file or a folder', async () => {
    const source = await core.client.addSource({ kb_id: 'safe', path: folder, source_id: 'repo' });
    expect(source.follow_links).toBe(false);
    expect(await docIds('safe')).toEqual(['repo/docs/guide.txt', 'repo/readme.md']);
    const hits = await core.client.search({ kb_ids: ['safe'], query: 'aws_secret_access_key SECRETSECRET diary', mode: 'fts' });
    expect(hits.hits).toEqual([]);
  });

  it('the watcher agrees: a link added later is not indexed, a file added beside it is', async () => {
    fs.symlinkSync(path.join(outside, '.aws', 'credentials'), path.join(folder, 'docs', 'later.txt'));
    fs.writeFileSync(path.join(folder, 'docs', 'new.txt'), 'A new page about crane maintenance.\n');
    await eventually(async () => expect(await docIds('safe')).toContain('repo/docs/new.txt'));
    // What a watcher reports is checked with the scan's rule.
    await core.client.syncSource({ source_id: 'repo' });
    expect(await docIds('safe')).toEqual(['repo/docs/guide.txt', 'repo/docs/new.txt', 'repo/readme.md']);
  });

  it('a file replaced by a link to a secret leaves the KB at the next sync', async () => {
    fs.rmSync(path.join(folder, 'docs', 'guide.txt'));
    fs.symlinkSync(path.join(outside, '.aws', 'credentials'), path.join(folder, 'docs', 'guide.txt'));
    await eventually(async () => expect(await docIds('safe')).not.toContain('repo/docs/guide.txt'));
    expect(await docIds('safe')).toEqual(['repo/docs/new.txt', 'repo/readme.md']);
  });

  it('follow_links is an explicit choice: then links are followed, each real folder once (no cycles)', async () => {
    const source = await core.client.addSource({ kb_id: 'trusting', path: folder, source_id: 'trusted', follow_links: true });
    expect(source.follow_links).toBe(true);
    const ids = await docIds('trusting');
    // Files with the same content are stored once (the first path in order; the others are duplicates).
    expect(ids).toEqual(expect.arrayContaining(['trusted/credentials.txt', 'trusted/notes/diary.md', 'trusted/docs/readme-link.md']));
    expect(ids.filter((id) => id.includes('loop/loop'))).toEqual([]);
  });

  it('scan and statForSource give the same answer for every path', async () => {
    const filter = sourceFilter({ include: [], exclude: [], recursive: true });
    for (const follow of [false, true]) {
      const scanned = await scanFolder(folder, filter, true, '', follow);
      for (const rel of ['readme.md', 'credentials.txt', 'notes/diary.md', 'docs/later.txt', 'docs/new.txt', 'docs/readme-link.md']) {
        const st = await statForSource(folder, rel, follow);
        expect(scanned.has(rel), `${rel} follow=${follow}`).toBe(Boolean(st?.isFile()));
      }
    }
  });
});
