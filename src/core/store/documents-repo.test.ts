import * as lancedb from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { arrow } from './arrow.js';
import { documentsSchema } from './arrow-schemas.js';
import { DOCUMENTS_TABLE, DocumentsRepo, type DocumentRow } from './documents-repo.js';

const row = (docId: string, file: string | null): DocumentRow => ({
  kb_id: 'k',
  doc_id: docId,
  title: docId,
  source: '/bin/sh',
  metadata: {},
  content: 'text',
  content_hash: docId,
  parser: 'text',
  chunking: { strategy: 'whole', chunk_size: 8192, chunk_overlap: 0 },
  chunk_count: 1,
  size: 4,
  version: 'v1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  file_path: file,
});

describe('documents table: the recorded file path', () => {
  it('is kept apart from the caller-written source, and never part of a summary', async () => {
    const db = await lancedb.connect(tempDir());
    const repo = await DocumentsRepo.open(db);
    await repo.upsert([row('a', '/home/ann/a.md'), row('b', null)], true);
    expect(await repo.filePath('k', 'a')).toBe('/home/ann/a.md');
    expect(await repo.filePath('k', 'b')).toBeNull();
    expect(await repo.filePath('k', 'none')).toBeUndefined();
    expect(await repo.summary('k', 'a')).not.toHaveProperty('file_path');
    expect(await repo.get('k', 'a')).not.toHaveProperty('file_path');
  });

  it('a table from before the column gets it (null) when opened', async () => {
    const db = await lancedb.connect(tempDir());
    const old = new arrow.Schema(documentsSchema().fields.filter((f) => f.name !== 'file_path'));
    await db.createEmptyTable(DOCUMENTS_TABLE, old);
    const repo = await DocumentsRepo.open(db);
    await repo.upsert([row('a', '/home/ann/a.md')]);
    expect(await repo.filePath('k', 'a')).toBe('/home/ann/a.md');
    const again = await DocumentsRepo.open(db);
    expect(await again.filePath('k', 'a')).toBe('/home/ann/a.md');
  });
});
