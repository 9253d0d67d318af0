import { HeadingTracker, type BlockDraft } from '../assemble.js';
import { tableToBlocks } from '../table-markdown.js';

/**
 * Text of OpenDocument bodies (ODT, ODP, and the cells of ODS): paragraphs (`text:p`), headings (`text:h` with
 * their outline level), lists, tables (Markdown row groups), spaces (`text:s`), tabs and line breaks. Feed it the
 * SAX events of the part of content.xml to read; take the blocks with `finish()`.
 */
export class OdfBlockWalker {
  readonly blocks: BlockDraft[] = [];
  readonly headings = new HeadingTracker();
  /** Extra location for every block (a slide's page number). */
  base: Omit<BlockDraft, 'kind' | 'text'> = {};

  private buf = '';
  private paraDepth = 0;
  private heading: number | undefined;
  private listDepth = 0;
  private listBuf: string[] = [];
  private table: { rows: string[][]; row: string[] | undefined; cell: string | undefined; depth: number } | undefined;
  private skip = 0;

  open(name: string, attrs: Record<string, string>): void {
    if (this.skip > 0 || name === 'text:note-citation' || name === 'office:annotation' || name === 'text:tracked-changes') {
      this.skip++;
      return;
    }
    if (this.table) {
      this.openInTable(name);
      return;
    }
    switch (name) {
      case 'table:table':
        this.flushList();
        this.table = { rows: [], row: undefined, cell: undefined, depth: 1 };
        return;
      case 'text:list':
        this.listDepth++;
        return;
      case 'text:h':
        this.paraDepth++;
        if (this.listDepth === 0) this.heading = Number(attrs['text:outline-level'] ?? 1) || 1;
        this.buf = '';
        return;
      case 'text:p':
        if (this.paraDepth++ === 0) this.buf = '';
        return;
      default:
        this.inline(name, attrs);
    }
  }

  private inline(name: string, attrs: Record<string, string>): void {
    if (name === 'text:s') this.append(' '.repeat(Math.min(Number(attrs['text:c'] ?? 1) || 1, 100)));
    else if (name === 'text:tab') this.append('\t');
    else if (name === 'text:line-break') this.append('\n');
  }

  private openInTable(name: string): void {
    const t = this.table!;
    if (name === 'table:table') t.depth++;
    else if (t.depth > 1) {
      if (name === 'table:table-cell' || name === 'text:p') this.append(' ');
    } else if (name === 'table:table-row') t.row = [];
    else if (name === 'table:table-cell' || name === 'table:covered-table-cell') t.cell = '';
    else if (name === 'text:p' || name === 'text:h' || name === 'text:list-item') this.append(' ');
    else this.inline(name, {});
  }

  close(name: string): void {
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    const t = this.table;
    if (t) {
      if (name === 'table:table' && --t.depth === 0) {
        this.table = undefined;
        const path = this.headings.path();
        this.blocks.push(...tableToBlocks(t.rows, { base: { ...this.base, ...(path.length > 0 ? { heading_path: path } : {}) } }));
      } else if (t.depth === 1 && (name === 'table:table-cell' || name === 'table:covered-table-cell') && t.row) {
        t.row.push(t.cell ?? '');
        t.cell = undefined;
      } else if (t.depth === 1 && name === 'table:table-row' && t.row) {
        t.rows.push(t.row);
        t.row = undefined;
      }
      return;
    }
    if (name === 'text:list') {
      this.listDepth = Math.max(0, this.listDepth - 1);
      if (this.listDepth === 0) this.flushList();
      return;
    }
    if ((name === 'text:p' || name === 'text:h') && this.paraDepth > 0 && --this.paraDepth === 0) {
      const text = this.buf;
      this.buf = '';
      if (this.listDepth > 0) {
        if (text.trim()) this.listBuf.push(`${'  '.repeat(this.listDepth - 1)}- ${text}`);
      } else if (name === 'text:h' && this.heading !== undefined) {
        const clean = text.replace(/\s+/g, ' ').trim();
        if (clean)
          this.blocks.push({
            ...this.base,
            kind: 'heading',
            level: this.heading,
            text: clean,
            heading_path: this.headings.enter(this.heading, clean),
          });
        this.heading = undefined;
      } else this.push('paragraph', text);
    }
  }

  text(data: string): void {
    if (this.skip > 0) return;
    this.append(data);
  }

  private append(s: string): void {
    const t = this.table;
    if (t) {
      if (t.cell !== undefined) t.cell += s;
      return;
    }
    if (this.paraDepth > 0) this.buf += s;
  }

  private push(kind: BlockDraft['kind'], text: string): void {
    if (!text.trim()) return;
    const path = this.headings.path();
    this.blocks.push({ ...this.base, kind, text, ...(path.length > 0 ? { heading_path: path } : {}) });
  }

  private flushList(): void {
    if (this.listBuf.length > 0) this.push('list', this.listBuf.join('\n'));
    this.listBuf = [];
  }

  finish(): BlockDraft[] {
    this.flushList();
    return this.blocks;
  }
}
