import type Mammoth from 'mammoth';
import { RagError } from '../../shared/errors.js';
import { assembleDocument } from './assemble.js';
import { readDocxProperties } from './docx-properties.js';
import { htmlToBlocks } from './html-blocks.js';
import { parseFailed } from './parse-errors.js';
import { SafeZip } from './zip/safe-zip.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/** Word's Title style is the document title and the top of the heading path; images are dropped, not inlined. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => p:fresh"];

/** mammoth, loaded with the first .docx (~60 ms of a parse worker's start otherwise, for every worker). */
let loaded: Promise<{ mammoth: typeof Mammoth; noImages: ReturnType<typeof Mammoth.images.imgElement> }> | undefined;
function loadMammoth() {
  loaded ??= import('mammoth').then((m) => {
    const mammoth = (m as { default?: typeof Mammoth }).default ?? (m as unknown as typeof Mammoth);
    return { mammoth, noImages: mammoth.images.imgElement(async () => ({ src: '' })) };
  });
  return loaded;
}

/** mammoth's notes about styles it does not map are noise for text extraction; everything else is kept. */
function usefulWarnings(messages: { type: string; message: string }[]): string[] {
  const out = new Set<string>();
  for (const m of messages) {
    if (/^Unrecognised (paragraph|run|table|numbering) style/i.test(m.message)) continue;
    out.add(`docx_${m.type}: ${m.message}`);
    if (out.size >= 5) break;
  }
  return [...out];
}

export const docxParser: Parser = {
  name: 'docx',
  extensions: ['docx'],
  mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  description:
    'Word .docx via mammoth: Heading 1–6 (and Title) give the heading path; lists and tables kept as text; title and author from the document properties.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    // mammoth unzips with JSZip, which has no limits: the archive is checked first, and every XML part mammoth
    // reads is inflated once here within the limits, so JSZip never meets a part bigger than what was verified.
    let zip: SafeZip;
    try {
      zip = SafeZip.open(input.data, input.filename);
    } catch (err) {
      if (err instanceof RagError && err.code === 'parse_failed') {
        throw parseFailed(input.filename, 'invalid_docx', 'the file is not a readable .docx (damaged or another format)', err);
      }
      throw err;
    }
    if (!zip.has('word/document.xml')) {
      throw parseFailed(input.filename, 'invalid_docx', 'the file is not a readable .docx (no word/document.xml)');
    }
    for (const name of zip.names()) if (/\.(xml|rels)$/i.test(name)) zip.read(name);
    let result;
    try {
      const buffer = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
      const { mammoth, noImages } = await loadMammoth();
      result = await mammoth.convertToHtml({ buffer }, { styleMap: STYLE_MAP, convertImage: noImages });
    } catch (err) {
      throw parseFailed(input.filename, 'invalid_docx', 'the file is not a readable .docx (damaged or another format)', err);
    }
    const { blocks, title: firstHeading } = htmlToBlocks(result.value);
    const props = readDocxProperties(zip);
    return assembleDocument({
      parser: 'docx',
      blocks,
      title: props.title ?? firstHeading,
      metadata: props.metadata,
      warnings: usefulWarnings(result.messages),
    });
  },
};
