import { describe, expect, it } from 'vitest';
import type { AddResult } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { sameHiddenClass } from '../test-support.js';
import type { Pending } from './examine.js';
import { outcomeOf } from './files-job.js';
import type { ItemLine, JobItem } from './journal.js';
import { failed, settleResult } from './settle-result.js';

const base = (i: number): Pending['base'] => ({
  file: `notes/n${i}.md`,
  source_id: null,
  doc_id: `n${i}`,
  bytes: 100 + i,
  mtime_ms: 1_700_000_000_000 + i,
  file_hash: `h${i}`,
  checked_at: '2026-12-02T06:00:00.000Z',
});
const added = (i: number): AddResult =>
  ({ kb_id: 'kb', doc_id: `n${i}`, status: 'added', chunk_count: 3, embedded: true, parser: 'markdown' }) as AddResult;
const ok = { status: 'ok', message: 'indexed' } as Pending['verdict'];

/**
 * A job keeps one record (the ledger, the journal) and one outcome (what `ragdesk add` reports) per file until it
 * ends: 50,000 files with a hidden class each held ~30 MB more of the heap.
 */
describe('records and outcomes of settled files', () => {
  const settle = (i: number, r: AddResult | RagError) => settleResult({ base: base(i), verdict: ok, existed: false }, r, false).line;

  it('share one hidden class per kind, whatever the file', () => {
    const records = Array.from({ length: 40 }, (_, i) => settle(i, added(i)).record!);
    expect(records[7]).toMatchObject({
      file: 'notes/n7.md',
      status: 'ok',
      message: 'indexed',
      indexed: true,
      chunks: 3,
      parser: 'markdown',
    });
    expect(records.every((r) => sameHiddenClass(r, records[0]!))).toBe(true);
    const failures = Array.from({ length: 40 }, (_, i) => settle(i, new RagError('too_large', `n${i} is too large`)).record!);
    expect(failures.every((r) => sameHiddenClass(r, failures[0]!))).toBe(true);
    const direct = Array.from({ length: 40 }, (_, i) => failed(base(i), { code: 'internal', message: 'x' }, true).record!);
    expect(direct[0]!.message).toContain('the previous version stays indexed');
    expect(direct.every((r) => sameHiddenClass(r, direct[0]!))).toBe(true);
  });

  it('outcomes too', () => {
    const item = (i: number): JobItem => ({
      key: `n${i}`,
      file: `/notes/n${i}.md`,
      doc_id: `n${i}`,
      source: `/notes/n${i}.md`,
      action: 'index',
      bytes: 1,
    });
    const outcomes = Array.from({ length: 40 }, (_, i) => outcomeOf(item(i), { t: 'item', i, ...settle(i, added(i)) } as ItemLine));
    expect(outcomes[5]).toEqual({ file: '/notes/n5.md', doc_id: 'n5', ok: true, status: 'added', chunks: 3 });
    expect(outcomes.every((o) => sameHiddenClass(o, outcomes[0]!))).toBe(true);
  });
});
