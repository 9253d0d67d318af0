import type { Metadata } from '../../shared/contract/index.js';

export interface FrontMatter {
  metadata: Metadata;
  /** The Markdown after the front matter. */
  body: string;
  /** 1-based line number of the body's first line in the file. */
  bodyFirstLine: number;
}

const KEY = /^([A-Za-z_][\w-]{0,63})\s*:\s*(.*)$/;
const MAX_FRONT_MATTER_LINES = 200;

function scalar(raw: string): string | number | boolean | null {
  const v = raw.trim();
  const quoted = /^"(.*)"$|^'(.*)'$/.exec(v);
  if (quoted) return quoted[1] ?? quoted[2] ?? '';
  if (v === '' || v === '~' || v === 'null') return null;
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^-?\d+(\.\d+)?$/.test(v) && v.length < 16) return Number(v);
  return v;
}

function listItem(raw: string): string | number {
  const v = scalar(raw);
  return typeof v === 'number' ? v : String(v ?? '');
}

/**
 * YAML front matter (`---` … `---` at the very start) → flat metadata: scalars, inline lists `[a, b]` and
 * block lists (`- a`). Nested maps are ignored; no YAML library is needed for what documents actually carry.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const none: FrontMatter = { metadata: {}, body: text, bodyFirstLine: 1 };
  if (!/^---[ \t]*\n/.test(text)) return none;
  const lines = text.split('\n', MAX_FRONT_MATTER_LINES + 2);
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)[ \t]*$/.test(l));
  if (end === -1) return none;
  const metadata: Metadata = {};
  let listKey: string | undefined;
  for (const line of lines.slice(1, end)) {
    const item = /^\s+-\s+(.*)$/.exec(line) ?? (listKey ? /^-\s+(.*)$/.exec(line) : null);
    if (item && listKey) {
      const arr = metadata[listKey];
      if (Array.isArray(arr)) arr.push(listItem(item[1] ?? ''));
      continue;
    }
    const kv = KEY.exec(line);
    if (!kv) {
      if (!/^\s/.test(line)) listKey = undefined;
      continue;
    }
    const key = kv[1]!;
    const value = (kv[2] ?? '').trim();
    listKey = undefined;
    if (value === '') {
      metadata[key] = [];
      listKey = key;
    } else if (/^\[.*\]$/.test(value)) {
      metadata[key] = value
        .slice(1, -1)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map(listItem);
    } else {
      metadata[key] = scalar(value);
    }
  }
  // A key with nothing under it is a nested map or an empty value: drop it rather than store [].
  for (const [k, v] of Object.entries(metadata)) if (Array.isArray(v) && v.length === 0) delete metadata[k];
  const headerChars = lines.slice(0, end + 1).reduce((n, l) => n + l.length + 1, 0);
  return { metadata, body: text.slice(headerChars), bodyFirstLine: end + 2 };
}
