import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { BLOCK_SEPARATOR } from './assemble.js';
import type { ParsedDocument } from './types.js';

/** Test-only helpers shared by the parser tests. */

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url))));
}

/** The invariants every parser must keep: ranges index `text`, blocks are non-empty, normalised, in order. */
export function expectConsistent(doc: ParsedDocument): void {
  expect(doc.text).toBe(doc.blocks.map((b) => b.text).join(BLOCK_SEPARATOR));
  let prevEnd = -BLOCK_SEPARATOR.length;
  for (const b of doc.blocks) {
    expect(b.text.length).toBeGreaterThan(0);
    expect(doc.text.slice(b.char_start, b.char_end)).toBe(b.text);
    expect(b.char_start).toBe(prevEnd + BLOCK_SEPARATOR.length);
    prevEnd = b.char_end;
    expect(b.text).toBe(b.text.normalize('NFC'));
    if (b.kind !== 'code') {
      expect(b.text).not.toMatch(/[ \t]{2,}|^[ \t]|[ \t]$|\n\n/m);
    }
    if (b.line_start !== undefined) expect(b.line_end).toBeGreaterThanOrEqual(b.line_start);
  }
}

/** The block whose text contains `needle` (fails the test when there is none). */
export function blockWith(doc: ParsedDocument, needle: string): ParsedDocument['blocks'][number] {
  const block = doc.blocks.find((b) => b.text.includes(needle));
  expect(block, `a block containing ${JSON.stringify(needle)}`).toBeDefined();
  return block!;
}
