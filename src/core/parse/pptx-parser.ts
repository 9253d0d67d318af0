import { assembleDocument, type BlockDraft } from './assemble.js';
import { coreProperties, openPackage } from './office/package.js';
import { slideBlocks } from './office/slides.js';
import { localName, readRels, walkXml } from './office/xml.js';
import { tableToBlocks } from './table-markdown.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/** Placeholders that repeat on every slide and say nothing (slide number, date, footer, the notes' slide image). */
const SKIPPED_PLACEHOLDERS = new Set(['sldNum', 'dt', 'ftr', 'hdr', 'sldImg']);

interface SlideText {
  title: string;
  blocks: BlockDraft[];
}

/** The text of one slide or notes part: shapes' paragraphs (one block per shape), tables as Markdown, the title apart. */
function readSlide(xml: string): SlideText {
  const blocks: BlockDraft[] = [];
  let title = '';
  let placeholder: string | undefined;
  let shapeLines: string[] = [];
  let para: string | undefined;
  let table: { rows: string[][]; row: string[] | undefined; cell: string[] | undefined } | undefined;
  const isTitle = (): boolean => placeholder === 'title' || placeholder === 'ctrTitle';
  walkXml(xml, {
    open: (n, a) => {
      const l = localName(n);
      if (l === 'sp') {
        placeholder = undefined;
        shapeLines = [];
      } else if (l === 'ph') placeholder = a.type ?? 'body';
      else if (l === 'tbl') table = { rows: [], row: undefined, cell: undefined };
      else if (table && l === 'tr') table.row = [];
      else if (table && l === 'tc') table.cell = [];
      else if (l === 'p' && n.startsWith('a:')) para = '';
      else if (l === 'br' && para !== undefined) para += '\n';
    },
    close: (n) => {
      const l = localName(n);
      if (l === 'p' && n.startsWith('a:') && para !== undefined) {
        if (table?.cell) table.cell.push(para);
        else if (!placeholder || !SKIPPED_PLACEHOLDERS.has(placeholder)) {
          if (isTitle()) title += `${para} `;
          else shapeLines.push(para);
        }
        para = undefined;
      } else if (table && l === 'tc' && table.row && table.cell) {
        table.row.push(table.cell.join(' '));
        table.cell = undefined;
      } else if (table && l === 'tr' && table.row) {
        table.rows.push(table.row);
        table.row = undefined;
      } else if (table && l === 'tbl') {
        blocks.push(...tableToBlocks(table.rows));
        table = undefined;
      } else if (l === 'sp') {
        const text = shapeLines.join('\n');
        if (text.trim()) blocks.push({ kind: 'paragraph', text });
        shapeLines = [];
        placeholder = undefined;
      }
    },
    text: (d) => {
      if (para !== undefined) para += d;
    },
  });
  return { title: title.trim(), blocks };
}

export const pptxParser: Parser = {
  name: 'pptx',
  extensions: ['pptx', 'pptm'],
  mimeTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  description: 'PowerPoint (.pptx): one slide per page number, its title as the heading, tables as Markdown, speaker notes included.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const zip = openPackage(input.data, input.filename, 'PowerPoint presentation (.pptx)', 'ppt/presentation.xml');
    const text = (name: string): string | undefined => zip.text(name);
    const rels = readRels(text, 'ppt/presentation.xml');
    const order: string[] = [];
    walkXml(text('ppt/presentation.xml') ?? '', {
      open: (n, a) => {
        if (localName(n) !== 'sldId') return;
        const id = a['r:id'] ?? Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1];
        const target = id ? rels.get(id)?.target : undefined;
        if (target) order.push(target);
      },
    });
    const blocks: BlockDraft[] = [];
    order.forEach((part, i) => {
      const xml = text(part);
      if (!xml) return;
      const slide = readSlide(xml);
      const notesPart = [...readRels(text, part).values()].find((r) => r.type.endsWith('/notesSlide'))?.target;
      const notesXml = notesPart ? text(notesPart) : undefined;
      const notes = notesXml ? readSlide(notesXml).blocks : [];
      blocks.push(...slideBlocks(i + 1, slide.title, slide.blocks, notes));
    });
    const props = coreProperties(text('docProps/core.xml'));
    return assembleDocument({ parser: 'pptx', blocks, title: props.title, metadata: { ...props.metadata, slide_count: order.length } });
  },
};
