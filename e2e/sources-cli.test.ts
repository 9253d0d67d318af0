import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk, ROOT } from './cli-support.js';

let dataDir: string;
let folder: string;
const cli = (...args: string[]) => ragdesk(['--data-dir', dataDir, ...args]);

beforeAll(async () => {
  const { model } = await fixtureModels();
  dataDir = tempDir('ragdesk-sources-cli-');
  folder = tempDir('ragdesk-sources-cli-files-');
  fs.cpSync(path.join(ROOT, 'rag_data'), folder, { recursive: true });
  fs.mkdirSync(path.join(folder, 'drafts'));
  fs.writeFileSync(path.join(folder, 'drafts/wip.md'), '# Draft\n\nNot ready.');
  fs.copyFileSync(path.join(ROOT, 'src/core/parse/__fixtures__/encrypted.pdf'), path.join(folder, 'locked.pdf'));
  expect((await cli('kb', 'create', 'handbook', '--model', model)).code).toBe(0);
}, 120_000);

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('ragdesk sources / health / jobs', () => {
  it('sources add syncs the folder (globs honoured) and exits 3 when a file failed', async () => {
    const r = await cli('sources', 'add', 'handbook', folder, '--exclude', 'drafts', '--id', 'hb', '--json');
    expect(r.code, r.stderr).toBe(3);
    const out = json<{
      source_id: string;
      counts: { files: number; indexed: number; failed: number };
      summary: { added: number; failed: number };
    }>(r);
    expect(out).toMatchObject({ source_id: 'hb', counts: { files: 13, indexed: 12, failed: 1 }, summary: { added: 12, failed: 1 } });
    const human = await cli('sources', 'list');
    expect(human.stdout).toMatch(/hb\s+handbook\s+\S+\s+idle\s+13\s+12\s+0\s+1/);
  });

  it('search finds synced files by their path in the folder', async () => {
    const r = json<{ hits: Array<{ doc_id: string; source: string }> }>(
      await cli(
        'search',
        'таможенной пошлины',
        '--kb',
        'handbook',
        '--mode',
        'fts',
        '--filter',
        'source=ru-tamozhennye-platezhi.docx',
        '--json',
      ),
    );
    expect(r.hits[0]).toMatchObject({ doc_id: 'hb/ru-tamozhennye-platezhi.docx', source: 'ru-tamozhennye-platezhi.docx' });
  });

  it('health --kb names the bad file (JSON and table)', async () => {
    const r = json<{ counts: Record<string, number>; files: Array<{ file: string; status: string }> }>(
      await cli('health', '--kb', 'handbook', '--problems', '--json'),
    );
    expect(r.files).toEqual([expect.objectContaining({ file: 'locked.pdf', status: 'encrypted' })]);
    expect(r.counts.ok).toBe(12);
    const table = await cli('health', '--kb', 'handbook');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/locked\.pdf\s+encrypted\s+no\s+Could not parse/);
  });

  it('sources sync picks up changes; --all syncs every source; jobs list shows the jobs', async () => {
    fs.writeFileSync(path.join(folder, 'new-note.txt'), 'A new note about forklifts.');
    fs.rmSync(path.join(folder, 'zh-tuihuo-zhengce.md'));
    const r = json<{ summary: { added: number; deleted: number; unchanged: number } }>(await cli('sources', 'sync', 'hb', '--json'));
    expect(r.summary).toMatchObject({ added: 1, deleted: 1, unchanged: 12 });
    const all = json<Array<{ source_id: string; summary: { unchanged: number } }>>(await cli('sources', 'sync', '--all', '--json'));
    expect(all).toEqual([{ source_id: 'hb', summary: expect.objectContaining({ unchanged: 13 }) }]);
    expect((await cli('sources', 'sync')).code).toBe(2);
    const jobs = json<Array<{ kind: string; state: string }>>(await cli('jobs', 'list', '--json'));
    expect(jobs.map((j) => [j.kind, j.state])).toEqual([
      ['sync', 'done'],
      ['sync', 'done'],
    ]);
    expect((await cli('jobs', 'resume')).stdout).toContain('nothing to resume');
  });

  it('pause/resume and rm; an unknown source is invalid_parameter (exit 2)', async () => {
    expect(json<{ paused: boolean }>(await cli('sources', 'pause', 'hb', '--json')).paused).toBe(true);
    expect(json<{ paused: boolean }>(await cli('sources', 'resume', 'hb', '--json')).paused).toBe(false);
    const rm = json<{ documents_deleted: number }>(await cli('sources', 'rm', 'hb', '--json'));
    expect(rm.documents_deleted).toBe(12);
    expect(json<{ total: number }>(await cli('docs', 'list', '--kb', 'handbook', '--json')).total).toBe(0);
    const bad = await cli('sources', 'sync', 'hb', '--json');
    expect(bad.code).toBe(2);
    expect(json<{ error: { code: string } }>(bad).error.code).toBe('invalid_parameter');
  });

  it('symbolic links are left out of a folder unless it is added with --follow-links', async () => {
    const outside = tempDir('ragdesk-sources-cli-outside-');
    fs.writeFileSync(path.join(outside, 'credentials.txt'), 'aws_secret_access_key = forklift-harbour-secret');
    const made: string[] = [outside];
    const linkedFolder = (name: string) => {
      const dir = tempDir(`ragdesk-sources-cli-${name}-`);
      made.push(dir);
      fs.writeFileSync(path.join(dir, 'inside.txt'), 'A note that really lives in the folder.');
      fs.symlinkSync(path.join(outside, 'credentials.txt'), path.join(dir, 'credentials.txt'));
      return dir;
    };
    try {
      type Added = { follow_links: boolean; counts: { files: number; indexed: number } };
      const plain = json<Added>(await cli('sources', 'add', 'handbook', linkedFolder('plain'), '--id', 'plain', '--json'));
      expect(plain).toMatchObject({ follow_links: false, counts: { files: 1, indexed: 1 } });
      const followed = await cli('sources', 'add', 'handbook', linkedFolder('followed'), '--id', 'followed', '--follow-links');
      expect(followed.code, followed.stderr).toBe(0);
      expect(followed.stdout).toContain('(following symbolic links)');
      const list = json<Array<Added & { source_id: string }>>(await cli('sources', 'list', '--json'));
      expect(list.map((s) => [s.source_id, s.follow_links, s.counts.files])).toEqual([
        ['plain', false, 1],
        ['followed', true, 2],
      ]);
      const table = (await cli('sources', 'list')).stdout.split('\n');
      expect(table.find((l) => l.startsWith('plain '))).toMatch(/\sleft out$/);
      expect(table.find((l) => l.startsWith('followed '))).toMatch(/\sfollowed$/);
      const found = json<{ hits: Array<{ doc_id: string }> }>(
        await cli('search', 'forklift-harbour-secret', '--kb', 'handbook', '--mode', 'fts', '--json'),
      );
      expect(found.hits.map((h) => h.doc_id)).toEqual(['followed/credentials.txt']);
    } finally {
      for (const id of ['plain', 'followed']) await cli('sources', 'rm', id);
      for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
