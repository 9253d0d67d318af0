import fc from 'fast-check';
import iconv from 'iconv-lite';
import { Lexer } from 'marked';
import { describe, expect, it } from 'vitest';
import { decodeEntities } from './html-blocks.js';
import { parseFrontMatter } from './markdown-support.js';
import { INLINE_SYNTAX, markdownParser, markdownToBlocks, WARNING_INLINE_LITERAL, WARNING_PLAIN_TEXT_FALLBACK } from './markdown-parser.js';
import { blockWith, expectConsistent, fixture } from './test-support.js';
import { tokenizerTexts } from '../test-support.js';

const md = (s: string) => markdownParser.parse({ data: new TextEncoder().encode(s), filename: 'x.md' });

describe('markdown parser on sample.md', () => {
  it('gives every block its heading path and line range', async () => {
    const doc = await markdownParser.parse({ data: fixture('sample.md'), filename: 'sample.md' });
    expectConsistent(doc);
    expect(doc.parser).toBe('markdown');
    expect(doc.title).toBe('Import Procedures');
    expect(doc.metadata).toMatchObject({
      title: 'Import Procedures',
      department: 'logistics',
      tags: ['customs', 'import'],
      version: 3,
      encoding: 'utf-8',
    });

    const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text, b.line_start]);
    expect(headings).toEqual([
      [1, 'Import Procedures', 8],
      [2, 'Customs Clearance', 12],
      [3, 'Inspections', 20],
      [2, 'Returns', 24],
      [1, 'Contacts', 35],
    ]);
    expect(blockWith(doc, 'broker files the entry')).toMatchObject({
      kind: 'paragraph',
      heading_path: ['Import Procedures', 'Customs Clearance'],
      line_start: 14,
      line_end: 14,
    });
    expect(blockWith(doc, 'physical inspection').heading_path).toEqual(['Import Procedures', 'Customs Clearance', 'Inspections']);
    expect(blockWith(doc, 'Check the HS code')).toMatchObject({ kind: 'list', line_start: 16, line_end: 18 });
    expect(blockWith(doc, 'Defective goods')).toMatchObject({
      kind: 'table',
      heading_path: ['Import Procedures', 'Returns'],
      line_start: 26,
      line_end: 29,
    });
    expect(blockWith(doc, 'RMA-2024-0001')).toMatchObject({ kind: 'code', line_start: 31, line_end: 33 });
    expect(blockWith(doc, 'logistics@example.com').heading_path).toEqual(['Contacts']);
  });

  it('reduces inline Markdown to text and decodes entities', async () => {
    const doc = await markdownParser.parse({ data: fixture('sample.md'), filename: 'sample.md' });
    expect(blockWith(doc, 'broker').text).toBe(
      'The broker files the entry with customs before the vessel arrives. See the tariff guide & the HS code table.',
    );
    expect(doc.text).not.toMatch(/\*\*|\]\(|&amp;|^---/m);
    expect(doc.text).not.toContain('department: logistics');
  });
});

