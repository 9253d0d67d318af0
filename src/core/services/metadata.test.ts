import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILTER_CONDITIONS, MAX_FILTERABLE_FIELDS, MAX_METADATA_KEYS } from '../../shared/contract/index.js';
import { parseFilterExpr } from '../../shared/filter-expr.js';
import type { Core } from '../core.js';
import { errorCode, fixtureModels, openTestCore } from '../test-support.js';
import { typeMetadata } from './metadata.js';

/** Metadata keys become columns and filters become SQL: both are capped before any work is done. */

let core: Core;
beforeAll(async () => {
  const { model } = await fixtureModels();
  core = await openTestCore();
  await core.client.createKb({ kb_id: 'k', embedding_model: model });
});
afterAll(async () => core.close());

const keys = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));

describe('metadata caps', () => {
  it('a document with 2,000 metadata keys is refused at the boundary, and no column is made', async () => {
    const err = await core.client
      .addDocument({ kb_id: 'k', content: 'Too many keys.', metadata: keys(2000, 'f') })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining(`limit is ${MAX_METADATA_KEYS}`) });
    expect(Object.keys((await core.client.getKb({ kb_id: 'k' })).metadata_fields)).toHaveLength(0);
    // The same cap holds for metadata a parser finds (Markdown front matter).
    const front = `---\n${Array.from({ length: 100 }, (_, i) => `key${i}: ${i}`).join('\n')}\n---\n\n# Note\n\nText.\n`;
    expect(await errorCode(core.client.addDocument({ kb_id: 'k', content: front, format: 'markdown' }))).toBe('too_large');
    expect(await errorCode(core.client.addDocument({ kb_id: 'k', content: 'Huge value.', metadata: { note: 'x'.repeat(40_000) } }))).toBe(
      'invalid_parameter',
    );
  });

  it(`a KB keeps at most ${MAX_FILTERABLE_FIELDS} filterable fields; later keys are stored, not filterable, with a warning`, async () => {
    await core.client.addDocument({ kb_id: 'k', doc_id: 'one', content: 'First set of fields.', metadata: keys(64, 'a') });
    await core.client.addDocument({ kb_id: 'k', doc_id: 'two', content: 'Second set of fields.', metadata: keys(64, 'b') });
    const third = await core.client.addDocument({
      kb_id: 'k',
      doc_id: 'three',
      content: 'One field too many.',
      metadata: { a1: 5, late: 'yes' },
    });
    expect(third.status).toBe('added');
    expect(third.warnings?.join(' ')).toMatch(/"late" kept but not filterable/);
    const fields = (await core.client.getKb({ kb_id: 'k' })).metadata_fields;
    expect(Object.keys(fields)).toHaveLength(MAX_FILTERABLE_FIELDS);
    expect(fields).not.toHaveProperty('late');
    expect((await core.client.getDocument({ kb_id: 'k', doc_id: 'three' })).metadata).toEqual({ a1: 5, late: 'yes' });
    const hits = await core.client.search({ query: 'field', kb_ids: ['k'], mode: 'vector', filter: { a1: 5 } });
    expect(hits.hits.map((h) => h.doc_id)).toEqual(['three']);
    expect(await errorCode(core.client.search({ query: 'field', kb_ids: ['k'], filter: { late: 'yes' } }))).toBe('invalid_parameter');
  });

  it('typeMetadata itself enforces the caps whatever the caller', () => {
    expect(() => typeMetadata(keys(MAX_METADATA_KEYS + 1, 'x'), {})).toThrow(/limit is 64/);
    const known = Object.fromEntries(Array.from({ length: MAX_FILTERABLE_FIELDS }, (_, i) => [`k${i}`, 'number' as const]));
    expect(typeMetadata({ k1: 1, extra: 2 }, known)).toMatchObject({ newFields: {}, columns: { m_k1: 1 }, warnings: [expect.any(String)] });
  });
});

describe('filter and query caps', () => {
  it('a filter with too many conditions, or too large, is refused before it becomes SQL', async () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_FILTER_CONDITIONS + 1 }, (_, i) => [
        `title__ne`.replace('title', i % 2 ? 'title' : 'source') + '_'.repeat(0),
        `v${i}`,
      ]),
    );
    void many;
    const wide = Object.fromEntries(Array.from({ length: MAX_FILTER_CONDITIONS + 1 }, (_, i) => [`metadata.f${i}`, i]));
    expect(await errorCode(core.client.search({ query: 'x', filter: wide }))).toBe('invalid_parameter');
    const big = { doc_id__in: Array.from({ length: 1000 }, (_, i) => `${'d'.repeat(100)}${i}`) };
    expect(await errorCode(core.client.search({ query: 'x', filter: big }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.search({ query: 'q'.repeat(4001) }))).toBe('invalid_parameter');
    expect(() => parseFilterExpr('a=1,'.repeat(20_000))).toThrow(/limit/);
  });
});
