import { Parser as HtmlTokenizer } from 'htmlparser2';
import { HeadingTracker, type BlockDraft } from './assemble.js';
import { withLinearStack } from './linear-stack.js';
import { tableToBlocks } from './table-markdown.js';

/**
 * HTML → text blocks, shared by the HTML parser and the DOCX parser (mammoth produces HTML).
 * - script, style, noscript, template and embedded objects are skipped entirely; tags and attributes never
 *   become text (an `<img onerror=...>` contributes nothing); entities are decoded.
 * - h1–h6 become heading blocks and set the heading path of everything after them.
 * - block elements (p, div, section, li, td...) end a paragraph; a whole list becomes one `list` block with
 *   one line per item, a table Markdown `table` blocks (row groups repeating the header, see table-markdown.ts),
 *   `pre` a `code` block.
 * - `<title>` is the title; without one, the first h1.
 */
export interface HtmlExtract {
  blocks: BlockDraft[];
  title?: string;
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'canvas', 'select']);
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'main',
  'nav',
  'p',
  'section',
  'summary',
]);
const HEADING = /^h([1-6])$/;

/** ASCII whitespace (what the builder itself appends); NaN (an empty buffer) counts as space. */
function isSpace(code: number): boolean {
  return Number.isNaN(code) || code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || code === 0x0c;
}

/**
 * Text collected piece by piece. Appending to one JS string and then looking at its end (or running a regex on it)
 * flattens the rope each time, which made a 1.2 MB table of <div> cells take 25 s: here pieces are kept in an
 * array and the last character is remembered.
 */
class TextBuffer {
  private parts: string[] = [];
  private last = 0x20;

  append(s: string): void {
    if (!s) return;
    this.parts.push(s);
    this.last = s.charCodeAt(s.length - 1);
  }

  endsWithSpace(): boolean {
    return this.parts.length === 0 || isSpace(this.last);
  }

  take(): string {
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.last = 0x20;
    return text;
  }
}

/** The table being read (the outermost one; nested tables are flattened into its cells). */
interface TableState {
  rows: string[][];
  row: string[] | undefined;
  cell: TextBuffer | undefined;
  caption: TextBuffer | undefined;
  path: string[];
}

class HtmlBlockBuilder {
  readonly blocks: BlockDraft[] = [];
  readonly headings = new HeadingTracker();
  title: string | undefined;
  firstH1: string | undefined;

  private buf = new TextBuffer();
  private skipDepth = 0;
  private inTitle = false;
  private titleBuf = '';
  private heading: number | undefined;
  private listDepth = 0;
  private listCounters: (number | undefined)[] = [];
  private table: TableState | undefined;
  private tableDepth = 0;
  private preDepth = 0;

  /** Where text goes now: the open cell or caption of a table, else the paragraph buffer. */
  private get out(): TextBuffer {
    const t = this.table;
    if (!t) return this.buf;
    if (t.cell) return t.cell;
    if (t.caption) return t.caption;
    // Text between cells (stray text in <table> or <tr>): into a cell of its own so it is not lost.
    t.row ??= [];
    t.cell = new TextBuffer();
    return t.cell;
  }

  open(name: string, attribs: Record<string, string>): void {
    if (SKIPPED.has(name)) {
      this.skipDepth++;
      return;
    }
    if (this.skipDepth > 0) return;
    if (name === 'title') {
      this.inTitle = true;
      return;
    }
    if (this.table) {
      this.openInTable(name);
      return;
    }
    const h = HEADING.exec(name);
    if (h && this.listDepth === 0 && this.preDepth === 0) {
      this.flush();
      this.heading = Number(h[1]);
      return;
    }
    if (name === 'br') {
      this.buf.append('\n');
      return;
    }
    if (name === 'ul' || name === 'ol') {
      if (this.listDepth === 0) this.flush();
      this.listDepth++;
      const start = Number.parseInt(attribs.start ?? '1', 10);
      this.listCounters.push(name === 'ol' ? (Number.isFinite(start) ? start : 1) : undefined);
      return;
    }
    if (name === 'li') {
      const counter = this.listCounters.at(-1);
      let bullet = '-';
      if (counter !== undefined) {
        bullet = `${counter}.`;
        this.listCounters[this.listCounters.length - 1] = counter + 1;
      }
      this.buf.append(`\n${bullet} `);
      return;
    }
    if (name === 'table') {
      // A table inside a list or a paragraph ends what came before it; the list goes on after the table.
      this.flush(this.listDepth > 0 ? 'list' : this.preDepth > 0 ? 'code' : 'paragraph');
      this.table = { rows: [], row: undefined, cell: undefined, caption: undefined, path: this.headings.path() };
      this.tableDepth = 1;
      return;
    }
    if (name === 'pre') {
      if (this.preDepth === 0 && this.listDepth === 0) this.flush();
      this.preDepth++;
      return;
    }
    if (BLOCKS.has(name)) this.blockBoundary();
  }

  private openInTable(name: string): void {
    const t = this.table!;
    if (name === 'table') {
      this.tableDepth++;
      return;
    }
    if (this.tableDepth > 1) {
      // Nested tables: their cells become words of the outer cell.
      if (name === 'td' || name === 'th' || name === 'tr' || name === 'br' || BLOCKS.has(name)) this.spaceIn(this.out);
      return;
    }
    if (name === 'caption') {
      t.caption = new TextBuffer();
      return;
    }
    if (name === 'tr') {
      this.endRow();
      t.row = [];
      return;
    }
    if (name === 'td' || name === 'th') {
      this.endCell();
      t.row ??= [];
      t.cell = new TextBuffer();
      return;
    }
    if (name === 'br' || name === 'li' || BLOCKS.has(name) || HEADING.test(name)) this.spaceIn(this.out);
  }

