import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../core.js';
import { sha256 } from '../util/hash.js';
import { tempDir } from '../test-support.js';
import { examine, type Examined, type ExamineEnv } from './examine.js';
import type { JobItem, JobOptions } from './journal.js';
import { READ_AHEAD_FILES, READ_AHEAD_LARGE_MAX_BYTES, READ_AHEAD_MAX_BYTES, ReadAhead } from './read-ahead.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../parse/__fixtures__');

let core: Core;
beforeAll(async () => {
  core = await Core.open({ dataDir: tempDir(), allowDownload: false });
  await core.client.createKb({ kb_id: 'k' });
});
afterAll(() => core.close());

const envOf = (options: JobOptions): ExamineEnv => ({
  ctx: core.ctx,
  kb: core.ctx.store.registry.get('k'),
  options,
  sourceId: null,
  docs: new Map(),
  covered: undefined,
});
const itemOf = (file: string, key = file): JobItem => ({
  key,
  file,
  doc_id: path.basename(file),
  source: file,
  action: 'index',
  bytes: fs.existsSync(file) ? fs.statSync(file).size : 0,
});
/** What examine came to, without the time it looked. */
const outcome = (e: Examined) => JSON.parse(JSON.stringify(e, (k, v: unknown) => (k === 'checked_at' ? undefined : v))) as unknown;

