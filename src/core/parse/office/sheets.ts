import type { BlockDraft } from '../assemble.js';
import { tableToBlocks } from '../table-markdown.js';

/** A sheet as read from a workbook: its name and its non-empty rows by 1-based row number (cells may be sparse). */
export interface SheetData {
  name: string;
  rows: Map<number, string[]>;
}

/**
 * A sheet's blocks: its name as a level-1 heading (so every chunk of it carries the sheet in its heading path and
 * each sheet starts a new chunk), then its rows as Markdown row groups that repeat the header row, each with its
 * spreadsheet row numbers as the line range.
 */
export function sheetBlocks(sheet: SheetData): BlockDraft[] {
  const numbers = [...sheet.rows.keys()].sort((a, b) => a - b);
  if (numbers.length === 0) return [];
  const path = [sheet.name];
  return [
    { kind: 'heading', level: 1, text: sheet.name, heading_path: path },
    ...tableToBlocks(
      numbers.map((n) => sheet.rows.get(n)!),
      { base: { heading_path: path }, rowNumbers: numbers },
    ),
  ];
}

/** 0-based column index of a cell reference's letters (`C7` → 2); -1 when there are none. */
export function columnIndex(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : n - 1;
}

/** An Excel serial date (days since 1899-12-30) as ISO: a date, or a date and time when it has a fraction. */
export function excelDate(serial: number): string | undefined {
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return undefined;
  const ms = Math.round((serial - 25569) * 86_400_000);
  const iso = new Date(ms).toISOString();
  return Number.isInteger(serial) ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}
