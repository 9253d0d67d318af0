import { describe, expect, it } from 'vitest';
import { buildFilter, type FilterRow } from './filters.js';

const row = (field: string, op: FilterRow['op'], value: string, id = 1): FilterRow => ({ id, field, op, value });

describe('filter builder → search filter', () => {
  it('builds field__op keys with typed values', () => {
    expect(
      buildFilter(
        [
          row('page', 'gte', '3', 1),
          row('department', 'eq', 'logistics', 2),
          row('tags', 'in', 'customs, import', 3),
          row('draft', 'exists', 'false', 4),
        ],
        {
          page: 'number',
          department: 'string',
          tags: 'string_list',
        },
      ),
    ).toEqual({ page__gte: 3, department__eq: 'logistics', tags__in: ['customs', 'import'], draft__exists: false });
  });

  it('keeps numeric-looking text as a string for string fields', () => {
    expect(buildFilter([row('version', 'eq', '3')], { version: 'string' })).toEqual({ version__eq: '3' });
    expect(buildFilter([row('version', 'eq', '3')], {})).toEqual({ version__eq: 3 });
  });

  it('ignores rows without a field and gives undefined for no filter', () => {
    expect(buildFilter([row('', 'eq', 'x')])).toBeUndefined();
    expect(buildFilter([])).toBeUndefined();
  });
});
