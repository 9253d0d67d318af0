import iconv from 'iconv-lite';
import { buildZip, type ZipInput } from '../zip/zip-writer.js';

/**
 * Builds the fixtures of the office and e-book parsers from XML written here (no binaries in the repository, and no
 * office suite needed): XLSX, ODS, CSV, PPTX, ODP, ODT, EPUB and RTF documents with English, Russian and Chinese
 * text, plus their bad variants (encrypted, damaged, zip bomb). Each function returns the file's bytes.
 */

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function rels(list: [id: string, type: string, target: string][]): string {
  return `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${list
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${R}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;
}

const coreXml = (title: string): string =>
  `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>${esc(title)}</dc:title><dc:creator>Анна Петрова</dc:creator><dcterms:created>2024-03-01T10:00:00Z</dcterms:created></cp:coreProperties>`;

/** Sales.xlsx: sheet "Продажи" (header + 100 rows: text, numbers, a date, a boolean) and sheet "销售" (Chinese). */
export function xlsxFixture(): Buffer {
  const strings = ['Товар', 'Количество', 'Дата', 'Оплачено', '产品', '数量', '茶叶', 'Итого'];
  const sst = `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings
    .map((s) => `<si><t>${esc(s)}</t></si>`)
    .join('')}<si><r><t>Rich </t></r><r><t>text</t></r><rPh><t>ふりがな</t></rPh></si></sst>`;
  const rows: string[] = [
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>',
  ];
  for (let i = 2; i <= 101; i++) {
    rows.push(
      `<row r="${i}"><c r="A${i}" t="inlineStr"><is><t>Таможенная пошлина ${i - 1}</t></is></c><c r="B${i}"><v>${i * 10}</v></c><c r="C${i}" s="1"><v>${45292 + i}</v></c><c r="D${i}" t="b"><v>${i % 2}</v></c></row>`,
    );
  }
  rows.push('<row r="103"><c r="A103" t="s"><v>7</v></c><c r="B103"><f>SUM(B2:B101)</f><v>51500</v></c><c r="E103" t="s"><v>8</v></c></row>');
  const sheet = (rs: string[]): string =>
    `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rs.join('')}</sheetData></worksheet>`;
  return buildZip([
    { name: '[Content_Types].xml', data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>` },
    { name: '_rels/.rels', data: rels([['rId1', 'officeDocument', 'xl/workbook.xml']]) },
    {
      name: 'xl/workbook.xml',
      data: `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${R}"><sheets><sheet name="Продажи" sheetId="1" r:id="rId1"/><sheet name="销售" sheetId="2" r:id="rId2"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: rels([
        ['rId1', 'worksheet', 'worksheets/sheet1.xml'],
        ['rId2', 'worksheet', 'worksheets/sheet2.xml'],
        ['rId3', 'sharedStrings', 'sharedStrings.xml'],
        ['rId4', 'styles', 'styles.xml'],
      ]),
    },
    { name: 'xl/sharedStrings.xml', data: sst },
    {
      name: 'xl/styles.xml',
      data: `${XML}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet(rows) },
    {
      name: 'xl/worksheets/sheet2.xml',
      data: sheet([
        '<row r="1"><c r="A1" t="s"><v>4</v></c><c r="B1" t="s"><v>5</v></c></row>',
        '<row r="2"><c r="A2" t="s"><v>6</v></c><c r="B2"><v>12.5</v></c></row>',
        '<row r="3"><c r="A3" t="str"><v>绿茶|红茶</v></c><c r="B3"><v>3</v></c></row>',
      ]),
    },
    { name: 'docProps/core.xml', data: coreXml('Отчёт о продажах') },
  ]);
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';

function odf(type: string, body: string, title: string, extra: ZipInput[] = []): Buffer {
  return buildZip([
    { name: 'mimetype', data: `application/vnd.oasis.opendocument.${type}`, method: 0 },
    { name: 'content.xml', data: `${XML}<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>` },
    {
      name: 'meta.xml',
      data: `${XML}<office:document-meta ${ODF_NS}><office:meta><dc:title>${esc(title)}</dc:title><meta:initial-creator>Ли Вэй</meta:initial-creator></office:meta></office:document-meta>`,
    },
    ...extra,
  ]);
}

const odfTable = (rows: string[][]): string =>
  `<table:table table:name="T"><table:table-column table:number-columns-repeated="${rows[0]!.length}"/>${rows
    .map((r) => `<table:table-row>${r.map((c) => `<table:table-cell><text:p>${esc(c)}</text:p></table:table-cell>`).join('')}</table:table-row>`)
    .join('')}</table:table>`;