describe('ReadAhead', () => {
  it('gives examine what reading each file in its turn gives (formats, languages, a broken and a missing file)', async () => {
    const dir = tempDir('ragdesk-read-ahead-');
    const names = [
      'sample.md',
      'sample.html',
      'russian.docx',
      'chinese.pdf',
      'cp1251.txt',
      'gbk.txt',
      'corrupt.pdf',
      'xss.md',
      'sample.pdf',
      'headings.docx',
    ];
    for (const n of names) fs.copyFileSync(path.join(FIXTURES, n), path.join(dir, n));
    const items = [...names, 'gone.md'].map((n) => itemOf(path.join(dir, n)));
    const pending = items.map((_, i) => i);
    const options: JobOptions = { overwrite: false, force: false };
    const ahead = new ReadAhead(core.ctx, options, () => undefined);
    let started = 0;
    const kinds = new Set<string>();
    for (const [at, i] of pending.entries()) {
      const item = items[i]!;
      const io = ahead.take(i, item);
      ahead.fill(items, pending, at);
      started = Math.max(started, ahead.size);
      const got = await examine(envOf(options), item, undefined, io);
      const want = await examine(envOf(options), item, undefined);
      expect(outcome(got), item.file).toEqual(outcome(want));
      kinds.add(Object.keys(got)[0]!);
    }
    expect(started).toBe(READ_AHEAD_FILES);
    expect([...kinds].sort()).toEqual(['pending', 'settled', 'vanished']);
  });

  it('reads ahead the small files among the next READ_AHEAD_FILES, not larger ones nor deletions', () => {
    const ahead = new ReadAhead(core.ctx, { overwrite: false, force: false }, () => undefined);
    const dir = tempDir('ragdesk-read-ahead-');
    const items = Array.from({ length: READ_AHEAD_FILES + 4 }, (_, i) => {
      const file = path.join(dir, `f${i}.txt`);
      fs.writeFileSync(file, i === 2 ? 'x'.repeat(READ_AHEAD_MAX_BYTES + 1) : `file ${i}`);
      return { ...itemOf(file), ...(i === 3 ? { action: 'delete' as const } : {}) };
    });
    const pending = items.map((_, i) => i);
    ahead.fill(items, pending, 0);
    // 1..READ_AHEAD_FILES, less f2 (past the size) and f3 (a deletion).
    expect(ahead.size).toBe(READ_AHEAD_FILES - 2);
    ahead.take(1, items[1]!);
    ahead.fill(items, pending, 1);
    expect(ahead.size).toBe(READ_AHEAD_FILES - 2);
  });

  it('with `large`, reads ahead the next READ_AHEAD_LARGE_FILES larger files too, up to their bound', async () => {
    const ahead = new ReadAhead(core.ctx, { overwrite: false, force: false }, () => undefined);
    const dir = tempDir('ragdesk-read-ahead-');
    const sizes = [10, READ_AHEAD_MAX_BYTES + 1, READ_AHEAD_LARGE_MAX_BYTES + 1, READ_AHEAD_MAX_BYTES + 1, 10];
    const items = sizes.map((bytes, i) => {
      const file = path.join(dir, `f${i}.md`);
      fs.writeFileSync(file, `# F${i}\n\n${'word '.repeat(Math.ceil(bytes / 5))}`.slice(0, bytes));
      return itemOf(file);
    });
    const pending = items.map((_, i) => i);
    ahead.fill(items, pending, 0);
    // Without `large`: f4 only (f1-f3 are past READ_AHEAD_MAX_BYTES).
    expect(ahead.size).toBe(1);
    ahead.large = true;
    ahead.fill(items, pending, 0);
    // f1 (next but one or closer, within the larger bound); f2 is past it; f3 is three ahead.
    expect(ahead.size).toBe(2);
    const io = ahead.take(1, items[1]!);
    const data = await io.read();
    expect(data.length).toBe(sizes[1]);
    expect((await io.parse(data)).blocks.length).toBeGreaterThan(0);
    ahead.fill(items, pending, 1);
    // Now f3 is two ahead: read too.
    expect(ahead.size).toBe(2);
  });

  it('reads the bytes after the stat it reports: a file rewritten after being read ahead is read again by the next rescan', async () => {
    const dir = tempDir('ragdesk-read-ahead-');
    const file = path.join(dir, 'note.md');
    fs.writeFileSync(file, '# Note\n\nThe first version of the note.\n');
    const item = itemOf(file);
    const options: JobOptions = { overwrite: false, force: false };
    const ahead = new ReadAhead(core.ctx, options, () => undefined);
    ahead.fill([item], [0], -1);
    const io = ahead.take(0, item);
    const seen = (await io.stat())!;
    const first = await io.read();
    fs.writeFileSync(file, '# Note\n\nThe second version, written while the first was waiting for its turn.\n');
    fs.utimesSync(file, new Date(), new Date(seen.mtimeMs + 5_000));
    const got = await examine(envOf(options), item, undefined, io);
    expect('pending' in got && got.pending.base).toMatchObject({ mtime_ms: seen.mtimeMs, bytes: seen.size, file_hash: sha256(first) });
    // What a rescan compares (sources/sync.ts): the size and mtime recorded differ from the file's now.
    const now = fs.statSync(file);
    expect([now.size, now.mtimeMs]).not.toEqual([seen.size, seen.mtimeMs]);
  });

  it('a source that does not follow links: a file replaced by a link after the scan is gone, read ahead or not', async () => {
    const root = fs.realpathSync(tempDir('ragdesk-read-ahead-'));
    const outside = path.join(fs.realpathSync(tempDir('ragdesk-outside-')), 'secret.md');
    fs.writeFileSync(outside, '# Secret\n\nNot in the folder.\n');
    fs.writeFileSync(path.join(root, 'a.md'), '# A\n\nIn the folder.\n');
    const item = itemOf(path.join(root, 'a.md'), 'a.md');
    fs.rmSync(path.join(root, 'a.md'));
    fs.symlinkSync(outside, path.join(root, 'a.md'));
    const options: JobOptions = { overwrite: false, force: false, within: root };
    const ahead = new ReadAhead(core.ctx, options, () => undefined);
    ahead.fill([item], [0], -1);
    expect(ahead.size).toBe(1);
    expect(await examine(envOf(options), item, undefined, ahead.take(0, item))).toEqual({ vanished: true });
    expect(await examine(envOf(options), item, undefined)).toEqual({ vanished: true });
  });
});
