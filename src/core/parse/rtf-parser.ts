import iconv from 'iconv-lite';
import { assembleDocument, type BlockDraft } from './assemble.js';
import { parseFailed } from './parse-errors.js';
import { tableToBlocks } from './table-markdown.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/**
 * RTF → text blocks with a linear tokenizer (no library: the RTF readers on npm are unmaintained or need a DOM).
 * Groups are a stack (no recursion, so 600k nested braces are just memory); destinations that hold no body text
 * (font and colour tables, styles, pictures, objects, headers, field instructions…) are skipped; `\'hh` bytes are
 * decoded in the code page of the current font's charset or the document's `\ansicpg` (CP1251, GBK…); `\uN` is
 * Unicode with its fallback characters skipped; `\par` ends a paragraph, `\cell`/`\row` build Markdown tables; the
 * `\info` group's `\title` and `\author` become the title and metadata.
 */

const SKIP_DESTINATIONS = new Set(
  (
    'fonttbl colortbl stylesheet listtable listoverridetable rsidtbl generator pict object header headerl headerr headerf ' +
    'footer footerl footerr footerf fldinst themedata colorschememapping datastore latentstyles xmlnstbl mmathPr ' +
    'bkmkstart bkmkend filetbl revtbl pgdsctbl operator company manager category keywords comment doccomm subject ' +
    'creatim revtim printim buptim nonshppict blipuid shppict'
  ).split(/\s+/),
);

const CHARSET_CODEPAGE: Record<number, number> = {
  204: 1251,
  134: 936,
  136: 950,
  128: 932,
  129: 949,
  161: 1253,
  162: 1254,
  177: 1255,
  178: 1256,
  186: 1257,
  238: 1250,
  222: 874,
};

interface GroupState {
  skip: boolean;
  uc: number;
  codepage: number | undefined;
  /** Inside \info: which field the text belongs to. */
  infoField: 'title' | 'author' | undefined;
  inFontTable: boolean;
}

