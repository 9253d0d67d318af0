import type { Metadata } from '../../../shared/contract/index.js';
import { assembleDocument, type BlockDraft } from '../assemble.js';
import { markdownOrPlain } from '../markdown-parser.js';
import { parseFrontMatter } from '../markdown-support.js';
import { packParsed, unpackParsed, type PackedDocument } from '../registry.js';
import type { ParsedDocument } from '../types.js';
import { splitParagraphs, titleLine } from '../text-parser.js';

/** What parsing one section needs: its source, where it starts, whether it is the file's first. */
export interface SectionTask {
  format: 'markdown' | 'text';
  source: string;
  firstLine: number;
  first: boolean;
}

/**
 * A section parsed on its own: its document (heading paths only from the headings inside it) and what the file's
 * first section tells. `D`: the document as parsed, or packed to cross to another thread (`packSection`).
 */
export interface SectionBlocks<D = ParsedDocument> {
  doc: D;
  /** Front matter (first section of a Markdown file). */
  frontMatter?: Metadata;
  /** The first level-1 heading, or a plain-text title line (first section only). */
  title?: string;
  warnings: string[];
}

/**
 * Parse one section as the whole-file parsers would (blocks, normalised text, line numbers from the file's start):
 * in the caller's thread, or as the `section` task of the parse pool (packed), so a million characters of Markdown
 * are lexed off the main thread.
 */
export function parseSection(task: SectionTask): SectionBlocks {
  let blocks: BlockDraft[];
  let frontMatter: Metadata | undefined;
  let title: string | undefined;
  let warnings: string[] = [];
  if (task.format === 'markdown') {
    let body = task.source;
    let firstLine = task.firstLine;
    if (task.first) {
      const fm = parseFrontMatter(body);
      body = fm.body;
      firstLine = task.firstLine + fm.bodyFirstLine - 1;
      frontMatter = fm.metadata;
      if (typeof fm.metadata.title === 'string') title = fm.metadata.title;
    }
    const md = markdownOrPlain(body, firstLine);
    warnings = md.warnings;
    if (task.first) title ??= md.firstH1;
    blocks = md.blocks;
  } else {
    blocks = splitParagraphs(task.source, task.firstLine);
    if (task.first) title = titleLine(blocks[0]?.text);
  }
  const doc = assembleDocument({ parser: task.format, blocks });
  return { doc, ...(frontMatter ? { frontMatter } : {}), ...(title !== undefined ? { title } : {}), warnings };
}

/** A parsed section as the pool's worker hands it back (block texts dropped: they repeat the text). */
export function packSection(s: SectionBlocks): SectionBlocks<PackedDocument> {
  return { ...s, doc: packParsed(s.doc) };
}

export function unpackSection(s: SectionBlocks<PackedDocument>): SectionBlocks {
  return { ...s, doc: unpackParsed(s.doc) };
}
