import { decodeText } from '../text/encoding.js';
import { assembleDocument } from './assemble.js';
import { tableToBlocks } from './table-markdown.js';
import { encodingMetadata } from './text-parser.js';
import type { ParseInput, ParsedDocument, Parser } from './types.js';

/**
 * CSV/TSV by RFC 4180 (quoted fields may hold delimiters, quotes and line breaks), in one linear pass. The delimiter
 * is `\t` for .tsv, else the one of `,` `;` `\t` `|` that splits the first lines most consistently. Each record
 * keeps the line it starts on, so row groups cite line ranges.
 */
export function parseCsv(text: string, delimiter: string): { rows: string[][]; lines: number[] } {
  const rows: string[][] = [];
  const lines: number[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let atFieldStart = true;
  const endRow = (): void => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') {
      rows.push(row);
      lines.push(rowLine);
    }
    row = [];
    field = '';
    atFieldStart = true;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
    } else if (c === delimiter) {
      row.push(field);
      field = '';
      atFieldStart = true;
    } else if (c === '\n') {
      endRow();
      line++;
      rowLine = line;
    } else if (c !== '\r') {
      field += c;
      atFieldStart = false;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return { rows, lines };
}

function sniffDelimiter(text: string): string {
  const sample = text.slice(0, 8192).split('\n').slice(0, 20).filter(Boolean);
  let best = ',';
  let bestScore = 0;
  for (const d of [',', ';', '\t', '|']) {
    const counts = sample.map((l) => l.split(d).length - 1);
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const consistent = counts.filter((c) => c === first).length;
    const score = consistent * 10 + first;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

export const csvParser: Parser = {
  name: 'csv',
  extensions: ['csv', 'tsv'],
  mimeTypes: ['text/csv', 'text/tab-separated-values'],
  description: 'CSV/TSV tables in any common encoding: Markdown tables in row groups that repeat the header row; line ranges kept.',
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const decoded = decodeText(input.data);
    const tsv = /\.tsv$/i.test(input.filename ?? '');
    const delimiter = tsv ? '\t' : sniffDelimiter(decoded.text);
    const { rows, lines } = parseCsv(decoded.text, delimiter);
    const blocks = tableToBlocks(rows, { rowNumbers: lines });
    return assembleDocument({
      parser: 'csv',
      blocks,
      metadata: { ...encodingMetadata(decoded), delimiter: delimiter === '\t' ? 'tab' : delimiter, row_count: rows.length },
    });
  },
};
