import { describe, expect, it } from 'vitest';
import { DocChanges } from './doc-changes.js';

describe('DocChanges', () => {
  it('reports the doc_ids and contents a KB’s mutations touched after a point, per KB', async () => {
    const changes = new DocChanges();
    const at = changes.now;
    await changes.around([{ kbId: 'a', docIds: ['x', 'y'], hashes: ['hx', 'hy'] }], async () => undefined);
    await changes.around([{ kbId: 'b', docIds: ['z'], hashes: ['hz'] }], async () => undefined);
    const later = changes.now;
    await changes.around([{ kbId: 'a', docIds: ['w'], hashes: [] }], async () => undefined);
    expect(changes.since('a', at)).toEqual({ docIds: new Set(['x', 'y', 'w']), hashes: new Set(['hx', 'hy']) });
    expect(changes.since('a', later)).toEqual({ docIds: new Set(['w']), hashes: new Set() });
    expect(changes.since('b', later)).toEqual({ docIds: new Set(), hashes: new Set() });
    expect(changes.since('c', at)).toEqual({ docIds: new Set(), hashes: new Set() });
  });

  it('counts a mutation from its start to its end: a read that overlapped it sees it, whichever version it read', async () => {
    const changes = new DocChanges();
    let release!: () => void;
    const running = changes.around([{ kbId: 'a', docIds: ['x'], hashes: ['hx'] }], () => new Promise<void>((r) => (release = r)));
    // A read starts while the commit is in flight: it may see the rows before it or after it.
    const during = changes.now;
    expect(changes.since('a', during)!.docIds.size).toBe(0);
    release();
    await running;
    expect(changes.since('a', during)).toEqual({ docIds: new Set(['x']), hashes: new Set(['hx']) });
    // A failed mutation counts as well: what it left is not known.
    const before = changes.now;
    await expect(
      changes.around([{ kbId: 'a', docIds: ['y'], hashes: [] }], () => Promise.reject(new Error('commit failed'))),
    ).rejects.toThrow();
    expect(changes.since('a', before)!.docIds).toEqual(new Set(['y']));
  });

  it('does not know what changed after a point older than what it keeps, or after a whole KB changed', async () => {
    const changes = new DocChanges();
    const start = changes.now;
    const recent = async () => {
      for (let i = 0; i < 200; i++) await changes.around([{ kbId: 'a', docIds: [`d${i}`], hashes: [] }], async () => undefined);
    };
    await recent();
    expect(changes.since('a', start)).toBeUndefined();
    const kept = changes.now;
    await changes.around([{ kbId: 'a', docIds: 'all', hashes: [] }], async () => undefined);
    expect(changes.since('a', kept)).toBeUndefined();
    expect(changes.since('b', kept)).toEqual({ docIds: new Set(), hashes: new Set() });
    // A mutation of very many documents is kept as one of the whole KB.
    const many = changes.now;
    await changes.around([{ kbId: 'b', docIds: Array.from({ length: 5_000 }, (_, i) => `m${i}`), hashes: [] }], async () => undefined);
    expect(changes.since('b', many)).toBeUndefined();
  });
});
