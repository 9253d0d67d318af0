import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBytes } from './registry.js';
import { expectConsistent } from './test-support.js';

/** The sample knowledge base in rag_data/ must parse completely, in every language and format. */
const KB = fileURLToPath(new URL('../../../rag_data/', import.meta.url));
const files = readdirSync(KB)
  .filter((f) => f !== 'README.md')
  .sort();

describe('rag_data sample knowledge base', () => {
  it('holds 8–12 documents in all five formats and stays small', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
    expect(files.length).toBeLessThanOrEqual(12);
    expect(new Set(files.map((f) => path.extname(f)))).toEqual(new Set(['.md', '.html', '.txt', '.pdf', '.docx']));
    const total = readdirSync(KB).reduce((n, f) => n + statSync(path.join(KB, f)).size, 0);
    expect(total).toBeLessThan(1024 * 1024);
  });

  it('parses every document with the parser of its format, without warnings', async () => {
    const expected: Record<string, string> = { '.md': 'markdown', '.html': 'html', '.txt': 'text', '.pdf': 'pdf', '.docx': 'docx' };
    for (const f of files) {
      const doc = await parseBytes({ data: new Uint8Array(readFileSync(path.join(KB, f))), filename: f });
      expect(doc.parser, f).toBe(expected[path.extname(f)]);
      expect(doc.warnings, f).toEqual([]);
      expect(doc.text.length, f).toBeGreaterThan(200);
      expect(doc.title, f).toBeTruthy();
      expectConsistent(doc);
    }
  });

  it('has the inflected Russian and the Chinese terms search examples rely on', async () => {
    const all: string[] = [];
    for (const f of files) all.push((await parseBytes({ data: new Uint8Array(readFileSync(path.join(KB, f))), filename: f })).text);
    const text = all.join('\n');
    for (const word of ['таможня', 'таможенные', 'таможенной', 'Таможенная декларация', '海关', '退货', 'customs', 'Incoterms']) {
      expect(text, word).toContain(word);
    }
    expect(text).not.toContain('不应出现');
  });

  it('decodes the windows-1251 Russian text file', async () => {
    const doc = await parseBytes({
      data: new Uint8Array(readFileSync(path.join(KB, 'ru-vozvrat-tovara.txt'))),
      filename: 'ru-vozvrat-tovara.txt',
    });
    expect(doc.metadata.encoding).toBe('windows-1251');
    expect(doc.text).toContain('ввозная таможенная пошлина может быть возвращена');
  });
});
