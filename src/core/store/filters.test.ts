import { describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { compileFilter } from './filters.js';

const fields = { year: 'number', lang: 'string', tags: 'string_list', draft: 'boolean' } as const;

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof RagError ? err.code : 'other';
  }
  return undefined;
}

describe('compileFilter', () => {
  it('compiles every operator, ANDed', () => {
    const sql = compileFilter(
      {
        source: 'a.md',
        year__gte: 2020,
        year__lt: 2025,
        lang__in: ['en', 'ru'],
        tags__contains: 'x',
        draft__exists: true,
        title__contains: '50%_off',
      },
      fields,
    );
    expect(sql).toBe(
      "(`source` = 'a.md') AND (`m_year` >= 2020) AND (`m_year` < 2025) AND (`m_lang` IN ('en', 'ru')) AND " +
        "(array_has(`m_tags`, 'x')) AND (`m_draft` IS NOT NULL) AND (`title` LIKE '%50\\%\\_off%' ESCAPE '\\')",
    );
  });

  it('keeps quotes inside string literals', () => {
    expect(compileFilter({ source: "x' OR 1=1 --" }, fields)).toBe("(`source` = 'x'' OR 1=1 --')");
  });

  it('rejects unknown fields, unknown types and wrong value types', () => {
    expect(code(() => compileFilter({ nope: 1 }, fields))).toBe('invalid_parameter');
    expect(code(() => compileFilter({ year: 'recent' }, fields))).toBe('invalid_parameter');
    expect(code(() => compileFilter({ year__in: [] }, fields))).toBe('invalid_parameter');
    expect(code(() => compileFilter({ draft__gt: true }, fields))).toBe('invalid_parameter');
    expect(code(() => compileFilter({ year__contains: 'x' }, fields))).toBe('invalid_parameter');
    expect(code(() => compileFilter({ lang__exists: 'yes' }, fields))).toBe('invalid_parameter');
  });

  it('treats ne/nin as matching rows without the field', () => {
    expect(compileFilter({ lang__ne: 'en' }, fields)).toBe("((`m_lang` IS NULL OR `m_lang` <> 'en'))");
  });

  it('reaches a metadata key that shadows a built-in with metadata.<key>', () => {
    expect(compileFilter({ 'metadata.source': 'crm' }, { source: 'string' })).toBe("(`m_source` = 'crm')");
  });

  it('returns undefined for no filter', () => {
    expect(compileFilter(null, fields)).toBeUndefined();
    expect(compileFilter({}, fields)).toBeUndefined();
  });
});
