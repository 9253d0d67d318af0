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

describe('documentFile opens only what the server recorded (defect 2)', () => {
  it("never a caller's source: not /bin/sh, not a path climbing out of a folder source", async () => {
    await core.client.addDocument({ kb_id: 'k', doc_id: 'evil', content: 'Click to open.', source: '/bin/sh' });
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: 'evil' }))).toBe('invalid_parameter');
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, 'ok.txt'), 'Inside the folder.\n');
    const source = await core.client.addSource({ kb_id: 'k', path: folder });
    const climbing = `${source.source_id}/../../../../etc/passwd`;
    await core.client.addDocument({ kb_id: 'k', doc_id: climbing, content: 'Not a file.', source: '../../../../etc/passwd' });
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: climbing }))).toBe('invalid_parameter');
    await core.client.addDocument({
      kb_id: 'k',
      doc_id: `${source.source_id}/ok2.txt`,
      content: 'Typed under the prefix.',
      source: 'ok.txt',
    });
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: `${source.source_id}/ok2.txt` }))).toBe('invalid_parameter');
  });

  it('a file added by path opens at its real path whatever source the caller wrote', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'report.md');
    fs.writeFileSync(file, '# Report\n\nQuarterly crane inspections.\n');
    await core.client.addFile({ kb_id: 'k', path: file, doc_id: 'report', source: '/bin/sh' });
    expect((await core.client.documentFile({ kb_id: 'k', doc_id: 'report' })).path).toBe(fs.realpathSync(file));
    // Replaced by a link to something else since: refused.
    fs.rmSync(file);
    fs.symlinkSync('/bin/sh', file);
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: 'report' }))).toBe('invalid_parameter');
  });

  it('a folder-source file moved out of its folder (through a link put in its place) is not opened', async () => {
    const folder = tempDir();
    const elsewhere = tempDir();
    fs.mkdirSync(path.join(folder, 'sub'));
    fs.writeFileSync(path.join(folder, 'sub', 'plan.txt'), 'The plan for the new quay.\n');
    const source = await core.client.addSource({ kb_id: 'k', path: folder });
    const docId = `${source.source_id}/sub/plan.txt`;
    expect((await core.client.documentFile({ kb_id: 'k', doc_id: docId })).path).toBe(
      fs.realpathSync(path.join(folder, 'sub', 'plan.txt')),
    );
    fs.renameSync(path.join(folder, 'sub'), path.join(elsewhere, 'sub'));
    fs.symlinkSync(path.join(elsewhere, 'sub'), path.join(folder, 'sub'));
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: docId }))).toBe('invalid_parameter');
  });

  it('documents stored before paths were recorded open through the ingestion records only', async () => {
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, 'old.txt'), 'Stored by an older ragdesk.\n');
    const source = await core.client.addSource({ kb_id: 'k', path: folder });
    const docId = `${source.source_id}/old.txt`;
    // As an older version stored it: no file_path on the row.
    const table = (
      core.ctx.store.docs as unknown as { table: { update(o: { where: string; valuesSql: Record<string, string> }): Promise<unknown> } }
    ).table;
    await table.update({ where: `kb_id = 'k' AND doc_id = '${docId}'`, valuesSql: { file_path: 'CAST(NULL AS STRING)' } });
    expect((await core.client.documentFile({ kb_id: 'k', doc_id: docId })).path).toBe(fs.realpathSync(path.join(folder, 'old.txt')));
    // A document typed under the same prefix has no ingestion record: nothing to open.
    fs.writeFileSync(path.join(folder, 'setup.exe'), 'MZ not really');
    await core.client.addDocument({ kb_id: 'k', doc_id: `${source.source_id}/setup.exe`, content: 'Run me.' });
    expect(await errorCode(core.client.documentFile({ kb_id: 'k', doc_id: `${source.source_id}/setup.exe` }))).toBe('invalid_parameter');
  });
});
