import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { htmlFragmentText, htmlToBlocks } from './html-blocks.js';
import { htmlParser } from './html-parser.js';
import { blockWith, expectConsistent, fixture } from './test-support.js';

describe('html parser on sample.html', () => {
  it('extracts visible text with heading paths and the <title>', async () => {
    const doc = await htmlParser.parse({ data: fixture('sample.html'), filename: 'sample.html' });
    expectConsistent(doc);
    expect(doc.parser).toBe('html');
    expect(doc.title).toBe('Product Safety Guide');
    expect(doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text])).toEqual([
      [1, 'Product Safety'],
      [2, 'Batteries'],
      [3, 'Storage'],
      [2, 'Toys'],
    ]);
    expect(blockWith(doc, 'CE mark')).toMatchObject({
      kind: 'paragraph',
      heading_path: ['Product Safety'],
      text: 'All electrical products must carry the CE mark before they are sold in the EU & the UK market.',
    });
    expect(blockWith(doc, 'UN38.3').text).toBe(
      'Lithium batteries ship with a UN38.3 test summary.\nDamaged batteries are never returned by air.',
    );
    expect(blockWith(doc, 'Tape the terminals')).toMatchObject({
      kind: 'list',
      text: '- Tape the terminals.\n- Use the original packaging.',
    });
    expect(blockWith(doc, 'between 5').text).toBe('Store batteries between 5 °C and 25 °C.');
    expect(blockWith(doc, 'between 5').heading_path).toEqual(['Product Safety', 'Batteries', 'Storage']);
    expect(blockWith(doc, 'Under 3')).toMatchObject({
      kind: 'table',
      text: '| Age | Rule |\n| --- | --- |\n| Under 3 | No small parts |',
      heading_path: ['Product Safety', 'Toys'],
    });
    expect(blockWith(doc, 'T-100')).toMatchObject({ kind: 'code', text: '  SKU   AGE\n  T-100  3+' });
  });

  it('skips script, style, noscript and template content', async () => {
    const doc = await htmlParser.parse({ data: fixture('sample.html'), filename: 'sample.html' });
    expect(doc.text).not.toContain('should-not-appear');
    expect(doc.text).not.toContain('font-family');
    expect(doc.text).not.toContain('enable JavaScript');
  });

  it('never turns markup into text (xss.html)', async () => {
    const doc = await htmlParser.parse({ data: fixture('xss.html'), filename: 'xss.html' });
    expectConsistent(doc);
    expect(doc.text).not.toContain('onclick');
    expect(doc.text).not.toContain('javascript:');
    expect(doc.text).not.toContain('iframe fallback');
    expect(blockWith(doc, 'real image').text).toBe('A real image follows and must leave no trace.');
    // Text that the page shows as characters (escaped in the source) stays as those characters.
    expect(blockWith(doc, 'web form').text).toBe(
      'Our web form showed this text: <script>alert(1)</script> and <img src=x onerror=alert(1)>.',
    );
    expect(doc.text.match(/alert\(1\)/g)).toHaveLength(2);
  });
});

