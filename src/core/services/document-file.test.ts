import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { errorCode, fixtureModels, openTestCore, tempDir } from '../test-support.js';

let core: Core;

beforeAll(async () => {
  const { model } = await fixtureModels();
  core = await openTestCore();
  await core.client.createKb({ kb_id: 'k', embedding_model: model });
});
afterAll(async () => core.close());

describe('documentFile', () => {
  it('finds a file added by path, and says when it has moved', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'notes.md');
    fs.writeFileSync(file, '# Notes\n\nCustoms papers are kept in the blue folder.\n');
    await core.client.addFile({ kb_id: 'k', path: file });
    expect((await core.client.documentFile({ kb_id: 'k', doc_id: 'notes.md' })).path).toBe(file);
    fs.renameSync(file, path.join(dir, 'moved.md'));
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: 'notes.md' }))).toBe('invalid_parameter');
  });

  it('joins a folder source document with its folder', async () => {
    const folder = tempDir();
    fs.mkdirSync(path.join(folder, 'sub'));
    fs.writeFileSync(path.join(folder, 'sub', 'guide.txt'), 'Returns are accepted within thirty days.\n');
    const source = await core.client.addSource({ kb_id: 'k', path: folder });
    await core.client.syncSource({ source_id: source.source_id });
    const docId = `${source.source_id}/sub/guide.txt`;
    await core.client.getDocument({ kb_id: 'k', doc_id: docId });
    expect((await core.client.documentFile({ kb_id: 'k', doc_id: docId })).path).toBe(path.join(folder, 'sub', 'guide.txt'));
  });

  it('refuses documents that never were files', async () => {
    await core.client.addDocument({ kb_id: 'k', doc_id: 'typed', content: 'Typed by an agent.' });
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: 'typed' }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: 'missing' }))).toBe('document_not_found');
  });
});
