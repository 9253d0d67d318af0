import { estimateTokens } from '../text/token-estimate.js';
import type { BlockDraft } from './assemble.js';

/**
 * Tables → Markdown table blocks, shared by every parser that meets a table (HTML, DOCX, PDF, spreadsheets,
 * slides, ODT, RTF). A table is cut into row groups small enough for one chunk at the default chunk size, and each
 * group repeats the header, so every chunk of a table says what its columns mean and a row is never split.
 */

/**
 * A group's tokens by the chunker's estimate (text/token-estimate.ts: every `|` and punctuation mark counts), so a
 * group fits a chunk of the default size (256) when no model tokenizer is loaded. A model that counts more, or a
 * smaller chunk size, gets the group cut at rows by the chunker, which repeats the head (chunk/table.ts).
 */
export const ROW_GROUP_TOKENS = 200;
/** At most this many body rows per group, however short they are. */
export const ROW_GROUP_ROWS = 40;

/** One cell as Markdown: whitespace collapsed to single spaces, pipes escaped. */
export function markdownCell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

function markdownRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export interface TableOptions {
  /** Where the table sits (heading path, page...), copied onto every block. */
  base?: Omit<BlockDraft, 'kind' | 'text'>;
  /**
   * 1-based row numbers of `rows` in their source (spreadsheet rows, CSV lines): each group's body rows become the
   * block's line range.
   */
  rowNumbers?: readonly number[];
  /** Treat the first row as data and make a header of column letters (A, B, …) instead. */
  noHeader?: boolean;
}

/** Column letters as spreadsheets name them: A … Z, AA, AB … */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/**
 * Blocks for a table given as rows of cell texts. Empty rows and columns that are empty in every row are dropped;
 * short rows are padded. A table with one column or one row is not a table to a reader: it becomes plain lines.
 */
export function tableToBlocks(input: readonly (readonly string[])[], options: TableOptions = {}): BlockDraft[] {
  // Rows may be sparse (a spreadsheet cell far to the right): only columns that hold something are kept.
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  const used = new Set<number>();
  input.forEach((r, i) => {
    const cells: string[] = [];
    let any = false;
    r.forEach((c, j) => {
      const v = markdownCell(c ?? '');
      if (v) {
        cells[j] = v;
        used.add(j);
        any = true;
      }
    });
    if (any) {
      rows.push(cells);
      rowNumbers.push(options.rowNumbers?.[i] ?? i + 1);
    }
  });
  if (rows.length === 0) return [];
  const columns = [...used].sort((a, b) => a - b);
  const table = rows.map((r) => columns.map((c) => r[c] ?? ''));
  const base = options.base ?? {};
  const lines = (from: number, to: number): Partial<BlockDraft> =>
    options.rowNumbers ? { line_start: rowNumbers[from]!, line_end: rowNumbers[to]! } : {};

  if (columns.length < 2 || (table.length < 2 && !options.noHeader)) {
    return [
      { ...base, kind: 'paragraph', text: table.map((r) => r.filter(Boolean).join(' | ')).join('\n'), ...lines(0, table.length - 1) },
    ];
  }
  const header = options.noHeader ? columns.map((_, i) => columnName(i)) : table[0]!;
  const head = `${markdownRow(header)}\n${markdownRow(header.map(() => '---'))}`;
  const headCost = estimateTokens(head);
  const blocks: BlockDraft[] = [];
  const first = options.noHeader ? 0 : 1;
  let group: string[] = [];
  let groupStart = first;
  let cost = headCost;
  const flush = (end: number): void => {
    if (group.length === 0) return;
    // The first group's range starts at the header row; later groups repeat the header but start at their rows.
    const from = blocks.length === 0 && !options.noHeader ? 0 : groupStart;
    blocks.push({ ...base, kind: 'table', text: `${head}\n${group.join('\n')}`, ...lines(from, end) });
    group = [];
    cost = headCost;
  };
  for (let i = first; i < table.length; i++) {
    const line = markdownRow(table[i]!);
    const c = estimateTokens(line);
    if (group.length > 0 && (cost + c > ROW_GROUP_TOKENS || group.length >= ROW_GROUP_ROWS)) flush(i - 1);
    if (group.length === 0) groupStart = i;
    group.push(line);
    cost += c;
  }
  flush(table.length - 1);
  return blocks;
}
