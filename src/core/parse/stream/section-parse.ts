import type { Metadata } from '../../../shared/contract/index.js';
import { HeadingTracker } from '../assemble.js';
import type { ParsePool } from '../pool/parse-pool.js';
import { encodingMetadata } from '../text-parser.js';
import type { ParsedDocument } from '../types.js';
import type { PackedDocument } from '../registry.js';
import { parseSection, unpackSection, type SectionBlocks, type SectionTask } from './section-task.js';
import type { TextSection } from './text-sections.js';

/**
 * Parses the sections of one streamed text or Markdown file (text-sections.ts) as the whole-file parsers would:
 * the same blocks, line numbers counted from the file's start, heading paths carried from one section into the
 * next, front matter and title taken from the first section. Each section becomes a ParsedDocument of its own
 * (character ranges relative to it); the caller places it in the document.
 *
 * Sections are parsed in this thread unless a pool is given (the `section` task). Measured on a 60 MB Markdown
 * file: in the parse pool, lexing left the main thread (130-1,150 ms a section), but the pool worker's heap grew
 * towards its 320 MB limit with each section's garbage, and the add peaked at 1,045-1,090 MB instead of 720 MB; flat
 * memory is what streaming is for, so this thread parses by default.
 */
export class SectionParser {
  private readonly headings = new HeadingTracker();
  private first = true;
  /** Settles once the section parsed last has been placed (heading paths, title). */
  private placed: Promise<void> = Promise.resolve();
  /** The document's title (front matter, first H1, or a title-like first line), known after the first section. */
  title: string | undefined;
  /** Front matter and encoding facts, known after the first section. */
  metadata: Metadata = {};
  readonly warnings = new Set<string>();

  constructor(
    readonly format: 'markdown' | 'text',
    private readonly encoding: { encoding: string; confidence: number },
    private readonly pool?: ParsePool,
  ) {}

  /**
   * Parse the next section. Calls may overlap (the next section parses in the pool while the caller writes this
   * one): each is placed in the file after the one called before it, whatever order the pool finishes them in.
   */
  async parse(section: TextSection, signal?: AbortSignal): Promise<ParsedDocument> {
    const first = this.first;
    this.first = false;
    const before = this.placed;
    let done!: () => void;
    this.placed = new Promise<void>((resolve) => (done = resolve));
    try {
      const task: SectionTask = { format: this.format, source: section.source, firstLine: section.firstLine, first };
      // In this thread the document is used as parsed; only one from the pool was packed to cross over.
      const got = this.pool
        ? unpackSection(
            await this.pool.run<SectionBlocks<PackedDocument>>('section', task, {
              bytes: section.source.length,
              ...(signal ? { signal } : {}),
            }),
          )
        : parseSection(task);
      await before;
      for (const w of got.warnings) this.warnings.add(w);
      if (first) {
        this.metadata = { ...(got.frontMatter ?? {}), ...encodingMetadata(this.encoding) };
        this.title = got.title;
      }
      const doc = got.doc;
      doc.metadata = this.metadata;
      if (this.format === 'markdown') for (const b of doc.blocks) this.place(b);
      return doc;
    } finally {
      done();
    }
  }

  /** A block's heading path in the whole file (the section's own parse only knows the headings inside it). */
  private place(b: ParsedDocument['blocks'][number]): void {
    const path = b.kind === 'heading' && b.level ? this.headings.enter(b.level, b.text) : this.headings.path();
    if (path.length) b.heading_path = path;
    else delete b.heading_path;
  }
}
