import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { errorCode, FIXTURES, fixtureModels, openTestCore } from '../test-support.js';

let core: Core;
let model: string;

beforeAll(async () => {
  ({ model } = await fixtureModels());
  core = await openTestCore();
  await core.client.createKb({ kb_id: 'docs', embedding_model: model, languages: ['en', 'ru', 'zh'] });
});
afterAll(async () => core.close());

describe('documents', () => {
  it('adds text as one chunk, gets it back in full and lists it', async () => {
    const res = await core.client.addDocument({
      kb_id: 'docs',
      doc_id: 'note-1',
      title: 'Note',
      content: 'The customs office opens at nine.',
      metadata: { year: 2024, team: 'ops' },
    });
    expect(res).toMatchObject({ doc_id: 'note-1', status: 'added', chunk_count: 1, embedded: true });
    const doc = await core.client.getDocument({ kb_id: 'docs', doc_id: 'note-1' });
    expect(doc.content).toBe('The customs office opens at nine.');
    expect(doc.metadata).toEqual({ year: 2024, team: 'ops' });
    const kb = await core.client.getKb({ kb_id: 'docs' });
    expect(kb.metadata_fields).toMatchObject({ year: 'number', team: 'string' });
    expect(kb.embedding_dim).toBeGreaterThan(0);
  });

  it('refuses the same doc_id without overwrite, skips unchanged content and duplicates', async () => {
    expect(await errorCode(core.client.addDocument({ kb_id: 'docs', doc_id: 'note-1', content: 'Different text.' }))).toBe(
      'document_already_exists',
    );
    const same = await core.client.addDocument({ kb_id: 'docs', doc_id: 'note-1', content: 'The customs office opens at nine.' });
    expect(same.status).toBe('skipped');
    const dup = await core.client.addDocument({ kb_id: 'docs', doc_id: 'note-copy', content: 'The customs office opens at nine.' });
    expect(dup).toMatchObject({ status: 'skipped', duplicate_of: 'note-1' });
    const updated = await core.client.addDocument({
      kb_id: 'docs',
      doc_id: 'note-1',
      content: 'The customs office opens at ten.',
      overwrite: true,
    });
    expect(updated.status).toBe('updated');
    const chunks = await core.client.listChunks({ kb_id: 'docs', doc_id: 'note-1' });
    expect(chunks.total).toBe(1);
    expect(chunks.chunks[0]!.text).toContain('ten');
  });

  it('rejects bad input with stable codes', async () => {
    expect(await errorCode(core.client.addDocument({ kb_id: 'docs', content: '   ' }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.addDocument({ kb_id: 'Bad Id', content: 'x' }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.addDocument({ kb_id: 'missing', content: 'x' }))).toBe('kb_not_found');
    expect(await errorCode(core.client.getDocument({ kb_id: 'docs', doc_id: 'nope' }))).toBe('document_not_found');
    expect(await errorCode(core.client.addDocument({ kb_id: 'docs', content: 'typed', metadata: { year: 'last year' } }))).toBe(
      'invalid_parameter',
    );
    expect(await errorCode(core.client.addFile({ kb_id: 'docs', path: path.join(FIXTURES, 'encrypted.pdf') }))).toBe('parse_failed');
    expect(await errorCode(core.client.addFile({ kb_id: 'docs', path: path.join(FIXTURES, 'broken.docx') }))).toBe('parse_failed');
    // A damaged image is an image (OCR would read it) that cannot be opened; audio is nothing we read.
    expect(
      await errorCode(
        core.client.uploadFile({
          kb_id: 'docs',
          filename: 'x.png',
          data_base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64'),
        }),
      ),
    ).toBe('parse_failed');
    expect(
      await errorCode(
        core.client.uploadFile({
          kb_id: 'docs',
          filename: 'x.mp3',
          data_base64: Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1').toString('base64'),
        }),
      ),
    ).toBe('unsupported_format');
  });

  it('adds a batch where bad items fail alone', async () => {
    const res = await core.client.addDocumentsBatch({
      kb_id: 'docs',
      documents: [
        { doc_id: 'b1', content: 'Batch item one about shipping.' },
        { doc_id: 'b2', content: '' },
        { doc_id: 'b3', content: 'Batch item three about returns.', chunking: { strategy: 'sentence', chunk_size: 32, chunk_overlap: 0 } },
        { doc_id: 'note-1', content: 'conflict' },
        'not an object',
      ],
    });
    expect(res.results.map((r) => r.ok)).toEqual([true, false, true, false, false]);
    expect(res.results[1]!.error!.code).toBe('invalid_parameter');
    expect(res.results[3]!.error!.code).toBe('document_already_exists');
    expect(res).toMatchObject({ added: 2, failed: 3 });
    expect(
      await errorCode(
        core.client.addDocumentsBatch({ kb_id: 'docs', documents: Array.from({ length: 501 }, (_, i) => ({ content: `d${i}` })) }),
      ),
    ).toBe('invalid_parameter');
  });

  it('ingests real files with locations: pdf pages, docx headings, markdown lines', async () => {
    const pdf = await core.client.addFile({ kb_id: 'docs', path: path.join(FIXTURES, 'sample.pdf') });
    expect(pdf.parser).toBe('pdf');
    const pdfChunks = await core.client.listChunks({ kb_id: 'docs', doc_id: 'sample.pdf', limit: 50 });
    expect(new Set(pdfChunks.chunks.map((c) => c.location.page)).size).toBeGreaterThan(1);
    await core.client.addFile({ kb_id: 'docs', path: path.join(FIXTURES, 'headings.docx') });
    const docx = await core.client.listChunks({ kb_id: 'docs', doc_id: 'headings.docx', limit: 50 });
    expect(docx.chunks.some((c) => (c.location.heading_path?.length ?? 0) > 0)).toBe(true);
    await core.client.addFile({
      kb_id: 'docs',
      path: path.join(FIXTURES, 'sample.md'),
      chunking: { strategy: 'markdown', chunk_size: 64, chunk_overlap: 8 },
    });
    const md = await core.client.listChunks({ kb_id: 'docs', doc_id: 'sample.md', limit: 50 });
    expect(md.chunks.every((c) => (c.location.line_start ?? 0) >= 1 && c.tokens <= 64)).toBe(true);
  });

  it('lists newest first with pagination, deletes chunks and document together', async () => {
    const page1 = await core.client.listDocuments({ kb_id: 'docs', limit: 2, offset: 0 });
    const page2 = await core.client.listDocuments({ kb_id: 'docs', limit: 2, offset: 2 });
    expect(page1.total).toBeGreaterThanOrEqual(5);
    expect(page1.documents[0]!.updated_at >= page1.documents[1]!.updated_at).toBe(true);
    expect(page1.documents[1]!.updated_at >= page2.documents[0]!.updated_at).toBe(true);
    // A filter counts every match (title or doc_id, any case) and pages within them.
    const all = await core.client.listDocuments({ kb_id: 'docs', limit: 500 });
    const matching = all.documents.filter((d) => `${d.title} ${d.doc_id}`.toLowerCase().includes('sample'));
    const found = await core.client.listDocuments({ kb_id: 'docs', title_contains: 'SAMPLE', limit: 1, offset: 1 });
    expect(matching.length).toBeGreaterThanOrEqual(2);
    expect(found.total).toBe(matching.length);
    expect(found.documents.map((d) => d.doc_id)).toEqual([matching[1]!.doc_id]);
    const del = await core.client.deleteDocument({ kb_id: 'docs', doc_id: 'sample.pdf' });
    expect(del.chunks_deleted).toBeGreaterThan(1);
    expect(await errorCode(core.client.getDocument({ kb_id: 'docs', doc_id: 'sample.pdf' }))).toBe('document_not_found');
    const table = await core.ctx.store.chunks('docs');
    expect(await table!.count("doc_id = 'sample.pdf'")).toBe(0);
  });

  it('previews chunks without writing anything', async () => {
    const before = await core.client.listDocuments({ kb_id: 'docs' });
    const res = await core.client.preview({
      kb_id: 'docs',
      path: path.join(FIXTURES, 'sample.md'),
      chunking: { strategy: 'sentence', chunk_size: 32, chunk_overlap: 4 },
    });
    expect(res.chunks.length).toBeGreaterThan(1);
    expect(res.chunks[0]).toMatchObject({ chunk_index: 0 });
    expect(res.chunks.every((c) => c.tokens <= 32 && c.characters === c.text.length)).toBe(true);
    const after = await core.client.listDocuments({ kb_id: 'docs' });
    expect(after.total).toBe(before.total);
  });

  it('enforces the size limit', async () => {
    const small = await openTestCore({ maxFileBytes: 100 });
    try {
      await small.client.createKb({ kb_id: 'k', embedding_model: model });
      expect(await errorCode(small.client.addFile({ kb_id: 'k', path: path.join(FIXTURES, 'sample.pdf') }))).toBe('too_large');
    } finally {
      await small.close();
    }
    expect(fs.existsSync(path.join(FIXTURES, 'sample.pdf'))).toBe(true);
  });
});