export const rtfParser: Parser = {
  name: 'rtf',
  extensions: ['rtf'],
  mimeTypes: ['application/rtf', 'text/rtf'],
  description:
    'Rich Text Format: paragraphs and tables (as Markdown), any code page (CP1251, GBK…) and Unicode; title and author from \\info.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const src = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength).toString('latin1');
    if (!/^\s*\{\\rtf/.test(src.slice(0, 64))) throw parseFailed(input.filename, 'corrupt', 'the file is not RTF (no {\\rtf header)');
    let ansiCodepage = 1252;
    const fontCharset = new Map<number, number>();
    let fontDef: number | undefined;
    let state: GroupState = { skip: false, uc: 1, codepage: undefined, infoField: undefined, inFontTable: false };
    const stack: GroupState[] = [];
    const blocks: BlockDraft[] = [];
    const info = { title: '', author: '' };
    let para = '';
    let bytes: number[] = [];
    let skipChars = 0;
    let inTable = false;
    let cells: string[] = [];
    let rows: string[][] = [];

    const flushBytes = (): void => {
      if (bytes.length === 0) return;
      const cp = state.codepage ?? ansiCodepage;
      const enc = iconv.encodingExists(`cp${cp}`) ? `cp${cp}` : 'cp1252';
      emit(iconv.decode(Buffer.from(bytes), enc));
      bytes = [];
    };
    const emit = (s: string): void => {
      if (state.skip) return;
      if (state.infoField) info[state.infoField] += s;
      else para += s;
    };
    const flushTable = (): void => {
      if (rows.length > 0) blocks.push(...tableToBlocks(rows));
      rows = [];
      cells = [];
    };
    const endParagraph = (): void => {
      if (inTable) {
        para += ' ';
        return;
      }
      flushTable();
      if (para.trim()) blocks.push({ kind: 'paragraph', text: para });
      para = '';
    };

    let i = src.indexOf('{');
    const n = src.length;
    while (i < n) {
      const ch = src[i]!;
      if (ch === '{') {
        flushBytes();
        stack.push(state);
        state = { ...state, infoField: undefined };
        i++;
        continue;
      }
      if (ch === '}') {
        flushBytes();
        state = stack.pop() ?? state;
        i++;
        continue;
      }
      if (ch === '\r' || ch === '\n') {
        i++;
        continue;
      }
      if (ch !== '\\') {
        flushBytes();
        if (skipChars > 0) skipChars--;
        else emit(ch);
        i++;
        continue;
      }
      // A control word or symbol.
      const next = src[i + 1];
      if (next === undefined) break;
      if (next === "'") {
        const hex = Number.parseInt(src.slice(i + 2, i + 4), 16);
        i += 4;
        if (skipChars > 0) skipChars--;
        else if (!Number.isNaN(hex)) bytes.push(hex);
        continue;
      }
      flushBytes();
      if (!/[a-zA-Z]/.test(next)) {
        i += 2;
        if (next === '*') state.skip = true;
        else if (next === '~') emit('\u00a0');
        else if (next === '_') emit('-');
        else if (next === '\\' || next === '{' || next === '}') emit(next);
        else if (next === '\n' || next === '\r') endParagraph();
        continue;
      }
      let j = i + 1;
      while (j < n && j - i < 34 && /[a-zA-Z]/.test(src[j]!)) j++;
      const word = src.slice(i + 1, j);
      let k = j;
      if (src[k] === '-') k++;
      while (k < n && k - j < 11 && src[k]! >= '0' && src[k]! <= '9') k++;
      const param = k > j ? Number.parseInt(src.slice(j, k), 10) : undefined;
      if (src[k] === ' ') k++;
      i = k;
      if (word === 'bin' && param !== undefined) {
        i += Math.max(0, param);
        continue;
      }
      if (SKIP_DESTINATIONS.has(word)) {
        state.skip = true;
        if (word === 'fonttbl') {
          state.inFontTable = true;
          state.skip = true;
        }
        continue;
      }
      if (state.inFontTable) {
        if (word === 'f' && param !== undefined) fontDef = param;
        else if (word === 'fcharset' && param !== undefined && fontDef !== undefined) fontCharset.set(fontDef, param);
        continue;
      }
      if (state.skip) continue;
      switch (word) {
        case 'ansicpg':
          if (param) ansiCodepage = param;
          break;
        case 'f': {
          const cs = param === undefined ? undefined : fontCharset.get(param);
          state.codepage = cs === undefined || cs === 0 || cs === 1 ? undefined : CHARSET_CODEPAGE[cs];
          break;
        }
        case 'uc':
          state.uc = param ?? 1;
          break;
        case 'u':
          if (param !== undefined) emit(String.fromCharCode(param < 0 ? param + 65536 : param));
          skipChars = state.uc;
          break;
        case 'title':
        case 'author':
          state.infoField = word;
          break;
        case 'par':
        case 'sect':
        case 'page':
          endParagraph();
          break;
        case 'line':
          emit('\n');
          break;
        case 'tab':
          emit('\t');
          break;
        case 'emdash':
          emit('—');
          break;
        case 'endash':
          emit('–');
          break;
        case 'lquote':
          emit('‘');
          break;
        case 'rquote':
          emit('’');
          break;
        case 'ldblquote':
          emit('“');
          break;
        case 'rdblquote':
          emit('”');
          break;
        case 'bullet':
          emit('•');
          break;
        case 'pard':
          inTable = false;
          break;
        case 'intbl':
          if (!inTable && para.trim()) endParagraph();
          inTable = true;
          break;
        case 'cell':
          cells.push(para);
          para = '';
          break;
        case 'row':
          rows.push(cells);
          cells = [];
          para = '';
          inTable = false;
          break;
      }
    }
    flushBytes();
    endParagraph();
    flushTable();
    const metadata: Record<string, string> = info.author.trim() ? { author: info.author.trim() } : {};
    return assembleDocument({ parser: 'rtf', blocks, title: info.title.trim() || undefined, metadata });
  },
};