/** Report.odt: headings on two levels, paragraphs with spaces and a footnote, a list, a table (Russian and Chinese). */
export function odtFixture(extra: ZipInput[] = []): Buffer {
  const body = `<office:text>
<text:h text:outline-level="1">Таможенное оформление</text:h>
<text:p>Декларация подаётся<text:s text:c="2"/>до прибытия товара.<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>См. статью 104.</text:p></text:note-body></text:note></text:p>
<text:h text:outline-level="2">海关申报</text:h>
<text:p>所有进口货物必须申报。</text:p>
<text:list><text:list-item><text:p>Invoice</text:p></text:list-item><text:list-item><text:p>Packing list</text:p></text:list-item></text:list>
${odfTable([
  ['Документ', 'Срок'],
  ['Декларация', '3 дня'],
  ['许可证', '5天'],
])}
<text:p>After the table.</text:p>
</office:text>`;
  return odf('text', body, 'Отчёт ODT', extra);
}

export function odtEncryptedFixture(): Buffer {
  return odtFixture([
    {
      name: 'META-INF/manifest.xml',
      data: `${XML}<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1"/></manifest:file-entry></manifest:manifest>`,
    },
  ]);
}

/** Budget.ods: a sheet with a date cell, a repeated row and empty cells repeated to the sheet's edge; a Chinese sheet. */
export function odsFixture(): Buffer {
  const cell = (t: string, attrs = ''): string => `<table:table-cell${attrs}><text:p>${esc(t)}</text:p></table:table-cell>`;
  const edge = '<table:table-cell table:number-columns-repeated="16380"/>';
  const body = `<office:spreadsheet>
<table:table table:name="Бюджет">
<table:table-row>${cell('Статья')}${cell('Сумма')}${cell('Дата')}${edge}</table:table-row>
<table:table-row>${cell('Аренда')}${cell('1 200,00 ₽', ' office:value-type="float" office:value="1200"')}${cell('01.02.2024', ' office:value-type="date" office:date-value="2024-02-01"')}${edge}</table:table-row>
<table:table-row table:number-rows-repeated="3">${cell('Связь')}${cell('300')}${edge}</table:table-row>
<table:table-row table:number-rows-repeated="1048000">${edge}</table:table-row>
</table:table>
<table:table table:name="预算"><table:table-row>${cell('项目')}${cell('金额')}</table:table-row><table:table-row>${cell('租金')}${cell('800')}</table:table-row></table:table>
</office:spreadsheet>`;
  return odf('spreadsheet', body, 'Бюджет 2024');
}

/** Deck.odp: two slides with titles, body text, a table and speaker notes. */
export function odpFixture(): Buffer {
  const frame = (cls: string, text: string): string =>
    `<draw:frame presentation:class="${cls}"><draw:text-box><text:p>${esc(text)}</text:p></draw:text-box></draw:frame>`;
  const body = `<office:presentation>
<draw:page draw:name="p1">${frame('title', 'Обзор рынка')}${frame('outline', 'Рост импорта на 12 %')}<presentation:notes>${frame('notes', 'Сказать про санкции.')}</presentation:notes></draw:page>
<draw:page draw:name="p2">${frame('title', '市场概况')}<draw:frame><table:table>${odfTable([
    ['国家', '份额'],
    ['中国', '40%'],
  ]).replace(/^<table:table[^>]*>|<\/table:table>$/g, '')}</table:table></draw:frame></draw:page>
</office:presentation>`;
  return odf('presentation', body, 'Обзор');
}

