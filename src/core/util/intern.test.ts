import { describe, expect, it } from 'vitest';
import { intern, LabelTable } from './intern.js';

describe('LabelTable', () => {
  it('keeps one copy per label, none past its bound or its length', () => {
    const table = new LabelTable(3, 8);
    expect(table.intern(['utf', '-8'].join(''))).toBe('utf-8');
    expect(table.intern(['ut', 'f-8'].join(''))).toBe('utf-8');
    expect(table.size).toBe(1);
    expect(table.intern('a-label-longer-than-8')).toBe('a-label-longer-than-8');
    expect(table.size).toBe(1);
    for (const label of ['markdown', 'pdf', 'html', 'docx']) expect(table.intern(label)).toBe(label);
    // markdown and pdf fill it; html and docx come back as given, not kept.
    expect(table.size).toBe(3);
  });

  it('the shared table gives labels back unchanged', () => {
    expect(intern('windows-1251')).toBe('windows-1251');
    expect(intern(String(['windows', '1251'].join('-')))).toBe('windows-1251');
  });
});
