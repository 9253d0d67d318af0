import { assembleDocument, type BlockDraft } from './assemble.js';
import { assertOdfNotEncrypted, coreProperties, openPackage } from './office/package.js';
import { sheetBlocks, type SheetData } from './office/sheets.js';
import { walkXml } from './office/xml.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/**
 * Repeated rows and columns with content are written out, up to this many times each: ODF files repeat empty
 * cells to the sheet's edge (16,384 columns, a million rows), and those are never expanded at all.
 */
const MAX_REPEAT = 1000;

export const odsParser: Parser = {
  name: 'ods',
  extensions: ['ods'],
  mimeTypes: ['application/vnd.oasis.opendocument.spreadsheet'],
  description:
    'OpenDocument spreadsheets (.ods): each sheet a heading, its rows Markdown tables in row groups that repeat the header; row numbers as line ranges.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const zip = openPackage(input.data, input.filename, 'OpenDocument spreadsheet (.ods)', 'content.xml');
    assertOdfNotEncrypted(zip, input.filename);
    const sheets: SheetData[] = [];
    let sheet: SheetData | undefined;
    let rowNo = 0;
    let row: string[] = [];
    let rowRepeat = 1;
    let col = 0;
    let cell: { text: string; repeat: number; value?: string; paragraphs: number } | undefined;
    let nested = 0;
    walkXml(zip.text('content.xml') ?? '', {
      open: (n, a) => {
        if (n === 'table:table') {
          if (sheet) nested++;
          else {
            sheet = { name: a['table:name'] ?? `Sheet ${sheets.length + 1}`, rows: new Map() };
            rowNo = 0;
          }
          return;
        }
        if (!sheet || nested > 0) {
          if (cell && (n === 'text:p' || n === 'table:table-cell')) cell.text += ' ';
          return;
        }
        if (n === 'table:table-row') {
          row = [];
          col = 0;
          rowRepeat = Math.max(1, Number(a['table:number-rows-repeated'] ?? 1) || 1);
        } else if (n === 'table:table-cell' || n === 'table:covered-table-cell') {
          const dateValue = a['office:date-value'];
          cell = {
            text: '',
            repeat: Math.max(1, Number(a['table:number-columns-repeated'] ?? 1) || 1),
            paragraphs: 0,
            ...(dateValue ? { value: dateValue.replace('T00:00:00', '').replace('T', ' ') } : {}),
          };
        } else if (cell && n === 'text:p') {
          if (cell.paragraphs++ > 0) cell.text += '\n';
        } else if (cell && n === 'text:s') cell.text += ' '.repeat(Math.min(Number(a['text:c'] ?? 1) || 1, 100));
        else if (cell && (n === 'text:tab' || n === 'text:line-break')) cell.text += ' ';
      },
      close: (n) => {
        if (n === 'table:table') {
          if (nested > 0) nested--;
          else if (sheet) {
            sheets.push(sheet);
            sheet = undefined;
          }
          return;
        }
        if (!sheet || nested > 0) return;
        if ((n === 'table:table-cell' || n === 'table:covered-table-cell') && cell) {
          const text = (cell.value ?? cell.text).trim();
          const times = text ? Math.min(cell.repeat, MAX_REPEAT) : 0;
          for (let i = 0; i < times; i++) row[col + i] = text;
          col += cell.repeat;
          cell = undefined;
        } else if (n === 'table:table-row') {
          const times = row.length > 0 ? Math.min(rowRepeat, MAX_REPEAT) : 0;
          for (let i = 0; i < times; i++) sheet.rows.set(rowNo + 1 + i, [...row]);
          rowNo += rowRepeat;
        }
      },
      text: (d) => {
        if (cell && cell.value === undefined) cell.text += d;
      },
    });
    const blocks: BlockDraft[] = sheets.flatMap(sheetBlocks);
    const props = coreProperties(zip.text('meta.xml'));
    return assembleDocument({
      parser: 'ods',
      blocks,
      title: props.title,
      metadata: { ...props.metadata, sheet_count: sheets.length, sheets: sheets.map((s) => s.name) },
    });
  },
};
