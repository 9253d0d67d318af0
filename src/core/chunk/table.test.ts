import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNKING } from '../../shared/contract/index.js';
import { buildFixtureModel } from '../embed/fixture-model.js';
import { resolveModelSpec } from '../embed/model-spec.js';
import { loadModelTokenCounter } from '../embed/token-counter.js';
import { ROW_GROUP_TOKENS, tableToBlocks } from '../parse/table-markdown.js';
import type { ParsedDocument } from '../parse/types.js';
import { estimateTokenCounter } from './estimate.js';
import { chunkDocument } from './index.js';
import { buildDoc, expectCoverage, expectValidChunks, wordCounter } from './test-support.js';
import type { ChunkDraft, TokenCounter } from './types.js';

const HEADER = ['Lot', 'Weight t', 'Value €', 'Gate/slot', 'Терминал'];
const TERMINALS = ['Северный терминал', 'Kaliningrad-Sortirovochny', 'Qingdao (青岛) CNTAO-GBFXT'];
const HEADER_ROW = `| ${HEADER.join(' | ')} |`;

/**
 * Number- and code-heavy rows (the parser's old characters ÷ 4 sizing counted them far below any tokenizer), with
 * names the fixture model's small vocabulary cuts into many pieces (it counts them above the estimate).
 */
function ledger(rows: number): string[][] {
  return [
    HEADER,
    ...Array.from({ length: rows }, (_, i) => [
      `${i + 1}`,
      `${12 + i}.5`,
      `3,${400 + i}.${i % 10}0`,
      `A-${17 + i}/B-${i % 7}`,
      TERMINALS[i % 3]!,
    ]),
  ];
}

/** A section with text before and after a table cut into row groups the way every parser cuts them. */
function tableDoc(rows: number): ParsedDocument {
  const path = ['Yard'];
  return buildDoc([
    { text: '# Yard', kind: 'heading', level: 1, heading_path: path },
    { text: 'Lots weighed at the north gate this week.', kind: 'paragraph', heading_path: path },
    ...tableToBlocks(ledger(rows), { base: { heading_path: path } }).map((b) => ({ text: b.text, kind: b.kind, heading_path: path })),
    { text: 'Seals are checked again at loading.', kind: 'paragraph', heading_path: path },
  ]);
}

/** Every body row lies whole in some chunk, and every chunk holding rows has the header row as its first table line. */
function expectRowsWithHeader(doc: ParsedDocument, chunks: ChunkDraft[], rows: number): void {
  const rowLines = doc.text.split('\n').filter((l) => /^\| \d+ \|/.test(l));
  expect(rowLines).toHaveLength(rows);
  for (const line of rowLines)
    expect(
      chunks.some((c) => c.text.split('\n').includes(line)),
      line,
    ).toBe(true);
  for (const c of chunks) {
    const lines = c.text.split('\n');
    const firstTableLine = lines.findIndex((l) => l.startsWith('|'));
    if (firstTableLine < 0) continue;
    expect(lines[firstTableLine], c.text).toBe(HEADER_ROW);
    // No row is cut: every table line of the chunk is a whole row of the document.
    for (const l of lines.filter((x) => x.startsWith('|') && x !== HEADER_ROW && !x.startsWith('| ---'))) expect(rowLines).toContain(l);
  }
}

describe('markdown strategy: tables bigger than the parser thought', () => {
  let dir: string;
  let model: TokenCounter;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ragdesk-table-chunks-'));
    await buildFixtureModel(dir);
    model = (await loadModelTokenCounter(resolveModelSpec(dir, 'embedding'), dir))!;
    expect(model).toBeDefined();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('the parser sizes row groups by the estimate; the fixture model counts them over the default chunk size', () => {
    const groups = tableDoc(60).blocks.filter((b) => b.kind === 'table');
    expect(groups.length).toBeGreaterThan(1);
    expect(Math.max(...groups.map((g) => estimateTokenCounter.count(g.text)))).toBeLessThanOrEqual(ROW_GROUP_TOKENS);
    expect(Math.max(...groups.map((g) => model.count(g.text)))).toBeGreaterThan(DEFAULT_CHUNKING.chunk_size);
  });

  it('cuts an oversized row group at rows, and each chunk of it starts with the header row (default chunking)', async () => {
    const doc = tableDoc(60);
    for (const counter of [estimateTokenCounter, model, wordCounter]) {
      const chunks = await chunkDocument(doc, DEFAULT_CHUNKING, { tokenizer: counter });
      expectValidChunks(doc, chunks, counter, DEFAULT_CHUNKING.chunk_size);
      expectCoverage(doc, chunks);
      expectRowsWithHeader(doc, chunks, 60);
      expect(chunks.every((c) => c.location.heading_path?.[0] === 'Yard')).toBe(true);
    }
  });

  it('repeats the head at smaller chunk sizes too; the location is the rows, the text the head and the rows', async () => {
    const doc = tableDoc(30);
    const chunks = await chunkDocument(doc, { strategy: 'markdown', chunk_size: 96, chunk_overlap: 16 }, { tokenizer: model });
    expectValidChunks(doc, chunks, model, 96);
    expectCoverage(doc, chunks);
    expectRowsWithHeader(doc, chunks, 30);
    const repeated = chunks.filter((c) => c.text !== doc.text.slice(c.location.char_start, c.location.char_end));
    expect(repeated.length).toBeGreaterThan(3);
    for (const c of repeated) {
      expect(c.text.startsWith(`${HEADER_ROW}\n`)).toBe(true);
      expect(doc.text.slice(c.location.char_start, c.location.char_start! + 3)).toMatch(/^\| \d/);
    }
    // The chunks' token ids (the repeated head's, then the rows'), as the tokenizer gives them for each chunk's text.
    const tokenizer = await AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    expect(chunks.every((c) => c.ids)).toBe(true);
    for (const c of chunks) expect(Array.from(c.ids!), c.text).toEqual(tokenizer.encode(c.text, { add_special_tokens: false }));
  });

  it('gives a row too big for a chunk with the whole head the header row alone', async () => {
    const long = ['Remark', 'Lot'];
    const doc = buildDoc(
      tableToBlocks([long, ...Array.from({ length: 6 }, (_, i) => [`${i}: ${'c-1/2, '.repeat(6)}`, `${i}`])]).map((b) => ({
        text: b.text,
        kind: b.kind,
      })),
    );
    const chunks = await chunkDocument(
      doc,
      { strategy: 'markdown', chunk_size: 64, chunk_overlap: 0 },
      { tokenizer: estimateTokenCounter },
    );
    expectValidChunks(doc, chunks, estimateTokenCounter, 64);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.text.startsWith('| Remark | Lot |\n'), c.text).toBe(true);
  });
});
