import { Lexer, type Token, type Tokens } from 'marked';
import type { Metadata } from '../../shared/contract/index.js';
import { decodeText } from '../text/encoding.js';
import { assembleDocument, HeadingTracker, type BlockDraft } from './assemble.js';
import { decodeEntities, htmlFragmentText } from './html-blocks.js';
import { parseFrontMatter } from './markdown-support.js';
import { encodingMetadata, splitParagraphs } from './text-parser.js';
import { markdownCell, tableToBlocks } from './table-markdown.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

const RAW_TEXT_TAG = /^<(script|style|noscript|template|textarea|title)\b/i;
const RAW_TEXT_CLOSE = /^<\/(script|style|noscript|template|textarea|title)\s*>/i;

/**
 * Plain text of inline tokens: emphasis and links reduce to their text, images to their alt text, code spans
 * stay literal, entities are decoded, inline HTML tags vanish and the content of inline <script>/<style>
 * is dropped.
 */
function inlineText(tokens: Token[] | undefined, fallback: string): string {
  if (!tokens) return decodeEntities(fallback);
  let out = '';
  let skipping: string | undefined;
  for (const t of tokens) {
    if (t.type === 'html') {
      const raw = (t as Tokens.HTML).text.trim();
      if (skipping) {
        if (RAW_TEXT_CLOSE.exec(raw)?.[1]?.toLowerCase() === skipping) skipping = undefined;
        continue;
      }
      const open = RAW_TEXT_TAG.exec(raw);
      if (open && !/<\/\w+\s*>$/.test(raw)) skipping = open[1]!.toLowerCase();
      else if (/^<br\s*\/?>$/i.test(raw)) out += '\n';
      else if (!open) out += htmlFragmentText(raw);
      continue;
    }
    if (skipping) continue;
    switch (t.type) {
      case 'codespan':
        out += decodeEntities((t as Tokens.Codespan).text);
        break;
      case 'br':
        out += '\n';
        break;
      case 'image':
        out += decodeEntities((t as Tokens.Image).text);
        break;
      case 'escape':
        out += (t as Tokens.Escape).text;
        break;
      default: {
        const nested = (t as { tokens?: Token[] }).tokens;
        const text = (t as { text?: string }).text ?? '';
        out += nested ? inlineText(nested, text) : decodeEntities(text);
      }
    }
  }
  return out;
}

/** Plain text of any block token (lists, blockquotes...), recursively. */
function blockText(t: Token): string {
  switch (t.type) {
    case 'list':
      return listText(t as Tokens.List);
    case 'code':
      return (t as Tokens.Code).text;
    case 'html':
      return htmlFragmentText((t as Tokens.HTML).text);
    case 'table':
      return tableText(t as Tokens.Table);
    case 'space':
    case 'hr':
    case 'def':
      return '';
    case 'blockquote':
      return (t as Tokens.Blockquote).tokens.map(blockText).filter(Boolean).join('\n');
    default: {
      const tt = t as { tokens?: Token[]; text?: string };
      return inlineText(tt.tokens, tt.text ?? '');
    }
  }
}

function listText(list: Tokens.List): string {
  const start = typeof list.start === 'number' ? list.start : 1;
  return list.items
    .map((item, i) => {
      const bullet = list.ordered ? `${start + i}.` : '-';
      const check = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
      return `${bullet} ${check}${item.tokens.map(blockText).filter(Boolean).join('\n')}`;
    })
    .join('\n');
}

function tableRows(table: Tokens.Table): string[][] {
  const row = (cells: Tokens.TableCell[]): string[] => cells.map((c) => inlineText(c.tokens, c.text));
  return [row(table.header), ...table.rows.map(row)];
}

