import { Parser as HtmlTokenizer } from 'htmlparser2';
import { HeadingTracker, type BlockDraft } from './assemble.js';

/**
 * HTML → text blocks, shared by the HTML parser and the DOCX parser (mammoth produces HTML).
 * - script, style, noscript, template and embedded objects are skipped entirely; tags and attributes never
 *   become text (an `<img onerror=...>` contributes nothing); entities are decoded.
 * - h1–h6 become heading blocks and set the heading path of everything after them.
 * - block elements (p, div, section, li, td...) end a paragraph; a whole list becomes one `list` block with
 *   one line per item, a whole table one `table` block with one line per row, `pre` a `code` block.
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

class HtmlBlockBuilder {
  readonly blocks: BlockDraft[] = [];
  readonly headings = new HeadingTracker();
  title: string | undefined;
  firstH1: string | undefined;

  private buf = '';
  private skipDepth = 0;
  private inTitle = false;
  private titleBuf = '';
  private heading: number | undefined;
  private listDepth = 0;
  private listCounters: (number | undefined)[] = [];
  private tableDepth = 0;
  private cellInRow = 0;
  private preDepth = 0;

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
    const h = HEADING.exec(name);
    if (h && this.listDepth === 0 && this.tableDepth === 0 && this.preDepth === 0) {
      this.flush();
      this.heading = Number(h[1]);
      return;
    }
    if (name === 'br') {
      this.buf += '\n';
      return;
    }
    if (name === 'ul' || name === 'ol') {
      if (this.listDepth === 0 && this.tableDepth === 0) this.flush();
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
      this.buf += `\n${bullet} `;
      return;
    }
    if (name === 'table') {
      if (this.tableDepth === 0 && this.listDepth === 0) this.flush();
      this.tableDepth++;
      return;
    }
    if (name === 'tr') {
      this.buf += '\n';
      this.cellInRow = 0;
      return;
    }
    if (name === 'td' || name === 'th') {
      if (this.cellInRow++ > 0) this.buf += ' | ';
      return;
    }
    if (name === 'pre') {
      if (this.preDepth === 0 && this.listDepth === 0 && this.tableDepth === 0) this.flush();
      this.preDepth++;
      return;
    }
    if (BLOCKS.has(name)) this.blockBoundary();
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
    const h = HEADING.exec(name);
    if (h && this.heading !== undefined) {
      const text = this.buf.replace(/\s+/g, ' ').trim();
      this.buf = '';
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
      if (this.listDepth === 0 && this.tableDepth === 0) this.flush('list');
      return;
    }
    if (name === 'table') {
      this.tableDepth = Math.max(0, this.tableDepth - 1);
      if (this.tableDepth === 0 && this.listDepth === 0) this.flush('table');
      return;
    }
    if (name === 'pre') {
      this.preDepth = Math.max(0, this.preDepth - 1);
      if (this.preDepth === 0 && this.listDepth === 0 && this.tableDepth === 0) this.flush('code');
      return;
    }
    if (BLOCKS.has(name)) this.blockBoundary();
  }

  text(data: string): void {
    if (this.inTitle) {
      this.titleBuf += data;
      return;
    }
    if (this.skipDepth > 0) return;
    this.buf += this.preDepth > 0 ? data : data.replace(/\s+/g, ' ');
  }

  /** A block element starts or ends: a new paragraph, or a space inside lists, tables and headings. */
  private blockBoundary(): void {
    if (this.listDepth > 0 || this.tableDepth > 0 || this.heading !== undefined) {
      if (!/\s$/.test(this.buf)) this.buf += ' ';
    } else if (this.preDepth > 0) this.buf += '\n';
    else this.flush();
  }

  flush(kind: BlockDraft['kind'] = 'paragraph'): void {
    const text = this.buf;
    this.buf = '';
    if (!text.trim()) return;
    const path = this.headings.path();
    this.blocks.push({ kind, text, ...(path.length > 0 ? { heading_path: path } : {}) });
  }
}

export function htmlToBlocks(html: string): HtmlExtract {
  const b = new HtmlBlockBuilder();
  const parser = new HtmlTokenizer(
    {
      onopentag: (name, attribs) => b.open(name, attribs),
      onclosetag: (name) => b.close(name),
      ontext: (data) => b.text(data),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  b.flush();
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
