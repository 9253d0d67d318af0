import type { Metadata } from '../../../shared/contract/index.js';
import { assembleDocument, HeadingTracker, type BlockDraft } from '../assemble.js';
import { markdownOrPlain } from '../markdown-parser.js';
import { parseFrontMatter } from '../markdown-support.js';
import { encodingMetadata, splitParagraphs, titleLine } from '../text-parser.js';
import type { ParsedDocument } from '../types.js';
import type { TextSection } from './text-sections.js';

/**
 * Parses the sections of one streamed text or Markdown file (text-sections.ts) as the whole-file parsers would:
 * the same blocks, line numbers counted from the file's start, heading paths carried from one section into the
 * next, front matter and title taken from the first section. Each section becomes a ParsedDocument of its own
 * (character ranges relative to it); the caller places it in the document.
 */
export class SectionParser {
  private readonly headings = new HeadingTracker();
  private first = true;
  /** The document's title (front matter, first H1, or a title-like first line), known after the first section. */
  title: string | undefined;
  /** Front matter and encoding facts, known after the first section. */
  metadata: Metadata = {};
  readonly warnings = new Set<string>();

  constructor(
    readonly format: 'markdown' | 'text',
    private readonly encoding: { encoding: string; confidence: number },
  ) {}

  parse(section: TextSection): ParsedDocument {
    const first = this.first;
    this.first = false;
    let blocks: BlockDraft[];
    if (this.format === 'markdown') {
      let body = section.source;
      let firstLine = section.firstLine;
      if (first) {
        const fm = parseFrontMatter(body);
        body = fm.body;
        firstLine = section.firstLine + fm.bodyFirstLine - 1;
        this.metadata = { ...fm.metadata, ...encodingMetadata(this.encoding) };
        if (typeof fm.metadata.title === 'string') this.title = fm.metadata.title;
      }
      const md = markdownOrPlain(body, firstLine);
      for (const w of md.warnings) this.warnings.add(w);
      if (first) this.title ??= md.firstH1;
      blocks = md.blocks.map((b) => this.placed(b));
    } else {
      blocks = splitParagraphs(section.source, section.firstLine);
      if (first) {
        this.metadata = encodingMetadata(this.encoding);
        this.title = titleLine(blocks[0]?.text);
      }
    }
    return assembleDocument({ parser: this.format, blocks, metadata: this.metadata });
  }

  /** A block's heading path in the whole file (the section's own parse only knows the headings inside it). */
  private placed(b: BlockDraft): BlockDraft {
    const path = b.kind === 'heading' && b.level ? this.headings.enter(b.level, b.text) : this.headings.path();
    const { heading_path: _local, ...rest } = b;
    return path.length ? { ...rest, heading_path: path } : rest;
  }
}
