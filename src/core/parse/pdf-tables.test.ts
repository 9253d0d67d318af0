import { describe, expect, it } from 'vitest';
import type { PdfTextRun } from './pdf-layout.js';
import { splitTables, type PageRegion } from './pdf-tables.js';

/** A run of 10 pt text; each character 5 pt wide (CJK 10 pt) unless `width` says otherwise. */
const run = (str: string, x: number, y: number, opts: { width?: number; size?: number; eol?: boolean; font?: string } = {}): PdfTextRun => {
  const size = opts.size ?? 10;
  const width = opts.width ?? [...str].reduce((w, ch) => w + (/[\u4e00-\u9fff]/.test(ch) ? size : size / 2), 0);
  return { str, transform: [size, 0, 0, size, x, y], width, height: size, hasEOL: opts.eol ?? false, fontName: opts.font ?? 'f1' };
};

/** Rows of cells at column x positions (a cell given as [text, 'right'] ends at the next column's x less 10). */
function grid(rows: (string | [string, 'right'])[][], xs: number[], top: number, pitch = 16, font = 'f1'): PdfTextRun[] {
  return rows.flatMap((cells, r) =>
    cells.flatMap((cell, c) => {
      if (cell === '') return [];
      const y = top - r * pitch;
      if (typeof cell === 'string') return [run(cell, xs[c]!, y, { font })];
      const width = cell[0].length * 5;
      return [run(cell[0], xs[c + 1]! - 10 - width, y, { width, font })];
    }),
  );
}

const kinds = (regions: PageRegion[]): string[] => regions.map((r) => r.kind);
const tableOf = (regions: PageRegion[]): string[][] => {
  const t = regions.find((r) => r.kind === 'table');
  expect(t, 'a table').toBeDefined();
  return t!.kind === 'table' ? t!.rows : [];
};
const noTable = (runs: PdfTextRun[], mono?: (r: PdfTextRun) => boolean): void => {
  const regions = splitTables(runs, mono);
  expect(kinds(regions)).toEqual(['text']);
  expect(regions[0]!.kind === 'text' && regions[0]!.runs).toEqual(runs);
};

