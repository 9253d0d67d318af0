import { assembleDocument } from './assemble.js';
import { OdfBlockWalker } from './office/odf-text.js';
import { assertOdfNotEncrypted, coreProperties, openPackage } from './office/package.js';
import { walkXml } from './office/xml.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

export const odtParser: Parser = {
  name: 'odt',
  extensions: ['odt'],
  mimeTypes: ['application/vnd.oasis.opendocument.text'],
  description: 'OpenDocument text (.odt): headings by outline level give the heading path; lists, and tables as Markdown tables.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const zip = openPackage(input.data, input.filename, 'OpenDocument text (.odt)', 'content.xml');
    assertOdfNotEncrypted(zip, input.filename);
    const walker = new OdfBlockWalker();
    let inBody = 0;
    walkXml(zip.text('content.xml') ?? '', {
      open: (n, a) => {
        if (n === 'office:text') inBody++;
        else if (inBody > 0) walker.open(n, a);
      },
      close: (n) => {
        if (n === 'office:text') inBody--;
        else if (inBody > 0) walker.close(n);
      },
      text: (d) => {
        if (inBody > 0) walker.text(d);
      },
    });
    const blocks = walker.finish();
    const props = coreProperties(zip.text('meta.xml'));
    const firstH1 = blocks.find((b) => b.kind === 'heading' && b.level === 1)?.text;
    return assembleDocument({ parser: 'odt', blocks, title: props.title ?? firstH1, metadata: props.metadata });
  },
};