/** A table inside a list or blockquote: one line per row. */
function tableText(table: Tokens.Table): string {
  return tableRows(table)
    .map((r) => r.map(markdownCell).join(' | '))
    .join('\n');
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Warning when some inline Markdown was kept as literal text because marked would take too long on it. */
export const WARNING_INLINE_LITERAL = 'markdown_inline_literal';
/** Warning when the Markdown could not be lexed at all (nesting too deep) and was read as plain text. */
export const WARNING_PLAIN_TEXT_FALLBACK = 'markdown_read_as_plain_text';

/**
 * marked's inline lexer is quadratic in the delimiters of one inline run (100 KB of `*a` takes 5 s, of `_a`
 * 22 s): every opener scans ahead for its closer. Past this many delimiter characters in one paragraph, heading or
 * table cell, the run is kept as literal text (emphasis marks stay visible, nothing is lost), which keeps the
 * cost per run bounded (≈1 ms) and the whole parse linear. Real prose stays far below it.
 */
export const MAX_INLINE_DELIMITERS = 512;
const DELIMITER = /[*_`~[\]()<>!\\]/g;

function delimiterCount(src: string): number {
  if (src.length <= MAX_INLINE_DELIMITERS) return 0;
  let n = 0;
  DELIMITER.lastIndex = 0;
  while (DELIMITER.exec(src) !== null) if (++n > MAX_INLINE_DELIMITERS) break;
  return n;
}

/**
 * What may start inline Markdown in marked's inline lexer (GFM): escapes, HTML and autolinks, images, links, code,
 * emphasis, strikethrough, entities, extended autolinks (URLs, www., e-mail addresses) and hard breaks. marked's
 * text rule runs to the end of a run that has none of these, so the run is one text token: most runs of prose (89 %
 * of the bench folder's, 84 % of its characters) are taken as that token without running the inline lexer, whose
 * rules were ~0.5 s of the parse worker over the folder's 20 MB. A test holds this to marked's own tokens.
 */
export const INLINE_SYNTAX = /[\\<![\]`*_~&@]|:\/\/|www\.| {2,}\n/i;

/** marked's `lex`, with inline runs over the delimiter budget kept literal; `literal` counts those runs. */
function lexBounded(source: string): { tokens: Token[]; literal: number } {
  const lexer = new Lexer({ gfm: true });
  const tokens = lexer.blockTokens(source.replace(/\r\n?/g, '\n'), lexer.tokens);
  let literal = 0;
  for (const item of lexer.inlineQueue) {
    if (!INLINE_SYNTAX.test(item.src)) {
      item.tokens.push({ type: 'text', raw: item.src, text: item.src, escaped: false } as Tokens.Text);
    } else if (delimiterCount(item.src) > MAX_INLINE_DELIMITERS) {
      literal++;
      item.tokens.push({ type: 'text', raw: item.src, text: item.src, escaped: true } as Tokens.Text);
    } else lexer.inlineTokens(item.src, item.tokens);
  }
  lexer.inlineQueue = [];
  return { tokens, literal };
}

/** Markdown source → blocks with heading paths and 1-based line ranges. */
export function markdownToBlocks(source: string, firstLine = 1): { blocks: BlockDraft[]; firstH1?: string; warnings: string[] } {
  const { tokens, literal } = lexBounded(source);
  const warnings = literal > 0 ? [`${WARNING_INLINE_LITERAL}: ${literal}`] : [];
  const headings = new HeadingTracker();
  const blocks: BlockDraft[] = [];
  let firstH1: string | undefined;
  let line = firstLine;
  for (const t of tokens) {
    const raw = t.raw;
    const leading = countNewlines(raw.slice(0, raw.length - raw.trimStart().length));
    const lineStart = line + leading;
    const lineEnd = lineStart + countNewlines(raw.trim());
    line += countNewlines(raw);
    if (t.type === 'space' || t.type === 'hr' || t.type === 'def') continue;
    if (t.type === 'heading') {
      const h = t as Tokens.Heading;
      const text = inlineText(h.tokens, h.text).replace(/\s+/g, ' ').trim();
      if (!text) continue;
      const path = headings.enter(h.depth, text);
      if (h.depth === 1 && firstH1 === undefined) firstH1 = text;
      blocks.push({ kind: 'heading', level: h.depth, text, heading_path: path, line_start: lineStart, line_end: lineEnd });
      continue;
    }
    if (t.type === 'table') {
      // Header on the first line, the separator row on the second, then one row per line.
      const rows = tableRows(t as Tokens.Table);
      const rowNumbers = rows.map((_, i) => (i === 0 ? lineStart : lineStart + i + 1));
      blocks.push(...tableToBlocks(rows, { base: { heading_path: headings.path() }, rowNumbers }));
      continue;
    }
    const kind: BlockDraft['kind'] = t.type === 'list' ? 'list' : t.type === 'code' ? 'code' : 'paragraph';
    blocks.push({ kind, text: blockText(t), heading_path: headings.path(), line_start: lineStart, line_end: lineEnd });
  }
  return firstH1 === undefined ? { blocks, warnings } : { blocks, firstH1, warnings };
}

/** Lexing that cannot finish (nesting deeper than the stack) falls back to plain paragraphs with line ranges. */
export function markdownOrPlain(source: string, firstLine: number): { blocks: BlockDraft[]; firstH1?: string; warnings: string[] } {
  try {
    return markdownToBlocks(source, firstLine);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return { blocks: splitParagraphs(source, firstLine), warnings: [WARNING_PLAIN_TEXT_FALLBACK] };
  }
}

export const markdownParser: Parser = {
  name: 'markdown',
  extensions: ['md', 'markdown', 'mdown', 'mkd', 'mdx'],
  mimeTypes: ['text/markdown', 'text/x-markdown'],
  description: 'Markdown (GFM): headings give every block its heading path; line ranges kept; YAML front matter becomes metadata.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const decoded = decodeText(input.data);
    const fm = parseFrontMatter(decoded.text);
    const { blocks, firstH1, warnings } = markdownOrPlain(fm.body, fm.bodyFirstLine);
    const metadata: Metadata = { ...fm.metadata, ...encodingMetadata(decoded) };
    const fmTitle = typeof fm.metadata.title === 'string' ? fm.metadata.title : undefined;
    return assembleDocument({ parser: 'markdown', blocks, title: fmTitle ?? firstH1, metadata, warnings });
  },
};