describe('markdown parser details', () => {
  it('handles setext headings, skipped levels, lists, quotes and images', async () => {
    const doc = await md('Intro text\n\nTitle\n=====\n\n### Deep\n\n> quoted **bold**\n\n1. one\n2. ![alt text](a.png) two\n');
    expectConsistent(doc);
    expect(doc.blocks[0]).toMatchObject({ text: 'Intro text', line_start: 1 });
    expect(doc.blocks[0]!.heading_path).toBeUndefined();
    expect(blockWith(doc, 'Title')).toMatchObject({ kind: 'heading', level: 1, line_start: 3, line_end: 4 });
    expect(blockWith(doc, 'Deep').heading_path).toEqual(['Title', 'Deep']);
    expect(blockWith(doc, 'quoted').text).toBe('quoted bold');
    expect(blockWith(doc, 'one').text).toBe('1. one\n2. alt text two');
  });

  it('keeps CRLF files line-accurate and decodes legacy encodings', async () => {
    const src = '# Таможня\r\n\r\nТаможенные правила.\r\n\r\n## Возврат\r\n\r\nВозврат товара.\r\n';
    const doc = await markdownParser.parse({ data: iconv.encode(src, 'win1251'), filename: 'ru.md' });
    expect(doc.metadata.encoding).toBe('windows-1251');
    expect(blockWith(doc, 'Возврат товара')).toMatchObject({ heading_path: ['Таможня', 'Возврат'], line_start: 7, line_end: 7 });
  });

  it('drops script content and HTML tags but keeps code literally (xss.md)', async () => {
    const doc = await markdownParser.parse({ data: fixture('xss.md'), filename: 'xss.md' });
    expectConsistent(doc);
    expect(doc.text).not.toContain("alert('inline')");
    expect(doc.text).not.toContain('<img src=x onerror=alert(1)> nothing');
    expect(blockWith(doc, 'web form').text).toBe('The web form showed nothing, and done.');
    // Code spans and escaped text are content: they come back as literal characters, never as markup.
    expect(blockWith(doc, 'Literal code').text).toBe('Literal code stays literal: <script>alert(1)</script>.');
    expect(blockWith(doc, 'Escaped text').text).toBe('Escaped text: <img src=x onerror=alert(1)>');
    expect(doc.text.match(/<script>/g)).toHaveLength(1);
  });

  it('keeps pathological inline runs literal instead of taking seconds (100 KB of `_a` took 22 s)', { timeout: 15_000 }, async () => {
    for (const unit of ['_a', '*a', '`a', '[a](']) {
      const src = `# Title\n\n${unit.repeat(25_000)}\n\nA *normal* paragraph.\n`;
      const doc = await md(src);
      expect(doc.warnings).toContain(`${WARNING_INLINE_LITERAL}: 1`);
      expect(blockWith(doc, unit.repeat(100)).text).toBe(unit.repeat(25_000));
      expect(blockWith(doc, 'paragraph').text).toBe('A normal paragraph.');
    }
  });

  it('reads Markdown nested deeper than the stack as plain text', async () => {
    const doc = await md(`${'>'.repeat(30_000)} deep\n\nnext paragraph\n`);
    expect(doc.warnings).toContain(WARNING_PLAIN_TEXT_FALLBACK);
    expect(blockWith(doc, 'next paragraph')).toMatchObject({ line_start: 3, line_end: 3 });
  });

  it('maps line ranges after front matter', () => {
    const { blocks } = markdownToBlocks('# A\n\ntext\n', 5);
    expect(blocks.map((b) => [b.text, b.line_start])).toEqual([
      ['A', 5],
      ['text', 7],
    ]);
  });
});

describe('front matter and entities', () => {
  it('parses scalars and lists and reports where the body starts', () => {
    const fm = parseFrontMatter('---\ntitle: "Quoted: yes"\ndraft: false\nn: 2.5\nlist:\n  - a\n  - 3\nnested:\n  key: v\n---\n# Body\n');
    expect(fm.metadata).toEqual({ title: 'Quoted: yes', draft: false, n: 2.5, list: ['a', 3] });
    expect(fm.body).toBe('# Body\n');
    expect(fm.bodyFirstLine).toBe(11);
  });

  it('leaves text without a closing fence alone', () => {
    expect(parseFrontMatter('---\nnot front matter\n').metadata).toEqual({});
  });

  it('decodes entities and keeps < literal', () => {
    expect(decodeEntities('a &lt; b &amp; c &copy; &#1090; < d')).toBe('a < b & c © т < d');
  });
});

describe('inline runs without Markdown syntax', () => {
  /** marked's own inline tokens for a run, and the one text token the parser takes a run without syntax as. */
  const marked = (src: string) => new Lexer({ gfm: true }).inlineTokens(src, []);
  const plain = (src: string) => [{ type: 'text', raw: src, text: src, escaped: false }];

  it('are one text token in marked too (random runs of prose characters, spaces and line breaks)', () => {
    const pieces = [...'abcwhtpfxyzABW019 .,;:-\'"?%$#^+=|/{}()>', ' ', '  ', '\n', 'www', 'http', ':/', 'é', 'ж', '海', '\t'];
    const run = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 30 }).map((p) => p.join(''));
    let checked = 0;
    fc.assert(
      fc.property(run, (src) => {
        if (INLINE_SYNTAX.test(src)) return;
        checked++;
        expect(marked(src)).toEqual(plain(src));
      }),
      { numRuns: 5000 },
    );
    expect(checked).toBeGreaterThan(2000);
  });

  it("are one text token in marked for the sample KB's prose, and a run with syntax is left to marked", () => {
    let plainRuns = 0;
    for (const text of tokenizerTexts()) {
      const lexer = new Lexer({ gfm: true });
      lexer.blockTokens(text, lexer.tokens);
      for (const item of lexer.inlineQueue) {
        if (INLINE_SYNTAX.test(item.src)) continue;
        plainRuns++;
        expect(marked(item.src), item.src).toEqual(plain(item.src));
      }
    }
    expect(plainRuns).toBeGreaterThan(20);
    for (const src of [
      'a *b*',
      'a_b_',
      'x `y`',
      'see [x](y)',
      '![i](p)',
      'a\\*b',
      'a<b>',
      'x &amp; y',
      'a ~~b~~',
      'www.x.org',
      'http://x.org',
      'me@x.org',
      'line  \nbreak',
      'WWW.X.ORG',
    ])
      expect(INLINE_SYNTAX.test(src), src).toBe(true);
  });
});
