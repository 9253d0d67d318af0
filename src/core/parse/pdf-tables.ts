/**
 * Tables in a PDF page's text layer, found from the geometry of pdf.js text runs. A PDF has no table structure,
 * only positioned text, so a table is read off the page the way a reader sees one:
 *
 * - rows are runs sharing a baseline; on a row, runs closer than `CELL_GAP` ems are one cell (a segment);
 * - a table is a stack of rows that keep vertical bands of white space (gutters) free in every row, opened by at
 *   least `MIN_ROWS` rows with two or more cells: the gutters are the column boundaries, whatever the cells'
 *   alignment (left, right, centred);
 * - lines of a cell that wraps (with an empty first cell, a line's spacing from a line with one) join that row.
 *
 * It is conservative: what is not clearly a table stays text. Two-column (or more) prose, a prose column next to
 * anything, lists (a column of bullets or numbers), code (monospace or symbol-dense text, a column of comments)
 * and rivers of white space in justified text are rejected. Pure functions over runs, tested without a PDF.
 */
import { isCjk, type PdfTextRun } from './pdf-layout.js';

/** A gap between runs on one baseline, in ems, that separates two cells. */
export const CELL_GAP = 0.45;
/** Rows with two or more cells a table needs. */
export const MIN_ROWS = 3;
/** A column whose cells' median width is at least this many ems is wide (prose-like when it reads as prose). */
const WIDE_EMS = 12;
/** Baseline distance, in ems, up to which two lines can be lines of one cell. */
const LINE_EMS = 1.45;
/** Vertical distance between two rows of one table, at most, in ems. */
const MAX_ROW_GAP = 3;
/** Rows one table may hold on a page (more are the next table): bounds the work on a page of thousands of lines. */
const MAX_TABLE_ROWS = 300;

export type PageRegion = { kind: 'text'; runs: PdfTextRun[] } | { kind: 'table'; rows: string[][] };

interface Segment {
  x0: number;
  x1: number;
  text: string;
}

interface Row {
  y: number;
  size: number;
  segments: Segment[];
  runs: number[];
}

type Gutter = [number, number];

const upright = (r: PdfTextRun): boolean => {
  const [a = 0, b = 0, c = 0, d = 0] = r.transform;
  return a > 0 && d > 0 && Math.abs(b) < 1e-3 && Math.abs(c) < 1e-3;
};
const runSize = (r: PdfTextRun): number => (r.height > 0 ? r.height : Math.abs(r.transform[3] ?? 0));
const runX = (r: PdfTextRun): number => r.transform[4] ?? 0;
const runY = (r: PdfTextRun): number => r.transform[5] ?? 0;

function join(a: string, b: string, gap: number, size: number): string {
  if (!a || !b) return a || b;
  const spaced = a.endsWith(' ') || b.startsWith(' ') || (isCjk(a.at(-1)) && isCjk(b[0]));
  return spaced || gap <= size * 0.15 ? a + b : `${a} ${b}`;
}

/** Visible upright runs grouped by baseline, top to bottom, each row's runs cut into cells at wide gaps. */
function pageRows(runs: readonly PdfTextRun[]): Row[] {
  const order = runs
    .map((r, i) => i)
    .filter((i) => runs[i]!.str.trim() !== '' && upright(runs[i]!) && runSize(runs[i]!) > 0)
    .sort((i, j) => runY(runs[j]!) - runY(runs[i]!) || runX(runs[i]!) - runX(runs[j]!));
  const rows: Row[] = [];
  for (const i of order) {
    const r = runs[i]!;
    const row = rows.at(-1);
    if (row && Math.abs(row.y - runY(r)) <= Math.max(row.size, runSize(r)) * 0.5) {
      row.runs.push(i);
      row.size = Math.max(row.size, runSize(r));
    } else rows.push({ y: runY(r), size: runSize(r), segments: [], runs: [i] });
  }
  for (const row of rows) {
    row.runs.sort((i, j) => runX(runs[i]!) - runX(runs[j]!));
    let seg: Segment | undefined;
    for (const i of row.runs) {
      const r = runs[i]!;
      const x = runX(r);
      if (seg && x - seg.x1 < CELL_GAP * row.size) {
        seg.text = join(seg.text, r.str, x - seg.x1, row.size);
        seg.x1 = Math.max(seg.x1, x + r.width);
      } else {
        seg = { x0: x, x1: x + r.width, text: r.str };
        row.segments.push(seg);
      }
    }
    for (const s of row.segments) s.text = s.text.replace(/\s+/g, ' ').trim();
  }
  return rows;
}

/** The gaps between a row's cells. */
function rowGaps(row: Row): Gutter[] {
  return row.segments.slice(1).map((s, k): Gutter => [row.segments[k]!.x1, s.x0]);
}

