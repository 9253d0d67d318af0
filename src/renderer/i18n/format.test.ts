import { describe, expect, it } from 'vitest';
import { formatters } from './format.js';

/** ICU versions differ in which space they put between a number and its unit: compare with plain spaces. */
const plain = (s: string) => s.replace(/[\s\u00a0\u202f]/g, ' ');

describe('formatters (Intl in the UI language)', () => {
  it('writes numbers, sizes and durations the way each language does', () => {
    const en = formatters('en');
    const ru = formatters('ru');
    const zh = formatters('zh-CN');
    expect(plain(en.number(300000))).toBe('300,000');
    expect(plain(ru.number(300000))).toBe('300 000');
    expect(plain(en.bytes(1536))).toBe('1.5kB');
    expect(plain(en.bytes(253))).toBe('253B');
    expect(plain(ru.bytes(1536))).toBe('1,5 кБ');
    expect(plain(ru.bytes(12.3 * 1024 * 1024))).toBe('12,3 МБ');
    expect(plain(zh.bytes(200))).toMatch(/^200 ?B$/);
    expect(plain(en.duration(40_000))).toBe('40 seconds');
    expect(plain(ru.duration(40_000))).toBe('40 секунд');
    expect(plain(ru.duration(3 * 60_000))).toBe('3 минуты');
    expect(plain(zh.duration(3 * 60_000))).toBe('3分钟');
    expect(plain(ru.milliseconds(12.4))).toBe('12 мс');
    expect(plain(ru.list(['a', 'b', 'c']))).toBe('a, b и c');
    expect(plain(zh.list(['a', 'b']))).toBe('a和b');
  });

  it('writes dates in the language, and a dash for none', () => {
    const iso = '2026-03-05T14:07:00Z';
    expect(formatters('en').date(null)).toBe('—');
    expect(formatters('ru').date(iso)).toMatch(/5 мар\. 2026 г\./);
    expect(formatters('zh-CN').date(iso)).toMatch(/2026年3月5日/);
    expect(formatters('en').date('not a date')).toBe('not a date');
  });
});
