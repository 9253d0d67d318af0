import { RagError } from '../../shared/errors.js';

/**
 * The only way values reach a LanceDB (DataFusion) SQL predicate. Strings are single-quoted with quotes
 * doubled; identifiers come from our own registry and are still checked and back-quoted; numbers must be finite.
 */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function sqlIdent(name: string): string {
  if (!IDENT.test(name)) throw new RagError('invalid_parameter', `not a valid field name: ${JSON.stringify(name)}`);
  return `\`${name}\``;
}

export function sqlString(value: string): string {
  // NUL cannot appear in a SQL literal; nothing legitimate contains it.
  return `'${value.split('\u0000').join('').replace(/'/g, "''")}'`;
}

export function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new RagError('invalid_parameter', `not a finite number: ${value}`);
  return Number.isInteger(value) ? String(value) : value.toPrecision(17);
}

export function sqlBool(value: boolean): string {
  return value ? 'TRUE' : 'FALSE';
}

/** A LIKE pattern that matches `value` literally anywhere (with `\` as the escape character). */
export function sqlContainsPattern(value: string): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/%/g, '\\%').replace(/_/g, '\\_');
  return `${sqlString(`%${escaped}%`)} ESCAPE '\\'`;
}