/** Deck.pptx: slide 1 (title, body, notes in Russian), slide 2 (Chinese title, a table), slide numbers left out. */
export function pptxFixture(): Buffer {
  const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
  const sp = (ph: string | undefined, paras: string[]): string =>
    `<p:sp><p:nvSpPr><p:nvPr>${ph ? `<p:ph type="${ph}"/>` : ''}</p:nvPr></p:nvSpPr><p:txBody>${paras
      .map((t) => `<a:p><a:r><a:t>${esc(t)}</a:t></a:r></a:p>`)
      .join('')}</p:txBody></p:sp>`;
  const slide = (shapes: string): string => `${XML}<p:sld ${P}><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>`;
  const table = `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>城市</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>销量</a:t></a:r></a:p></a:txBody></a:tc></a:tr><a:tr><a:tc><a:txBody><a:p><a:r><a:t>上海</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>120</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
  return buildZip([
    { name: '[Content_Types].xml', data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>` },
    {
      name: 'ppt/presentation.xml',
      data: `${XML}<p:presentation ${P} xmlns:r="${R}"><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId8"/></p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: rels([
        ['rId7', 'slide', 'slides/slide1.xml'],
        ['rId8', 'slide', 'slides/slide2.xml'],
      ]),
    },
    {
      name: 'ppt/slides/slide1.xml',
      data: slide(sp('title', ['Импорт в 2024 году']) + sp(undefined, ['Рост на 12 %', 'Новые правила']) + sp('sldNum', ['1'])),
    },
    { name: 'ppt/slides/_rels/slide1.xml.rels', data: rels([['rId2', 'notesSlide', '../notesSlides/notesSlide1.xml']]) },
    { name: 'ppt/notesSlides/notesSlide1.xml', data: slide(sp('sldImg', []) + sp('body', ['Напомнить о сроках декларации.']) + sp('sldNum', ['1'])) },
    { name: 'ppt/slides/slide2.xml', data: slide(sp('ctrTitle', ['销售概况']) + table) },
    { name: 'docProps/core.xml', data: coreXml('Импорт 2024') },
  ]);
}

/** Book.epub (EPUB 3): two chapters; the second has no heading of its own, its title comes from the navigation. */
export function epubFixture(extra: ZipInput[] = []): Buffer {
  const xhtml = (body: string): string =>
    `${XML}<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>${body}</body></html>`;
  return buildZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    {
      name: 'META-INF/container.xml',
      data: `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    },
    {
      name: 'OEBPS/content.opf',
      data: `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Путешествие на Восток</dc:title><dc:creator>Иван Бунин</dc:creator><dc:language>ru</dc:language></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="text/ch%202.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`,
    },
    {
      name: 'OEBPS/nav.xhtml',
      data: xhtml('<nav epub:type="toc"><ol><li><a href="text/ch1.xhtml">Глава 1. Москва</a></li><li><a href="text/ch%202.xhtml#start">第二章 北京</a></li></ol></nav>'),
    },
    { name: 'OEBPS/text/ch1.xhtml', data: xhtml('<h1>Глава 1. Москва</h1><p>Поезд уходил вечером.</p><h2>Вокзал</h2><p>На вокзале было шумно.</p>') },
    { name: 'OEBPS/text/ch 2.xhtml', data: xhtml('<p>火车在早上到达北京。</p>') },
    ...extra,
  ]);
}

export function epubEncryptedFixture(): Buffer {
  return epubFixture([
    {
      name: 'META-INF/encryption.xml',
      data: `${XML}<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/text/ch1.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`,
    },
  ]);
}

/** Memo.rtf: CP1251 bytes in a Cyrillic font, \u Chinese, a table, \info title and author, skipped destinations. */
export function rtfFixture(): Buffer {
  const cp1251 = (s: string): string =>
    [...iconv.encode(s, 'win1251')].map((b) => (b < 0x80 ? String.fromCharCode(b) : `\\'${b.toString(16)}`)).join('');
  const u = (s: string): string => [...s].map((ch) => `\\u${ch.charCodeAt(0)}?`).join('');
  const src =
    `{\\rtf1\\ansi\\ansicpg1251\\deff0{\\fonttbl{\\f0\\fcharset204 Times New Roman;}{\\f1\\fcharset134 SimSun;}}` +
    `{\\colortbl;\\red0\\green0\\blue0;}{\\stylesheet{\\s1 heading 1;}}` +
    `{\\info{\\title ${cp1251('Служебная записка')}}{\\author ${cp1251('Анна')}}}` +
    `{\\*\\generator Hand;}{\\header Page header text\\par}` +
    `\\pard\\f0 ${cp1251('Таможенный склад')} \\b bold\\b0  and \\{braces\\}.\\par` +
    `\\pard\\f1 ${u('海关仓库')}\\par` +
    `{\\pict\\pngblip 89504e470d0a1a0a}` +
    `\\trowd\\cellx2000\\cellx4000\\pard\\intbl Item\\cell Qty\\cell\\row` +
    `\\trowd\\cellx2000\\cellx4000\\pard\\intbl\\f0 ${cp1251('Чай')}\\cell 10\\cell\\row` +
    `\\pard After the table\\line second line.\\par}`;
  return Buffer.from(src, 'latin1');
}

/** Prices.csv: semicolons, a quoted field with the delimiter, a quote and a line break; Russian and Chinese. */
export function csvFixture(): Buffer {
  return Buffer.from('Товар;Цена;Примечание\n"Чай; зелёный";120;"сказал ""да""\nи ушёл"\n茶叶;80;中国\n\nКофе;200;\n', 'utf8');
}

/** A password-protected Office file: an OLE container holding an EncryptedPackage stream (what Office writes). */
export function encryptedOfficeFixture(): Buffer {
  const head = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  return Buffer.concat([head, Buffer.alloc(504), Buffer.from('EncryptionInfo', 'utf16le'), Buffer.alloc(64), Buffer.from('EncryptedPackage', 'utf16le'), Buffer.alloc(1024, 7)]);
}

/** A zip bomb in the shape of `format`'s package: its main XML part inflates from ~50 KB to 50 MB of spaces. */
export function zipBombFixture(mainPart: string, mimetype?: string): Buffer {
  return buildZip([
    ...(mimetype ? [{ name: 'mimetype', data: mimetype, method: 0 as const }] : []),
    { name: mainPart, data: Buffer.alloc(50 * 1024 * 1024, 0x20) },
  ]);
}
