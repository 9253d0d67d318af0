import { MAX_FILTER_EXPR_CHARS } from './contract/filter-fields.js';
import { RagError } from './errors.js';

export type FilterObject = Record<string, unknown>;

function bad(message: string): never {
  throw new RagError('invalid_parameter', `filter_expr: ${message}`);
}

/** A value as written: JSON when it parses (numbers, booleans, lists, quoted strings), else the bare text. */
function readValue(raw: string): unknown {
  const text = raw.trim();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.replace(/^['"]|['"]$/g, '');
  }
}

/**
 * Split `a=1, b=[1,2] AND c="x,y" && d=2` into its conditions: on commas, `AND` and `&&` outside brackets and
 * quotes. One pass over the text, so its cost is linear in its length.
 */
export function splitConditions(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  const cut = (end: number, next: number) => {
    parts.push(text.slice(start, end));
    start = next;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      if (ch === ',') cut(i, i + 1);
      else if (ch === '&' && text[i + 1] === '&') {
        cut(i, i + 2);
        i++;
      } else if (
        (ch === 'A' || ch === 'a') &&
        /\s/.test(text[i - 1] ?? '') &&
        text.slice(i, i + 3).toUpperCase() === 'AND' &&
        /\s/.test(text[i + 3] ?? '')
      ) {
        cut(i, i + 3);
        i += 2;
      }
    }
  }
  cut(text.length, text.length);
  return parts.map((p) => p.trim()).filter(Boolean);
}

const FIELD_CHAR = /[A-Za-z0-9_.:-]/;

/** One `field__op=value` (or `field:value`, `field==value`) condition. */
function readCondition(part: string, out: FilterObject): void {
  let i = 0;
  while (i < part.length && FIELD_CHAR.test(part[i]!)) i++;
  let field = part.slice(0, i);
  // `a:b` is field `a` and value `b`; a colon inside a field name would be ambiguous, so the first colon splits.
  const colon = field.indexOf(':');
  let rest: string;
  if (colon > 0) {
    rest = part.slice(colon + 1);
    field = field.slice(0, colon);
  } else {
    let j = i;
    while (j < part.length && /\s/.test(part[j]!)) j++;
    if (part.startsWith('==', j)) rest = part.slice(j + 2);
    else if (part[j] === '=' || part[j] === ':') rest = part.slice(j + 1);
    else bad(`cannot read "${part.slice(0, 80)}"; use {"field__op": value}`);
  }
  if (!field) bad(`cannot read "${part.slice(0, 80)}"; use {"field__op": value}`);
  if (!rest.trim()) bad(`no value for "${field}"`);
  out[field] = readValue(rest);
}

/**
 * A metadata filter as an object, or as text a model (or a shell user) may write instead: JSON
 * (`{"year__gte": 2020}`), or `field__op=value` conditions separated by commas, `AND` or `&&` (values read as JSON
 * when they parse). Linear in the text's length, which is capped.
 */
export function parseFilterExpr(expr: FilterObject | string | null | undefined): FilterObject | null {
  if (expr === null || expr === undefined) return null;
  if (typeof expr !== 'string') return Object.keys(expr).length ? expr : null;
  if (expr.length > MAX_FILTER_EXPR_CHARS) {
    throw new RagError('invalid_parameter', `filter_expr is ${expr.length} characters; the limit is ${MAX_FILTER_EXPR_CHARS}`);
  }
  const text = expr.trim();
  if (!text || text === 'null') return null;
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      bad('not a valid JSON object');
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as FilterObject;
    bad('not a valid JSON object');
  }
  const out: FilterObject = {};
  for (const part of splitConditions(text)) readCondition(part, out);
  return Object.keys(out).length ? out : null;
}

/**
 * Filter conditions given one by one (`--filter a=1 --filter 'title=Smith, J.'`), each read whole (a comma belongs to
 * its value), merged (ANDed) into one filter.
 */
export function parseFilterList(items: readonly string[] | undefined): FilterObject | undefined {
  if (!items?.length) return undefined;
  const out: FilterObject = {};
  for (const item of items) {
    if (item.length > MAX_FILTER_EXPR_CHARS) bad(`a condition is ${item.length} characters; the limit is ${MAX_FILTER_EXPR_CHARS}`);
    readCondition(item.trim(), out);
  }
  return Object.keys(out).length ? out : undefined;
}
