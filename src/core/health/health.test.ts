import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthEntry } from '../../shared/contract/index.js';
import type { Core } from '../core.js';
import { FIXTURES, fixtureModels, openTestCore, tempDir, tokenizerTexts } from '../test-support.js';
import { detectScripts, SCRIPTS } from './classify.js';

let core: Core;
let dir: string;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

beforeAll(async () => {
  core = await openTestCore({ maxFileBytes: 60_000 });
  dir = tempDir('ragdesk-mixed-');
  for (const f of ['corrupt.pdf', 'encrypted.pdf', 'scanned.pdf', 'broken.docx', 'cp1251.txt', 'sample.md'])
    fs.copyFileSync(path.join(FIXTURES, f), path.join(dir, f));
  fs.copyFileSync(path.join(FIXTURES, 'sample.md'), path.join(dir, 'z-copy.md'));
  fs.writeFileSync(path.join(dir, 'picture.png'), PNG);
  fs.writeFileSync(path.join(dir, 'song.mp3'), Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1'));
  fs.writeFileSync(path.join(dir, 'huge.txt'), 'big text file '.repeat(6000));
  fs.writeFileSync(path.join(dir, 'empty.txt'), '   \n\n');
  fs.writeFileSync(
    path.join(dir, 'garbled.txt'),
    Buffer.concat([
      Buffer.from('Harbour log entry: '),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0x80, 0x81]),
      Buffer.from(' the cranes were idle all day.'),
    ]),
  );
  fs.writeFileSync(path.join(dir, 'russian.txt'), 'Таможенное оформление грузов занимает три рабочих дня после подачи декларации.');
  fs.writeFileSync(path.join(dir, 'english.txt'), 'Customs clearance takes three working days after the declaration is filed.');
});
afterAll(async () => core.close());

