import { BUILTIN_FILTER_FIELDS } from '../../shared/contract/filter-fields.js';
import type { MetadataFieldType } from '../../shared/contract/kb.js';
import { FILTER_OPS, type Filter, type FilterOp } from '../../shared/contract/search.js';
import { RagError } from '../../shared/errors.js';
import { sqlBool, sqlContainsPattern, sqlIdent, sqlNumber, sqlString } from './sql.js';

/** A filterable field: the column that holds it in a KB's chunk table and its type. */
export interface FieldSpec {
  column: string;
  type: MetadataFieldType;
}

/** Built-in fields (shared/contract/filter-fields.ts): each is the chunk table's column of the same name. */
export const BUILTIN_FIELDS: Readonly<Record<string, FieldSpec>> = Object.fromEntries(
  Object.entries(BUILTIN_FILTER_FIELDS).map(([name, type]) => [name, { column: name, type }]),
);

/** Metadata keys that can become columns (and so be filtered on). Other keys are kept but not filterable. */
export const METADATA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
export const metadataColumn = (key: string): string => `m_${key}`;

const MAX_IN = 1000;

function parseKey(key: string): { field: string; op: FilterOp } {
  const at = key.lastIndexOf('__');
  if (at > 0) {
    const op = key.slice(at + 2);
    if ((FILTER_OPS as readonly string[]).includes(op)) return { field: key.slice(0, at), op: op as FilterOp };
  }
  return { field: key, op: 'eq' };
}

function resolveField(field: string, metadataFields: Readonly<Record<string, MetadataFieldType>>): FieldSpec {
  const metaKey = field.startsWith('metadata.') ? field.slice('metadata.'.length) : undefined;
  if (metaKey === undefined && BUILTIN_FIELDS[field]) return BUILTIN_FIELDS[field];
  const key = metaKey ?? field;
  const type = Object.hasOwn(metadataFields, key) ? metadataFields[key] : undefined;
  if (type && METADATA_KEY.test(key)) return { column: metadataColumn(key), type };
  const known = [...new Set([...Object.keys(BUILTIN_FIELDS), ...Object.keys(metadataFields)])].sort().join(', ');
  throw new RagError('invalid_parameter', `unknown filter field "${field}"; filterable fields: ${known}`, {
    details: { field },
  });
}

function bad(field: string, op: string, want: string): never {
  throw new RagError('invalid_parameter', `filter ${field}__${op} expects ${want}`, { details: { field, op } });
}

function scalarLiteral(field: string, op: string, type: MetadataFieldType, value: unknown): string {
  const base = type === 'string_list' ? 'string' : type === 'number_list' ? 'number' : type;
  if (base === 'string') {
    if (typeof value !== 'string') bad(field, op, 'a string');
    return sqlString(value);
  }
  if (base === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) bad(field, op, 'a number');
    return sqlNumber(value);
  }
  if (typeof value !== 'boolean') bad(field, op, 'true or false');
  return sqlBool(value);
}

function listLiteral(field: string, op: string, type: MetadataFieldType, value: unknown): string {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN) bad(field, op, `a non-empty list (at most ${MAX_IN})`);
  return value.map((v) => scalarLiteral(field, op, type, v)).join(', ');
}

function compileOne(field: string, op: FilterOp, spec: FieldSpec, value: unknown): string {
  const col = sqlIdent(spec.column);
  const isList = spec.type === 'string_list' || spec.type === 'number_list';
  if (op === 'exists') {
    if (typeof value !== 'boolean') bad(field, op, 'true or false');
    return value ? `${col} IS NOT NULL` : `${col} IS NULL`;
  }
  if (isList) {
    switch (op) {
      case 'eq':
      case 'contains':
        return `array_has(${col}, ${scalarLiteral(field, op, spec.type, value)})`;
      case 'ne':
        return `(${col} IS NULL OR NOT array_has(${col}, ${scalarLiteral(field, op, spec.type, value)}))`;
      case 'in':
        return `array_has_any(${col}, make_array(${listLiteral(field, op, spec.type, value)}))`;
      case 'nin':
        return `(${col} IS NULL OR NOT array_has_any(${col}, make_array(${listLiteral(field, op, spec.type, value)})))`;
      default:
        bad(field, op, 'one of eq, ne, in, nin, contains, exists (it is a list)');
    }
  }
  switch (op) {
    case 'eq':
      return `${col} = ${scalarLiteral(field, op, spec.type, value)}`;
    case 'ne':
      return `(${col} IS NULL OR ${col} <> ${scalarLiteral(field, op, spec.type, value)})`;
    case 'in':
      return `${col} IN (${listLiteral(field, op, spec.type, value)})`;
    case 'nin':
      return `(${col} IS NULL OR ${col} NOT IN (${listLiteral(field, op, spec.type, value)}))`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (spec.type === 'boolean') bad(field, op, 'a number or string field');
      const sym = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[op];
      return `${col} ${sym} ${scalarLiteral(field, op, spec.type, value)}`;
    }
    case 'contains':
      if (spec.type !== 'string') bad(field, op, 'a string field');
      if (typeof value !== 'string') bad(field, op, 'a string');
      return `${col} LIKE ${sqlContainsPattern(value)}`;
  }
}

/**
 * Compile a `{field__op: value}` filter into a SQL predicate for the KB's chunk table (ANDed), or undefined
 * when empty. Unknown fields, unknown types and wrong value types are `invalid_parameter`.
 */
export function compileFilter(
  filter: Filter | null | undefined,
  metadataFields: Readonly<Record<string, MetadataFieldType>>,
): string | undefined {
  if (!filter) return undefined;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    const { field, op } = parseKey(key);
    parts.push(compileOne(field, op, resolveField(field, metadataFields), value));
  }
  return parts.length ? parts.map((p) => `(${p})`).join(' AND ') : undefined;
}
