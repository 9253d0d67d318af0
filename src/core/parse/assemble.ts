import type { Metadata } from '../../shared/contract/index.js';
import type { ParsedBlock, ParsedDocument } from './types.js';

/** A block as a parser produces it; `assembleDocument` normalises its text and assigns character ranges. */
export type BlockDraft = Omit<ParsedBlock, 'char_start' | 'char_end'>;

/** Blocks are joined by this separator in `ParsedDocument.text`. */
export const BLOCK_SEPARATOR = '\n\n';

/** Emitted when a document yields no text at all; the ingest layer decides what that means. */
export const WARNING_EMPTY_TEXT = 'empty_text';

// Spaces that are not a plain space (NBSP, en/em spaces, narrow NBSP, ideographic space...) become one.
const UNICODE_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
// Invisible characters that only break words apart: zero-width space/joiners, soft hyphen, word joiner, BOM.
const INVISIBLES = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
// C0/C1 control characters other than tab and newline.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Any of the three above (one pass to find that a block has none). */
// eslint-disable-next-line no-control-regex
const ODD = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u00ad\u200b-\u200d\u2060\ufeff\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** What the line pass changes: more than one line, a tab, a run of spaces, whitespace `trim` takes at either end. */
const LINE_WORK = /[\n\t]| {2}|^\s|\s$/;

/**
 * Text normalisation shared by every parser: NFC, line endings to `\n`, exotic spaces to plain spaces,
 * invisible and control characters removed; then, outside code, runs of spaces/tabs collapse to one space,
 * every line is trimmed and empty lines are dropped. Code keeps its indentation and single blank lines.
 */
export function normalizeBlockText(text: string, kind: ParsedBlock['kind'] = 'paragraph'): string {
  let t = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (/[^\x20-\x7e\n\t]/.test(t)) {
    t = t.normalize('NFC');
    if (ODD.test(t)) t = t.replace(UNICODE_SPACES, ' ').replace(INVISIBLES, '').replace(CONTROLS, '');
  }
  // Most blocks are one line with nothing to collapse or trim: what follows would give them back as they are.
  if (!LINE_WORK.test(t)) return t;
  if (kind === 'code') {
    const kept = t.split('\n').map((l) => l.replace(/[ \t]+$/, ''));
    return kept
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+|\n+$/g, '');
  }
  // Runs of spaces and tabs collapse in one pass over the block, and only in a block that has one (a regular
  // expression over every line was most of the parse worker's normalisation).
  const collapsed = t.includes('\t') || t.includes('  ') ? t.replace(/[ \t]+/g, ' ') : t;
  const out: string[] = [];
  for (const line of collapsed.split('\n')) {
    const clean = line.trim();
    if (clean) out.push(clean);
  }
  return kind === 'heading' ? out.join(' ') : out.join('\n');
}

export interface AssembleInput {
  parser: string;
  blocks: BlockDraft[];
  title?: string | undefined;
  metadata?: Metadata;
  warnings?: string[];
}

/**
 * Builds a `ParsedDocument` from block drafts: normalises each block, drops empty ones and optional empty
 * location fields, joins the text with `BLOCK_SEPARATOR` and records each block's `[char_start, char_end)`
 * range in that text. Every parser goes through here, so the invariant
 * `doc.text.slice(b.char_start, b.char_end) === b.text` holds for all of them.
 */
export function assembleDocument(input: AssembleInput): ParsedDocument {
  const blocks: ParsedBlock[] = [];
  const parts: string[] = [];
  let offset = 0;
  for (const draft of input.blocks) {
    const text = normalizeBlockText(draft.text, draft.kind);
    if (!text) continue;
    if (parts.length > 0) offset += BLOCK_SEPARATOR.length;
    const block: ParsedBlock = { text, char_start: offset, char_end: offset + text.length, kind: draft.kind };
    if (draft.level !== undefined) block.level = draft.level;
    if (draft.page !== undefined) block.page = draft.page;
    if (draft.heading_path && draft.heading_path.length > 0) block.heading_path = [...draft.heading_path];
    if (draft.line_start !== undefined) block.line_start = draft.line_start;
    if (draft.line_end !== undefined) block.line_end = draft.line_end;
    blocks.push(block);
    parts.push(text);
    offset += text.length;
  }
  const warnings = [...(input.warnings ?? [])];
  if (blocks.length === 0 && !warnings.includes(WARNING_EMPTY_TEXT)) warnings.push(WARNING_EMPTY_TEXT);
  const doc: ParsedDocument = {
    parser: input.parser,
    text: parts.join(BLOCK_SEPARATOR),
    blocks,
    metadata: { ...(input.metadata ?? {}) },
    warnings,
  };
  const title = input.title === undefined ? undefined : normalizeBlockText(input.title, 'heading');
  if (title) doc.title = title;
  return doc;
}

/** Tracks the heading path while walking a document: a level-n heading replaces levels n and deeper. */
export class HeadingTracker {
  private readonly stack: (string | undefined)[] = [];

  /** Enters a heading and returns the path that includes it. */
  enter(level: number, text: string): string[] {
    const depth = Math.min(Math.max(Math.trunc(level), 1), 6);
    this.stack.length = depth - 1;
    this.stack[depth - 1] = normalizeBlockText(text, 'heading');
    return this.path();
  }

  /** The current heading path, outermost first, without skipped levels. */
  path(): string[] {
    return this.stack.filter((h): h is string => typeof h === 'string' && h.length > 0);
  }
}