describe('ingestion health report', () => {
  it('names every bad file of a mixed folder and why (KB on the english model)', async () => {
    await core.client.createKb({ kb_id: 'mixed', embedding_model: 'english' });
    const source = await core.client.addSource({ kb_id: 'mixed', path: dir, source_id: 'mixed-src' });
    expect(source.counts).toMatchObject({ files: 14, indexed: 5, failed: 6, skipped: 3 });
    const report = await core.client.healthReport({ kb_id: 'mixed' });
    const by = Object.fromEntries(report.files.map((f) => [f.file, f])) as Record<string, HealthEntry>;
    expect(by['corrupt.pdf']).toMatchObject({ status: 'corrupt', indexed: false });
    expect(by['broken.docx']).toMatchObject({ status: 'corrupt', indexed: false });
    expect(by['encrypted.pdf']).toMatchObject({ status: 'encrypted', indexed: false });
    expect(by['scanned.pdf']).toMatchObject({ status: 'no_text_layer', indexed: false });
    expect(by['scanned.pdf']!.message).toMatch(/OCR/);
    // An image OCR would read, but this one is damaged; audio is nothing ragdesk reads.
    expect(by['picture.png']).toMatchObject({ status: 'corrupt', indexed: false });
    expect(by['song.mp3']).toMatchObject({ status: 'unsupported', indexed: false });
    expect(by['huge.txt']).toMatchObject({ status: 'too_large', indexed: false, bytes: 84_000 });
    expect(by['empty.txt']).toMatchObject({ status: 'empty', indexed: false });
    expect(by['z-copy.md']).toMatchObject({ status: 'duplicate', duplicate_of: 'mixed-src/sample.md', indexed: false });
    expect(by['garbled.txt']).toMatchObject({ status: 'decode_problem', indexed: true });
    expect(by['garbled.txt']!.message).toMatch(/could not be decoded/);
    expect(by['garbled.txt']!.encoding).toBeDefined();
    expect(by['russian.txt']).toMatchObject({ status: 'language_not_covered', script: 'cyrillic', indexed: true });
    expect(by['cp1251.txt']).toMatchObject({ status: 'language_not_covered', encoding: 'windows-1251', script: 'cyrillic' });
    expect(by['english.txt']).toMatchObject({ status: 'ok', script: 'latin', indexed: true });
    expect(by['sample.md']).toMatchObject({ status: 'ok', indexed: true });
    // Worst first, counted per status, filterable.
    expect(report.files[0]!.status).toBe('encrypted');
    expect(report.counts).toMatchObject({
      corrupt: 3,
      encrypted: 1,
      no_text_layer: 1,
      unsupported: 1,
      too_large: 1,
      empty: 1,
      duplicate: 1,
    });
    const problems = await core.client.healthReport({ kb_id: 'mixed', problems: true });
    expect(problems.files.map((f) => f.file)).not.toContain('english.txt');
    expect(problems.total).toBe(12);
    const enc = await core.client.healthReport({ kb_id: 'mixed', status: ['encrypted', 'too_large'] });
    expect(enc.files.map((f) => f.file).sort()).toEqual(['encrypted.pdf', 'huge.txt']);
  });

  it('a multilingual model covers Russian; a fixed file leaves the report on the next sync', async () => {
    const { model } = await fixtureModels();
    await core.client.createKb({ kb_id: 'multi', embedding_model: 'multilingual' });
    const s = await core.client.addSource({ kb_id: 'multi', path: dir, include: ['russian.txt', 'english.txt'], source_id: 'multi-src' });
    expect(s.counts.indexed).toBe(2);
    const report = await core.client.healthReport({ kb_id: 'multi' });
    expect(report.files.map((f) => f.status)).toEqual(['ok', 'ok']);
    // Files we know nothing about (a model folder) are not judged by language.
    await core.client.createKb({ kb_id: 'folder-model', embedding_model: model });
    await core.client.addSource({ kb_id: 'folder-model', path: dir, include: ['russian.txt'], source_id: 'fm' });
    expect((await core.client.healthReport({ kb_id: 'folder-model' })).files[0]).toMatchObject({ status: 'ok', script: 'cyrillic' });

    fs.copyFileSync(path.join(FIXTURES, 'sample.pdf'), path.join(dir, 'corrupt.pdf'));
    await core.client.syncSource({ source_id: 'mixed-src' });
    const after = await core.client.healthReport({ kb_id: 'mixed', status: ['corrupt'] });
    expect(after.files.map((f) => f.file)).toEqual(['broken.docx', 'picture.png']);
  });

  it('ragdesk add records its files too, and the report of a KB without any is empty', async () => {
    await core.client.createKb({ kb_id: 'plain' });
    expect(await core.client.healthReport({ kb_id: 'plain' })).toMatchObject({ total: 0, files: [], updated_at: null });
    const { ingestFilesJob } = await import('../jobs/files-job.js');
    const { outcomes } = await ingestFilesJob(core, 'plain', [
      { file: path.join(dir, 'encrypted.pdf'), doc_id: 'encrypted.pdf' },
      { file: path.join(dir, 'english.txt'), doc_id: 'english.txt' },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([false, true]);
    expect(outcomes[0]!.error).toMatchObject({ code: 'parse_failed' });
    const report = await core.client.healthReport({ kb_id: 'plain' });
    expect(report.files.map((f) => [f.file, f.status, f.source_id])).toEqual([
      [path.join(dir, 'encrypted.pdf'), 'encrypted', null],
      [path.join(dir, 'english.txt'), 'ok', null],
    ]);
    await expect(core.client.healthReport({ kb_id: 'nope' })).rejects.toMatchObject({ code: 'kb_not_found' });
  });
});

describe('script detection', () => {
  it('finds the main writing system and the shares', () => {
    expect(detectScripts('Hello world').main).toBe('latin');
    expect(detectScripts('Привет, мир! Hello').main).toBe('cyrillic');
    expect(detectScripts('海关申报 customs').shares.cjk).toBeGreaterThan(0.3);
    expect(detectScripts('123 456').main).toBeUndefined();
  });

  it('counts every letter as testing each character against the scripts does (sample KB, other scripts, outside the BMP)', () => {
    const reference = (text: string) => {
      const counts: Record<string, number> = {};
      let letters = 0;
      for (const ch of text) {
        if (!/\p{L}/u.test(ch)) continue;
        letters++;
        const name = SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'other';
        counts[name] = (counts[name] ?? 0) + 1;
      }
      return { letters, shares: Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, n / letters])) };
    };
    const texts = [
      ...tokenizerTexts(),
      'Ελληνικά עברית العربية हिन्दी ไทย ქართული 한국어 カタカナ ひらがな 𠀀𠀁 𝐀𝐁 😀 ẞß ǅ',
      // A surrogate pair cut by the end of the text, and one alone.
      'tail \ud840',
      '\udc00 head',
    ];
    for (const text of texts) {
      const got = detectScripts(text);
      const want = reference(text);
      expect(got.letters, text.slice(0, 60)).toBe(want.letters);
      expect(got.shares, text.slice(0, 60)).toEqual(want.shares);
    }
  });
});
