import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk } from './cli-support.js';
import { customsHandbook } from './mcp-suite.js';

/** Issue 8's repro through the CLI: a note, then a 60-section handbook, then searches, each a `ragdesk` command. */

let dataDir: string;
let files: string;
const cli = (...args: string[]) => ragdesk(['--data-dir', dataDir, ...args]);
type Hits = { hits: Array<{ doc_id: string; kb_id: string }> };

beforeAll(async () => {
  const { model } = await fixtureModels();
  dataDir = tempDir('ragdesk-cli-ryw-');
  files = tempDir('ragdesk-cli-ryw-files-');
  fs.writeFileSync(
    path.join(files, 'react-18.md'),
    'React 18 brings concurrent rendering: React can prepare several versions of the UI at once and interrupt a render.',
  );
  fs.writeFileSync(path.join(files, 'customs-handbook.md'), customsHandbook());
  fs.writeFileSync(path.join(files, 'poshlina.txt'), 'Таможенная декларация подаётся до выпуска товаров. Пошлины платит импортёр.');
  expect((await cli('kb', 'create', 'notes', '--model', model)).code).toBe(0);
  expect((await cli('kb', 'create', 'ru', '--model', model)).code).toBe(0);
}, 120_000);

describe('ragdesk add, then ragdesk search', () => {
  it('finds a note and a chunked handbook added one after the other, ranked as a fresh index would', async () => {
    expect((await cli('add', path.join(files, 'react-18.md'), '--kb', 'notes')).code).toBe(0);
    const r = await cli('add', path.join(files, 'customs-handbook.md'), '--kb', 'notes', '--strategy', 'sentence', '--chunk-size', '128');
    expect(r.code, r.stderr).toBe(0);
    expect((await cli('add', path.join(files, 'poshlina.txt'), '--kb', 'ru')).code).toBe(0);
    const fts = json<Hits>(await cli('search', 'customs declaration', '--kb', 'notes', '--mode', 'fts', '--top-k', '10', '--json'));
    expect(fts.hits).toHaveLength(10);
    expect(fts.hits.every((h) => h.doc_id === 'customs-handbook.md')).toBe(true);
    for (const mode of ['fts', 'hybrid']) {
      const react = json<Hits>(
        await cli('search', 'How does concurrent rendering work in React 18?', '--kb', 'notes', '--mode', mode, '--json'),
      );
      expect(react.hits[0]?.doc_id, mode).toBe('react-18.md');
    }
    const all = json<Hits>(await cli('search', 'customs declaration таможенная', '--all', '--mode', 'fts', '--top-k', '10', '--json'));
    expect([...new Set(all.hits.map((h) => h.kb_id))].sort()).toEqual(['notes', 'ru']);
  }, 180_000);
});
