import { assembleDocument, type BlockDraft } from './assemble.js';
import { coreProperties, openPackage } from './office/package.js';
import { columnIndex, excelDate, sheetBlocks, type SheetData } from './office/sheets.js';
import { localName, readRels, walkXml } from './office/xml.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';
import type { SafeZip } from './zip/safe-zip.js';

/** Built-in number formats that show dates or times (ECMA-376 18.8.30). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/** Shared strings: the text of each `si`, rich-text runs joined, phonetic hints (`rPh`) left out. */
function sharedStrings(zip: SafeZip, part: string | undefined): string[] {
  const xml = part ? zip.text(part) : undefined;
  if (!xml) return [];
  const out: string[] = [];
  let buf = '';
  let inT = 0;
  let inPhonetic = 0;
  walkXml(xml, {
    open: (n) => {
      const l = localName(n);
      if (l === 'si') buf = '';
      else if (l === 't') inT++;
      else if (l === 'rPh') inPhonetic++;
    },
    close: (n) => {
      const l = localName(n);
      if (l === 'si') out.push(buf);
      else if (l === 't') inT = Math.max(0, inT - 1);
      else if (l === 'rPh') inPhonetic = Math.max(0, inPhonetic - 1);
    },
    text: (d) => {
      if (inT > 0 && inPhonetic === 0) buf += d;
    },
  });
  return out;
}

/** Which cell styles (indexes into cellXfs) show numbers as dates. */
function dateStyles(zip: SafeZip, part: string | undefined): Set<number> {
  const xml = part ? zip.text(part) : undefined;
  const dates = new Set<number>();
  if (!xml) return dates;
  const custom = new Map<number, string>();
  let inCellXfs = false;
  let xf = 0;
  walkXml(xml, {
    open: (n, a) => {
      const l = localName(n);
      if (l === 'numFmt') custom.set(Number(a.numFmtId), a.formatCode ?? '');
      else if (l === 'cellXfs') inCellXfs = true;
      else if (l === 'xf' && inCellXfs) {
        const id = Number(a.numFmtId ?? 0);
        const code = (custom.get(id) ?? '').replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
        if (DATE_FORMAT_IDS.has(id) || (custom.has(id) && /[dy]|m.*[ds]|h.*m/i.test(code))) dates.add(xf);
        xf++;
      }
    },
    close: (n) => {
      if (localName(n) === 'cellXfs') inCellXfs = false;
    },
  });
  return dates;
}

function readSheet(xml: string, name: string, strings: string[], dates: Set<number>): SheetData {
  const rows = new Map<number, string[]>();
  let rowNo = 0;
  let row: string[] = [];
  let col = -1;
  let type = '';
  let style = 0;
  let value = '';
  let inValue = false;
  let inInline = false;
  let inPhonetic = false;
  const cellText = (): string => {
    const v = value;
    switch (type) {
      case 's':
        return strings[Number(v)] ?? '';
      case 'b':
        return v === '1' ? 'TRUE' : v === '0' ? 'FALSE' : v;
      case 'inlineStr':
      case 'str':
      case 'e':
        return v;
      default: {
        const n = Number(v);
        if (v !== '' && dates.has(style)) return excelDate(n) ?? v;
        return v;
      }
    }
  };
  walkXml(xml, {
    open: (n, a) => {
      const l = localName(n);
      if (l === 'row') {
        rowNo = a.r ? Number(a.r) : rowNo + 1;
        row = [];
        col = -1;
      } else if (l === 'c') {
        const c = a.r ? columnIndex(a.r) : -1;
        col = c >= 0 ? c : col + 1;
        type = a.t ?? 'n';
        style = Number(a.s ?? 0);
        value = '';
      } else if (l === 'v') inValue = true;
      else if (l === 'is') inInline = true;
      else if (l === 'rPh') inPhonetic = true;
    },
    close: (n) => {
      const l = localName(n);
      if (l === 'v') inValue = false;
      else if (l === 'is') inInline = false;
      else if (l === 'rPh') inPhonetic = false;
      else if (l === 'c') {
        const t = cellText();
        if (t.trim() && col >= 0) row[col] = t;
      } else if (l === 'row' && row.length > 0) rows.set(rowNo, row);
    },
    text: (d) => {
      if (inValue || (inInline && !inPhonetic)) value += d;
    },
  });
  return { name, rows };
}

export const xlsxParser: Parser = {
  name: 'xlsx',
  extensions: ['xlsx', 'xlsm'],
  mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel.sheet.macroEnabled.12'],
  description:
    'Excel workbooks (.xlsx): each sheet a heading, its rows Markdown tables in row groups that repeat the header; row numbers as line ranges; dates as dates.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const zip = openPackage(input.data, input.filename, 'Excel workbook (.xlsx)', 'xl/workbook.xml');
    const workbook = zip.text('xl/workbook.xml') ?? '';
    const rels = readRels((n) => zip.text(n), 'xl/workbook.xml');
    let stringsPart: string | undefined;
    let stylesPart: string | undefined;
    for (const r of rels.values()) {
      if (r.type.endsWith('/sharedStrings')) stringsPart = r.target;
      else if (r.type.endsWith('/styles')) stylesPart = r.target;
    }
    const strings = sharedStrings(zip, stringsPart ?? 'xl/sharedStrings.xml');
    const dates = dateStyles(zip, stylesPart ?? 'xl/styles.xml');
    const sheets: { name: string; part: string; hidden: boolean }[] = [];
    walkXml(workbook, {
      open: (n, a) => {
        if (localName(n) !== 'sheet') return;
        const id = a['r:id'] ?? Object.entries(a).find(([k]) => k.endsWith(':id'))?.[1];
        const target = id ? rels.get(id)?.target : undefined;
        if (target && a.name) sheets.push({ name: a.name, part: target, hidden: a.state === 'hidden' || a.state === 'veryHidden' });
      },
    });
    const blocks: BlockDraft[] = [];
    const names: string[] = [];
    for (const s of sheets) {
      const xml = zip.text(s.part);
      if (!xml) continue;
      names.push(s.name);
      blocks.push(...sheetBlocks(readSheet(xml, s.name, strings, dates)));
    }
    const props = coreProperties(zip.text('docProps/core.xml'));
    return assembleDocument({
      parser: 'xlsx',
      blocks,
      title: props.title,
      metadata: { ...props.metadata, sheet_count: names.length, sheets: names },
    });
  },
};