/** The gutters still free after `row`, or undefined when the row closes one (a cell across a column boundary). */
function narrow(gutters: Gutter[], row: Row, minWidth: number): Gutter[] | undefined {
  const out: Gutter[] = [];
  for (const [a0, b0] of gutters) {
    let [a, b] = [a0, b0];
    for (const s of row.segments) {
      if (s.x1 <= a || s.x0 >= b) continue;
      if (s.x0 <= a) a = s.x1;
      else if (s.x1 >= b) b = s.x0;
      else return undefined; // a cell inside a gutter
    }
    if (b - a < minWidth) return undefined;
    out.push([a, b]);
  }
  return out;
}

/** Column boundaries of a region: the bands free in every row, between its leftmost and rightmost text. */
function columnGutters(rows: Row[], minWidth: number): Gutter[] {
  const left = Math.min(...rows.map((r) => r.segments[0]!.x0));
  const right = Math.max(...rows.map((r) => r.segments.at(-1)!.x1));
  let free: Gutter[] = [[left, right]];
  for (const row of rows) {
    const next: Gutter[] = [];
    for (const [a, b] of free) {
      let start = a;
      for (const s of row.segments) {
        if (s.x1 <= start || s.x0 >= b) continue;
        if (s.x0 > start) next.push([start, s.x0]);
        start = Math.max(start, s.x1);
      }
      if (start < b) next.push([start, b]);
    }
    free = next.filter(([a, b]) => b - a >= minWidth);
  }
  return free.filter(([a, b]) => a > left && b < right);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
};

