import mammoth from 'mammoth';
import { assembleDocument } from './assemble.js';
import { readDocxProperties } from './docx-properties.js';
import { htmlToBlocks } from './html-blocks.js';
import { parseFailed } from './parse-errors.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/** Word's Title style is the document title and the top of the heading path; images are dropped, not inlined. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => p:fresh"];
const noImages = mammoth.images.imgElement(async () => ({ src: '' }));

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
    let result;
    try {
      const buffer = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
      result = await mammoth.convertToHtml({ buffer }, { styleMap: STYLE_MAP, convertImage: noImages });
    } catch (err) {
      throw parseFailed(input.filename, 'invalid_docx', 'the file is not a readable .docx (damaged or another format)', err);
    }
    const { blocks, title: firstHeading } = htmlToBlocks(result.value);
    const props = readDocxProperties(input.data);
    return assembleDocument({
      parser: 'docx',
      blocks,
      title: props.title ?? firstHeading,
      metadata: props.metadata,
      warnings: usefulWarnings(result.messages),
    });
  },
};
