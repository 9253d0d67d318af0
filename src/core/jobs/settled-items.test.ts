import { describe, expect, it } from 'vitest';
import type { JobItem } from './journal.js';
import { SettledItems } from './settled-items.js';

const itemsOf = (...bytes: number[]): JobItem[] =>
  bytes.map((b, i) => ({ key: `f${i}`, file: `/f${i}`, doc_id: `f${i}`, source: `/f${i}`, action: 'index', bytes: b }));

describe('SettledItems', () => {
  it('keeps the outcome and chunks of each settled item and the totals of all of them', () => {
    const done = new SettledItems(itemsOf(10, 20, 30, 40));
    expect(done.bytesTotal).toBe(100);
    expect(done.set(1, 'added', 3)).toBe(true);
    expect(done.set(3, 'failed', 0)).toBe(true);
    expect(done.set(0, 'deleted', 0)).toBe(true);
    expect([done.size, done.chunks, done.failed, done.bytesDone]).toEqual([3, 3, 1, 70]);
    expect([0, 1, 2, 3].map((i) => done.has(i))).toEqual([true, true, false, true]);
    expect([0, 1, 2, 3].map((i) => done.outcomeOf(i))).toEqual(['deleted', 'added', undefined, 'failed']);
    expect(done.chunksOf(1)).toBe(3);
  });

  it('an item settled again counts once, with its last outcome', () => {
    const done = new SettledItems(itemsOf(10, 20));
    done.set(0, 'failed', 0);
    done.set(0, 'updated', 5);
    done.set(0, 'updated', 2);
    expect([done.size, done.chunks, done.failed, done.bytesDone]).toEqual([1, 2, 0, 10]);
    expect(done.outcomeOf(0)).toBe('updated');
    done.set(0, 'failed', 0);
    expect([done.size, done.chunks, done.failed]).toEqual([1, 0, 1]);
  });

  it('ignores an index the job does not have (a journal line that is not its own)', () => {
    const done = new SettledItems(itemsOf(10));
    for (const i of [-1, 1, 0.5, Number.NaN]) expect(done.set(i, 'added', 4)).toBe(false);
    expect([done.size, done.chunks, done.bytesDone]).toEqual([0, 0, 0]);
    expect(done.has(1)).toBe(false);
  });

  it('clear forgets every item and total', () => {
    const done = new SettledItems(itemsOf(10, 20));
    done.set(1, 'added', 1);
    done.clear();
    expect([done.size, done.chunks, done.failed, done.bytesDone, done.bytesTotal]).toEqual([0, 0, 0, 0, 0]);
    expect(done.has(1)).toBe(false);
  });
});