  private spaceIn(b: TextBuffer): void {
    if (!b.endsWithSpace()) b.append(' ');
  }

  private endCell(): void {
    const t = this.table!;
    if (!t.cell) return;
    (t.row ??= []).push(t.cell.take());
    t.cell = undefined;
  }

  private endRow(): void {
    const t = this.table!;
    this.endCell();
    if (t.row) t.rows.push(t.row);
    t.row = undefined;
  }

  private endTable(): void {
    const t = this.table!;
    this.endRow();
    this.table = undefined;
    this.tableDepth = 0;
    const caption = t.caption?.take().trim();
    const base = t.path.length > 0 ? { heading_path: t.path } : {};
    if (caption) this.blocks.push({ ...base, kind: 'paragraph', text: caption });
    this.blocks.push(...tableToBlocks(t.rows, { base }));
  }

  close(name: string): void {
    if (this.inTitle && name === 'title') {
      this.inTitle = false;
      const t = this.titleBuf.replace(/\s+/g, ' ').trim();
      if (t && !this.title) this.title = t;
      return;
    }
    if (SKIPPED.has(name)) {
      this.skipDepth = Math.max(0, this.skipDepth - 1);
      return;
    }
    if (this.skipDepth > 0) return;
    if (this.table) {
      this.closeInTable(name);
      return;
    }
    const h = HEADING.exec(name);
    if (h && this.heading !== undefined) {
      const text = this.buf.take().replace(/\s+/g, ' ').trim();
      const level = this.heading;
      this.heading = undefined;
      if (text) {
        const path = this.headings.enter(level, text);
        if (level === 1 && this.firstH1 === undefined) this.firstH1 = text;
        this.blocks.push({ kind: 'heading', level, text, heading_path: path });
      }
      return;
    }
    if (name === 'ul' || name === 'ol') {
      this.listDepth = Math.max(0, this.listDepth - 1);
      this.listCounters.pop();
      if (this.listDepth === 0) this.flush('list');
      return;
    }
    if (name === 'pre') {
      this.preDepth = Math.max(0, this.preDepth - 1);
      if (this.preDepth === 0 && this.listDepth === 0) this.flush('code');
      return;
    }
    if (BLOCKS.has(name)) this.blockBoundary();
  }

  private closeInTable(name: string): void {
    const t = this.table!;
    if (name === 'table') {
      if (--this.tableDepth === 0) this.endTable();
      return;
    }
    if (this.tableDepth > 1) {
      if (name === 'td' || name === 'th' || BLOCKS.has(name)) this.spaceIn(this.out);
      return;
    }
    if (name === 'caption') {
      const text = t.caption?.take().trim() ?? '';
      t.caption = undefined;
      if (text.trim()) this.blocks.push({ kind: 'paragraph', text, ...(t.path.length > 0 ? { heading_path: t.path } : {}) });
      return;
    }
    if (name === 'td' || name === 'th') this.endCell();
    else if (name === 'tr') this.endRow();
    else if (BLOCKS.has(name) || HEADING.test(name) || name === 'li') this.spaceIn(this.out);
  }

  text(data: string): void {
    if (this.inTitle) {
      this.titleBuf += data;
      return;
    }
    if (this.skipDepth > 0) return;
    if (this.table) {
      this.out.append(data.replace(/\s+/g, ' '));
      return;
    }
    this.buf.append(this.preDepth > 0 ? data : data.replace(/\s+/g, ' '));
  }

  /** A block element starts or ends: a new paragraph, or a space inside lists and headings. */
  private blockBoundary(): void {
    if (this.listDepth > 0 || this.heading !== undefined) this.spaceIn(this.buf);
    else if (this.preDepth > 0) this.buf.append('\n');
    else this.flush();
  }

  /** The end of the document: an unclosed table still counts. */
  finish(): void {
    if (this.table) this.endTable();
    this.flush(this.listDepth > 0 ? 'list' : 'paragraph');
  }

  flush(kind: BlockDraft['kind'] = 'paragraph'): void {
    const text = this.buf.take();
    if (!text.trim()) return;
    const path = this.headings.path();
    this.blocks.push({ kind, text, ...(path.length > 0 ? { heading_path: path } : {}) });
  }
}

export function htmlToBlocks(html: string): HtmlExtract {
  const b = new HtmlBlockBuilder();
  const parser = withLinearStack(
    new HtmlTokenizer(
      {
        onopentag: (name, attribs) => b.open(name, attribs),
        onclosetag: (name) => b.close(name),
        ontext: (data) => b.text(data),
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
    ),
  );
  parser.write(html);
  parser.end();
  b.finish();
  const title = b.title ?? b.firstH1;
  return title ? { blocks: b.blocks, title } : { blocks: b.blocks };
}

/** The visible text of an HTML fragment (used for raw HTML inside Markdown). */
export function htmlFragmentText(html: string): string {
  return htmlToBlocks(html)
    .blocks.map((blk) => blk.text)
    .join('\n');
}

/** Decodes HTML entities (`&amp;`, `&copy;`, `&#1090;`...) in plain text; `<` stays literal. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  const p = new HtmlTokenizer({ ontext: (d) => (out += d) }, { decodeEntities: true });
  p.write(text.replace(/</g, '&lt;'));
  p.end();
  return out;
}
