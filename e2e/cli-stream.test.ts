import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk } from './cli-support.js';

/**
 * Large text files through the CLI, as a user adds them (issue 10 item 3): with the streaming threshold lowered by
 * RAGDESK_STREAM_FROM_MB, `ragdesk add` writes them section by section; searches, `docs get` and a re-add see
 * whole documents. The memory it saves is measured by `npm run bench -- --only memory`, not here.
 */

let dataDir: string;
let files: string;
const env = { RAGDESK_STREAM_FROM_MB: '0.05' };
const cli = (...args: string[]) => ragdesk(['--data-dir', dataDir, ...args], env);
type Hits = { hits: Array<{ doc_id: string; text: string; location: { heading_path?: string[] } }> };

/** A handbook of `n` sections in Markdown, in Russian (CP1251 when asked) and English. */
function handbook(n: number, tag = 'd'): string {
  const out = ['# Таможенный справочник', ''];
  for (let i = 0; i < n; i++)
    out.push(`## Статья ${i}`, '', `Декларация номер ${tag}${i}x подаётся до выпуска товаров; customs entry e${i}x.`, '');
  return out.join('\n');
}

beforeAll(async () => {
  const { model } = await fixtureModels();
  dataDir = tempDir('ragdesk-cli-stream-');
  files = tempDir('ragdesk-cli-stream-files-');
  fs.writeFileSync(path.join(files, 'handbook.md'), handbook(4000));
  fs.writeFileSync(path.join(files, 'handbook-cp1251.txt'), iconv.encode(handbook(3000, 'w').replace(/^#+ /gm, ''), 'win1251'));
  expect((await cli('kb', 'create', 'law', '--model', model)).code).toBe(0);
}, 120_000);

describe('ragdesk add of large text files', () => {
  it('writes them section by section: found by search with heading paths, whole in docs show, unchanged on re-add', async () => {
    const add = await cli('--json', 'add', path.join(files, 'handbook.md'), path.join(files, 'handbook-cp1251.txt'), '--kb', 'law');
    expect(add.code, add.stderr).toBe(0);
    expect(json<{ added: number; failed: number }>(add)).toMatchObject({ added: 2, failed: 0 });

    const md = json<Hits>(await cli('search', 'd3999x', '--kb', 'law', '--mode', 'fts', '--json'));
    expect(md.hits[0]).toMatchObject({ doc_id: 'handbook.md', location: { heading_path: ['Таможенный справочник', 'Статья 3999'] } });
    const ru = json<Hits>(await cli('search', 'w2999x', '--kb', 'law', '--mode', 'fts', '--json'));
    expect(ru.hits[0]?.doc_id).toBe('handbook-cp1251.txt');
    expect(ru.hits[0]?.text).toContain('Декларация номер w2999x');

    const doc = json<{ content: string; size: number }>(await cli('--json', 'docs', 'show', 'handbook.md', '--kb', 'law'));
    expect(doc.content.length).toBe(doc.size);
    expect(doc.content).toContain('customs entry e0x');
    expect(doc.content).toContain('customs entry e3999x');

    const again = await cli('--json', 'add', path.join(files, 'handbook.md'), '--kb', 'law');
    expect(json<{ skipped: number; added: number }>(again)).toMatchObject({ skipped: 1, added: 0 });
  }, 180_000);

  it('refuses a text file over RAGDESK_MAX_STREAM_MB with too_large', async () => {
    const r = await ragdesk(['--data-dir', dataDir, '--json', 'add', path.join(files, 'handbook.md'), '--kb', 'law', '--overwrite'], {
      ...env,
      RAGDESK_MAX_STREAM_MB: '0.1',
    });
    const res = json<{ failed: number; results: Array<{ error?: { code: string } }> }>(r);
    expect(res.failed).toBe(1);
    expect(res.results[0]?.error?.code).toBe('too_large');
  }, 60_000);
});