describe('splitTables', () => {
  it('finds a table between paragraphs: header first, rows in order, right-aligned numbers, text around it kept', () => {
    const before = run('The rates below apply from the first of May.', 50, 760, { eol: true });
    const table = grid(
      [
        ['Lane', 'Container', 'Rate'],
        ['Shanghai – Rotterdam', '40ft HC', ['2,450', 'right']],
        ['Санкт-Петербург', '20ft DV', ['980', 'right']],
        ['深圳 – 上海', '冷藏箱', ['14,720', 'right']],
      ],
      [50, 200, 300, 400],
      730,
    );
    const after = run('Surcharges are billed separately.', 50, 650);
    const regions = splitTables([before, ...table, after]);
    expect(kinds(regions)).toEqual(['text', 'table', 'text']);
    expect(regions[0]).toEqual({ kind: 'text', runs: [before] });
    expect(regions[2]).toEqual({ kind: 'text', runs: [after] });
    expect(tableOf(regions)).toEqual([
      ['Lane', 'Container', 'Rate'],
      ['Shanghai – Rotterdam', '40ft HC', '2,450'],
      ['Санкт-Петербург', '20ft DV', '980'],
      ['深圳 – 上海', '冷藏箱', '14,720'],
    ]);
  });

  it('joins the runs of one cell, keeps empty cells, and takes the space runs pdf.js puts between cells', () => {
    const runs = [
      run('Item', 50, 700),
      run(' ', 70, 700, { width: 130 }),
      run('Qty', 200, 700),
      run('Bolt', 50, 684),
      run('M8', 72, 684),
      run('12', 200, 684),
      run('Nut', 50, 668),
      run('Washer', 50, 652),
      run('40', 200, 652),
    ];
    const regions = splitTables(runs);
    expect(kinds(regions)).toEqual(['table']);
    expect(tableOf(regions)).toEqual([
      ['Item', 'Qty'],
      ['Bolt M8', '12'],
      ['Nut', ''],
      ['Washer', '40'],
    ]);
  });

  it('joins the lines of a wrapped cell to their row, with centred one-line cells between them', () => {
    const runs = [
      ...grid([['Term', 'Risk passes', 'Payer']], [50, 120, 400], 700),
      // FOB: the middle cell wraps over two lines; "FOB" and "Buyer" sit half a line lower, centred.
      run('When the goods are on board', 120, 676),
      run('FOB', 50, 669),
      run('Buyer', 400, 669),
      run('the vessel at the port', 120, 662),
      ...grid([['CIF', 'On board the vessel', 'Seller']], [50, 120, 400], 640),
      ...grid([['EXW', 'At the premises', 'Buyer']], [50, 120, 400], 620),
    ];
    expect(tableOf(splitTables(runs))).toEqual([
      ['Term', 'Risk passes', 'Payer'],
      ['FOB', 'When the goods are on board the vessel at the port', 'Buyer'],
      ['CIF', 'On board the vessel', 'Seller'],
      ['EXW', 'At the premises', 'Buyer'],
    ]);
  });

  it('needs three rows with two or more cells', () => {
    noTable(
      grid(
        [
          ['Name', 'Qty'],
          ['Bolt', '12'],
        ],
        [50, 200],
        700,
      ),
    );
  });

  it('leaves two-column prose alone (English, and Chinese without letter case)', () => {
    const left = [
      'Inbound pallets are counted against the',
      'advance shipping notice before they are',
      'put away in the racking, and any short',
      'delivery is recorded on the receipt.',
    ];
    const right = [
      'Outbound orders picked before two',
      'o’clock leave the warehouse on the same',
      'day, and export orders are packed on',
      'pallets that carry the ISPM 15 mark.',
    ];
    noTable(left.flatMap((l, i) => [run(l, 50, 700 - i * 14), run(right[i]!, 300, 700 - i * 14)]));
    const zhLeft = ['所有进口货物到达仓库后收货员根据', '预先发货通知清点托盘数量并检查外', '包装是否完好如果发现短少或破损应'];
    const zhRight = ['出口订单在下午两点之前拣货完成的', '当天发运出口货物使用经过热处理并', '带有标记的托盘每个托盘都要缠绕包'];
    noTable(zhLeft.flatMap((l, i) => [run(l, 50, 700 - i * 14), run(zhRight[i]!, 300, 700 - i * 14)]));
  });

  it('leaves lists alone: a column of bullets or numbers before the text', () => {
    noTable(
      grid(
        [
          ['•', 'Check the packing list.'],
          ['•', 'Print the carrier label.'],
          ['•', 'Photograph the seal.'],
        ],
        [50, 70],
        700,
      ),
    );
    noTable(
      grid(
        [
          ['1.', 'Weigh the container.'],
          ['2.', 'Record the mass.'],
          ['3.', 'Submit it.'],
        ],
        [50, 80],
        700,
      ),
    );
    noTable(
      grid(
        [
          ['a)', 'first'],
          ['b)', 'second'],
          ['c)', 'third'],
        ],
        [50, 80],
        700,
      ),
    );
  });

  it('leaves code alone: a column of comments, symbol-dense lines, monospace listings', () => {
    noTable(
      grid(
        [
          ['retries 3', '# attempts per file'],
          ['outbox /srv/edi', '# where the files go'],
          ['timeout 30', '# seconds to wait'],
        ],
        [50, 200],
        700,
      ),
    );
    noTable(
      grid(
        [
          ['if (a[i] == b) {', 'x = $y;'],
          ['} else {', 'x = @z;'],
          ['for (;;) {', 'x ^= ~y;'],
        ],
        [50, 200],
        700,
      ),
    );
    // A listing with a few symbols is code in a monospace font, a table in a text font.
    const listing = grid(
      [
        ['max_connections', '100', 'per server'],
        ['idle_timeout', '30', 'seconds'],
        ['log_level', 'info', 'default'],
      ],
      [50, 200, 300],
      700,
      16,
      'mono',
    );
    noTable(listing, (r) => r.fontName === 'mono');
    expect(kinds(splitTables(listing))).toEqual(['table']);
  });

  it('ends a table where a line in a monospace font (code) follows it', () => {
    const table = grid(
      [
        ['Name', 'Qty'],
        ['Bolt', '12'],
        ['Nut', '40'],
      ],
      [50, 200],
      700,
    );
    const code = [run('total', 50, 652, { font: 'mono' }), run('= 52', 200, 652, { font: 'mono' })];
    const isMono = (r: PdfTextRun): boolean => r.fontName === 'mono';
    const regions = splitTables([...table, ...code], isMono);
    expect(kinds(regions)).toEqual(['table', 'text']);
    expect(tableOf(regions)).toEqual([
      ['Name', 'Qty'],
      ['Bolt', '12'],
      ['Nut', '40'],
    ]);
  });

  it('reads a Chinese table as a table even when pdf.js calls its font monospace (CJK fonts often say so)', () => {
    const zh = grid(
      [
        ['城市', '销量', '备注'],
        ['上海', '120', '电子申报'],
        ['宁波', '80', '需要纸质发票'],
        ['深圳', '95', '电子申报'],
      ],
      [50, 150, 250],
      700,
    );
    expect(tableOf(splitTables(zh, () => true))[2]).toEqual(['宁波', '80', '需要纸质发票']);
  });

  it('leaves a prose column next to a narrow one alone', () => {
    const prose = [
      'the carrier must be told before loading',
      'starts and the seal number is written on',
      'the bill of lading by the forwarder who',
    ];
    noTable(prose.flatMap((l, i) => [run(`Note ${i + 1}`, 50, 700 - i * 14), run(l, 120, 700 - i * 14)]));
  });

  it('ignores rotated text and stops a table at a line that crosses its columns', () => {
    const rotated = run('DRAFT', 500, 600);
    rotated.transform = [0, 10, -10, 0, 500, 600];
    const table = grid(
      [
        ['Name', 'Qty'],
        ['Bolt', '12'],
        ['Nut', '40'],
      ],
      [50, 200],
      700,
    );
    const prose = run('This sentence runs across both columns of the table above.', 50, 652);
    const regions = splitTables([...table, prose, rotated]);
    expect(kinds(regions)).toEqual(['table', 'text']);
    expect(tableOf(regions)).toEqual([
      ['Name', 'Qty'],
      ['Bolt', '12'],
      ['Nut', '40'],
    ]);
    expect(regions[1]).toEqual({ kind: 'text', runs: [prose, rotated] });
    // A justified line, a run per word, whose gaps happen to leave the table's gutter free: more cells than columns.
    const justified = [run('We', 50, 652), run('count', 66, 652), run('the', 200, 652), run('stock', 222, 652), run('daily.', 253, 652)];
    expect(tableOf(splitTables([...table, ...justified]))).toEqual([
      ['Name', 'Qty'],
      ['Bolt', '12'],
      ['Nut', '40'],
    ]);
  });
});
