import type { Filter, FilterOp } from '../../shared/contract/index.js';

/** One row of the filter builder: `field op value`. */
export interface FilterRow {
  id: number;
  field: string;
  op: FilterOp;
  value: string;
}

/** A typed value from the text the person typed, using the field's known type when there is one. */
function coerce(raw: string, type: string | undefined): string | number | boolean {
  const s = raw.trim();
  if (type === 'number' || type === 'number_list') {
    const n = Number(s);
    return s !== '' && Number.isFinite(n) ? n : s;
  }
  if (type === 'boolean') return s === 'true' ? true : s === 'false' ? false : s;
  if (type === 'string' || type === 'string_list') return s;
  if (s === 'true' || s === 'false') return s === 'true';
  const n = Number(s);
  return s !== '' && Number.isFinite(n) && /^-?\d/.test(s) ? n : s;
}

/** `{field__op: value}` for the search call; rows without a field are ignored. */
export function buildFilter(rows: readonly FilterRow[], types: Record<string, string> = {}): Filter | undefined {
  const filter: Filter = {};
  for (const row of rows) {
    const field = row.field.trim();
    if (!field) continue;
    const type = types[field];
    let value: unknown;
    if (row.op === 'in' || row.op === 'nin')
      value = row.value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
        .map((v) => coerce(v, type));
    else if (row.op === 'exists') value = row.value.trim() !== 'false';
    else value = coerce(row.value, type);
    filter[`${field}__${row.op}`] = value;
  }
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** Fields the builder offers: built-in ones plus the metadata fields the KBs have seen. */
export { BUILTIN_FILTER_FIELDS } from '../../shared/contract/filter-fields.js';
