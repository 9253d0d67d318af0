import { assembleDocument, type BlockDraft } from './assemble.js';
import { OdfBlockWalker } from './office/odf-text.js';
import { assertOdfNotEncrypted, coreProperties, openPackage } from './office/package.js';
import { walkXml } from './office/xml.js';
import { slideBlocks } from './office/slides.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

export const odpParser: Parser = {
  name: 'odp',
  extensions: ['odp'],
  mimeTypes: ['application/vnd.oasis.opendocument.presentation'],
  description: 'OpenDocument presentations (.odp): one slide per page number, its title as the heading, speaker notes included.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const zip = openPackage(input.data, input.filename, 'OpenDocument presentation (.odp)', 'content.xml');
    assertOdfNotEncrypted(zip, input.filename);
    const blocks: BlockDraft[] = [];
    let slide = 0;
    let walker: OdfBlockWalker | undefined;
    let notes: OdfBlockWalker | undefined;
    let inNotes = 0;
    let titleFrame = 0; // depth of the open title frame, 0 outside it
    let title = '';
    let depth = 0;
    const target = (): OdfBlockWalker | undefined => (inNotes > 0 ? notes : walker);
    walkXml(zip.text('content.xml') ?? '', {
      open: (n, a) => {
        depth++;
        if (n === 'draw:page') {
          slide++;
          walker = new OdfBlockWalker();
          notes = new OdfBlockWalker();
          title = '';
        } else if (!walker || titleFrame) return;
        else if (n === 'presentation:notes') inNotes++;
        else if (n === 'draw:frame' && inNotes === 0 && a['presentation:class'] === 'title' && !title) titleFrame = depth;
        else target()?.open(n, a);
      },
      close: (n) => {
        if (walker) {
          if (n === 'draw:page') {
            blocks.push(...slideBlocks(slide, title, walker.finish(), notes?.finish() ?? []));
            walker = undefined;
          } else if (titleFrame) {
            if (depth === titleFrame) titleFrame = 0;
            else if (n === 'text:p') title += ' ';
          } else if (n === 'presentation:notes') inNotes--;
          else target()?.close(n);
        }
        depth--;
      },
      text: (d) => {
        if (titleFrame) title += d;
        else target()?.text(d);
      },
    });
    const props = coreProperties(zip.text('meta.xml'));
    return assembleDocument({ parser: 'odp', blocks, title: props.title, metadata: { ...props.metadata, slide_count: slide } });
  },
};