describe('htmlToBlocks', () => {
  it('uses the first h1 as the title when there is no <title>', () => {
    const { blocks, title } = htmlToBlocks('<h2>Intro</h2><p>a</p><h1>Main <small>x</small></h1><p>b</p>');
    expect(title).toBe('Main x');
    expect(blocks.map((b) => b.heading_path)).toEqual([['Intro'], ['Intro'], ['Main x'], ['Main x']]);
  });

  it('separates block elements and keeps inline elements together', () => {
    const { blocks } = htmlToBlocks('<div>one <b>bold</b><span>joined</span></div><section><p>two</p><p>three</p></section>text after');
    expect(blocks.map((b) => b.text)).toEqual(['one boldjoined', 'two', 'three', 'text after']);
  });

  it('numbers ordered lists and nests lists in one block', () => {
    const { blocks } = htmlToBlocks('<ol start="3"><li>a<ul><li>inner</li></ul></li><li><p>b</p></li></ol>');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.kind).toBe('list');
    expect(
      blocks[0]!.text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    ).toEqual(['3. a', '- inner', '4. b']);
  });

  it('turns tables into Markdown tables, big ones into row groups that repeat the header', () => {
    const rows = Array.from({ length: 120 }, (_, i) => `<tr><td>item ${i}</td><td>цена ${i}</td><td>价格 ${i}</td></tr>`).join('');
    const { blocks } = htmlToBlocks(
      `<h2>Prices</h2><table><caption>Q1</caption><thead><tr><th>Item</th><th>Цена</th><th>价格</th></tr></thead>${rows}</table>`,
    );
    const tables = blocks.filter((b) => b.kind === 'table');
    expect(blocks.find((b) => b.text === 'Q1')).toMatchObject({ kind: 'paragraph', heading_path: ['Prices'] });
    expect(tables.length).toBeGreaterThan(2);
    for (const t of tables) {
      expect(t.text.startsWith('| Item | Цена | 价格 |\n| --- | --- | --- |\n')).toBe(true);
      expect(t.heading_path).toEqual(['Prices']);
    }
    const body = tables.flatMap((t) => t.text.split('\n').slice(2));
    expect(body).toHaveLength(120);
    expect(body[119]).toBe('| item 119 | цена 119 | 价格 119 |');
  });

  it('keeps a cell in one row: pipes escaped, lists, paragraphs and nested tables flattened', () => {
    const { blocks } = htmlToBlocks(
      '<table><tr><td>a|b</td><td><p>one</p><p>two</p></td></tr><tr><td><ul><li>x</li><li>y</li></ul></td><td><table><tr><td>in1</td><td>in2</td></tr></table></td></tr></table><p>after</p>',
    );
    expect(blocks.map((b) => b.text)).toEqual(['| a\\|b | one two |\n| --- | --- |\n| x y | in1 in2 |', 'after']);
  });

  it('reads one-column layout tables as plain lines', () => {
    const { blocks } = htmlToBlocks('<table><tr><td>Hello</td></tr><tr><td>World</td></tr></table>');
    expect(blocks).toEqual([{ kind: 'paragraph', text: 'Hello\nWorld' }]);
  });

  it('is linear on a 1.2 MB table of <div> cells (25 s before the text buffer)', { timeout: 15_000 }, () => {
    const html = `<table><tr><td>${'<div>cell</div>'.repeat(80_000)}</td><td>end</td></tr><tr><td>x</td><td>y</td></tr></table>`;
    const { blocks } = htmlToBlocks(html);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.text.split('\n')[0]!.match(/cell/g)).toHaveLength(80_000);
  });

  it('is linear in the nesting depth (200k nested elements took minutes in htmlparser2 alone)', { timeout: 20_000 }, () => {
    const depth = 200_000;
    const { blocks } = htmlToBlocks(
      `<body>${'<div><span>'.repeat(depth)}deep text${'</i>'.repeat(1000)}${'</span></div>'.repeat(10)}<p>after</p>`,
    );
    expect(blocks.map((b) => b.text)).toEqual(['deep text', 'after']);
  });

  it('gives the visible text of a fragment', () => {
    expect(htmlFragmentText('<p>Hello <script>x()</script><b>world</b></p><style>p{}</style>')).toBe('Hello world');
  });
});

describe('html encodings', () => {
  it('trusts a declared <meta charset> for legacy bytes', async () => {
    const html = '<html><head><meta charset="windows-1251"><title>Таможня</title></head><body><p>Таможенная декларация</p></body></html>';
    const doc = await htmlParser.parse({ data: iconv.encode(html, 'win1251') });
    expect(doc.title).toBe('Таможня');
    expect(doc.text).toBe('Таможенная декларация');
    expect(doc.metadata.encoding).toBe('windows-1251');
  });

  it('detects GBK pages without a declaration', async () => {
    const html = '<html><body><h1>海关申报</h1><p>所有进口货物必须在到港前向海关申报。</p></body></html>';
    const doc = await htmlParser.parse({ data: iconv.encode(html, 'gbk') });
    expect(blockWith(doc, '进口货物').heading_path).toEqual(['海关申报']);
  });
});
