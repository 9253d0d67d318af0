import { describe, expect, it } from 'vitest';
import { heapHeldAfterReading } from '../test-support.js';
import { ownString } from './own-string.js';

const MB = 1024 * 1024;

describe('ownString', () => {
  it('is the same text', () => {
    for (const s of ['', 'a', 'x'.repeat(12), 'таможенноеоформление1', '海关申报'.repeat(10)]) expect(ownString(s)).toBe(s);
  });

  it('keeps none of the string it was cut from alive (a plain substring keeps all of it)', () => {
    const kept: string[] = [];
    const word = (section: string) =>
      section.slice(section.indexOf('декларирование'), section.indexOf(' ', section.indexOf('декларирование')));
    // 40 sections of 1 MB: a view keeps them all, an own copy 40 words.
    expect(heapHeldAfterReading((s) => kept.push(word(s)))).toBeGreaterThan(30 * MB);
    kept.length = 0;
    expect(heapHeldAfterReading((s) => kept.push(ownString(word(s))))).toBeLessThan(2 * MB);
    expect(kept[39]).toBe('декларированиеимпорта39');
  });
});