const LIST_MARKER = /^([•◦▪▫‣⁃·○●■□–—*+-]|\(?(\d{1,3}|[a-zA-Z]|[ivxlcdm]{1,6})[.)])$/;
const COMMENT = /^(#|\/\/|--|;|\/\*|%|<!--|')/;
const CODE_SYMBOLS = /[=$;{}<>#\\|`_[\]^~@&]/g;

/** Why a candidate region is not a table, or undefined when it is one. */
function rejection(cells: string[][], widths: number[][], size: number, mono: boolean): string | undefined {
  const columns = cells[0]!.length;
  const column = (c: number): string[] => cells.map((r) => r[c]!).filter(Boolean);
  if (mono) return 'code';
  if (column(0).every((t) => LIST_MARKER.test(t))) return 'list';
  let wide = 0;
  for (let c = 0; c < columns; c++) {
    const ws = widths.map((r) => r[c]!).filter((w) => w > 0);
    if (median(ws) < WIDE_EMS * size) continue;
    wide++;
    // Wrapped prose: most lines of a column go on with a lower-case word and run several words long.
    const cs = column(c).slice(1);
    const lower = cs.filter((t) => /^\p{Ll}/u.test(t)).length;
    if (cs.length > 0 && lower * 2 >= cs.length && median(cs.map((t) => t.split(' ').length)) >= 3) return 'prose column';
  }
  if (wide >= 2 && wide * 2 >= columns) return 'prose columns';
  for (let c = 1; c < columns; c++) if (column(c).length >= 2 && column(c).every((t) => COMMENT.test(t))) return 'code';
  const text = cells.flat().join('');
  const dense = (text.match(CODE_SYMBOLS)?.length ?? 0) / Math.max(1, text.replace(/\s/g, '').length);
  return dense >= 0.08 ? 'code' : undefined;
}

/**
 * A header cell aligned unlike its column (a left-aligned title over right-aligned numbers) can leave a gutter between
 * them: two neighbouring columns, one with text only in the header row and one with none there, are one column.
 */
function mergeHeaderColumns(cells: string[][], widths: number[][]): void {
  const filled = (c: number, from: number): boolean => cells.slice(from).some((r) => r[c]);
  for (let c = cells[0]!.length - 2; c >= 0; c--) {
    const [a, b] = [c, c + 1];
    const headerOnly = (x: number, y: number): boolean => !!cells[0]![x] && !filled(x, 1) && !cells[0]![y];
    if (!headerOnly(a, b) && !headerOnly(b, a)) continue;
    cells.forEach((r, i) => {
      r.splice(a, 2, r[a] || r[b]!);
      widths[i]!.splice(a, 2, Math.max(widths[i]![a]!, widths[i]![b]!));
    });
  }
}

interface Region {
  rows: Row[];
  table: string[][];
}

/** Grows a region from row `start` while its first row's gutters stay free; undefined when it is no table. */
function regionAt(rows: Row[], start: number, runs: readonly PdfTextRun[], mono: (r: PdfTextRun) => boolean): Region | undefined {
  const first = rows[start]!;
  const size = first.size;
  const minWidth = CELL_GAP * size * 0.75;
  let gutters: Gutter[] | undefined = rowGaps(first);
  let end = start + 1;
  const monoRow = (row: Row): boolean => row.runs.every((k) => mono(runs[k]!) && ![...runs[k]!.str].some(isCjk));
  for (; end < rows.length && end - start < MAX_TABLE_ROWS; end++) {
    const row = rows[end]!;
    if (rows[end - 1]!.y - row.y > MAX_ROW_GAP * size || Math.abs(row.size - size) > size * 0.25) break;
    // More cells than columns (a justified line whose gaps happen to fall on the gutters), or code next to text: not
    // a row of this table.
    if (row.segments.length > gutters.length + 1 || monoRow(row) !== monoRow(first)) break;
    const next = narrow(gutters, row, minWidth);
    if (!next) break;
    gutters = next;
  }
  let members = rows.slice(start, end);
  const multi = (r: Row): boolean => r.segments.length >= 2;
  const lineGap = LINE_EMS * size;
  // Rows after the last one with two or more cells belong only when they are more lines of its cells.
  let last = members.length - 1;
  while (last > 0 && !multi(members[last]!) && members[last - 1]!.y - members[last]!.y > lineGap) last--;
  members = members.slice(0, last + 1);
  if (members.filter(multi).length < MIN_ROWS) return undefined;

  const bounds = columnGutters(members, minWidth);
  if (bounds.length === 0) return undefined;
  const columnOf = (s: Segment): number => bounds.filter(([a, b]) => (a + b) / 2 < (s.x0 + s.x1) / 2).length;
  const lines = members.map((row) => {
    const line = bounds.map(() => '').concat('');
    const width = line.map(() => 0);
    for (const s of row.segments) {
      const c = columnOf(s);
      line[c] = join(line[c]!, s.text, 1, 1);
      width[c] = Math.max(width[c]!, s.x1 - s.x0);
    }
    return { y: row.y, line, width };
  });
  // Lines with an empty first cell within a line's spacing of a line with one are more lines of its row's cells (a
  // wrapped cell; centred cells sit between its lines): each joins the nearest such line, the one above on a tie.
  // Lines run top to bottom, so the nearest is the closest one above or below.
  const above: (number | undefined)[] = [];
  const below: (number | undefined)[] = [];
  lines.forEach((l, k) => (above[k] = l.line[0] ? k : above[k - 1]));
  for (let k = lines.length - 1; k >= 0; k--) below[k] = lines[k]!.line[0] ? k : below[k + 1];
  const owner = lines.map((l, k) => {
    const dist = (a: number | undefined): number => (a === undefined ? Infinity : Math.abs(lines[a]!.y - l.y));
    const near = dist(above[k]) <= dist(below[k]) ? above[k] : below[k];
    return near !== undefined && dist(near) <= lineGap ? near : k;
  });
  const cells: string[][] = [];
  const widths: number[][] = [];
  const rowOf = new Map<number, number>();
  lines.forEach((l, k) => {
    const o = owner[k]!;
    const at = rowOf.get(o);
    if (at === undefined) {
      rowOf.set(o, cells.push([...l.line]) - 1);
      widths.push([...l.width]);
    } else l.line.forEach((t, c) => (cells[at]![c] = join(cells[at]![c]!, t, 1, 1)));
  });
  mergeHeaderColumns(cells, widths);
  // Set in a monospace font: code. pdf.js calls many CJK fonts monospace, so text with CJK in it is not judged so.
  const monoRegion = members.every(monoRow);
  if (rejection(cells, widths, size, monoRegion)) return undefined;
  return { rows: members, table: cells };
}

/**
 * Splits a page's runs into text and tables, in the page's reading (stream) order: each table stands where its
 * first run was. `mono` says whether a run is set in a monospace font (code); without it no run is.
 */
export function splitTables(runs: readonly PdfTextRun[], mono: (r: PdfTextRun) => boolean = () => false): PageRegion[] {
  const rows = pageRows(runs);
  const owner = new Map<number, number>(); // run index → table number
  const tables: string[][][] = [];
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]!.segments.length < 2) continue;
    const region = regionAt(rows, i, runs, mono);
    if (!region) continue;
    const t = tables.push(region.table) - 1;
    for (const row of region.rows) for (const k of row.runs) owner.set(k, t);
    // Space-only runs inside the table (pdf.js fills gaps with them) go with it.
    const top = region.rows[0]!.y + region.rows[0]!.size * 0.5;
    const bottom = region.rows.at(-1)!.y - region.rows.at(-1)!.size * 0.5;
    const left = Math.min(...region.rows.map((r) => r.segments[0]!.x0));
    const right = Math.max(...region.rows.map((r) => r.segments.at(-1)!.x1));
    runs.forEach((r, k) => {
      const inside = runY(r) <= top && runY(r) >= bottom && runX(r) >= left && runX(r) <= right;
      if (!r.str.trim() && inside && !owner.has(k)) owner.set(k, t);
    });
    i += region.rows.length - 1;
  }
  if (tables.length === 0) return [{ kind: 'text', runs: [...runs] }];
  const out: PageRegion[] = [];
  const placed = new Set<number>();
  let text: PdfTextRun[] = [];
  runs.forEach((r, k) => {
    const t = owner.get(k);
    if (t === undefined) {
      text.push(r);
      return;
    }
    if (placed.has(t)) return;
    placed.add(t);
    if (text.length) out.push({ kind: 'text', runs: text });
    text = [];
    out.push({ kind: 'table', rows: tables[t]! });
  });
  if (text.length) out.push({ kind: 'text', runs: text });
  return out;
}
