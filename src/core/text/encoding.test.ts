import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText, detectBom, detectUtf16WithoutBom } from './encoding.js';

const RU_SHORT = [
  'Таможня',
  'Привет, мир',
  'Возврат товара',
  'Таможенные пошлины и сборы',
  'ТАМОЖЕННЫЙ КОДЕКС ЕАЭС',
  'Счёт от 3 марта, ООО Ромашка',
];
const RU_LONG =
  'Таможенное оформление товаров начинается с подачи декларации. Декларант обязан указать код товара, страну ' +
  'происхождения и таможенную стоимость. Если документы оформлены неправильно, таможня вправе отказать в выпуске.\r\n' +
  'Возврат бракованного товара поставщику оформляется как реэкспорт, и пошлины могут быть возвращены.\r\n';
const ZH_SHORT = ['海关', '退货', '退货政策', '产品安全', '第一章 总则', '海关申报流程'];
const ZH_LONG =
  '所有进口货物必须在到港前向海关申报。报关员需要提供商业发票、装箱单和原产地证明。\n' +
  '如果货物存在质量问题，客户可以在三十天内申请退货。退货商品应保持原包装，运费由责任方承担。\n';

describe('decodeText: Unicode', () => {
  it('decodes plain ASCII English as UTF-8', () => {
    const r = decodeText(new TextEncoder().encode('Hello world.\nShipping terms: FOB Shanghai.'));
    expect(r.text).toBe('Hello world.\nShipping terms: FOB Shanghai.');
    expect(r.encoding).toBe('utf-8');
  });

  it('decodes UTF-8 without BOM in every script, including short strings', () => {
    for (const s of ['café', 'Größe', 'да', '海', '«таможня»', RU_LONG.replace(/\r/g, ''), ZH_LONG, '😀 ok']) {
      const r = decodeText(new TextEncoder().encode(s));
      expect(r.text).toBe(s);
      expect(r.encoding).toBe('utf-8');
    }
  });

  it('strips a UTF-8 BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Таможня и 海关')]);
    const r = decodeText(bytes);
    expect(r).toMatchObject({ text: 'Таможня и 海关', encoding: 'utf-8', confidence: 1 });
  });

  it('decodes UTF-16 LE and BE with a BOM', () => {
    const le = iconv.encode('Таможня 海关 customs\r\nline two', 'utf-16le', { addBOM: true });
    expect(detectBom(le)).toEqual({ encoding: 'utf-16le', length: 2 });
    expect(decodeText(le)).toMatchObject({ text: 'Таможня 海关 customs\nline two', encoding: 'utf-16le' });
    const be = iconv.encode('Таможня 海关 customs', 'utf-16be', { addBOM: true });
    expect(decodeText(be)).toMatchObject({ text: 'Таможня 海关 customs', encoding: 'utf-16be' });
  });

  it('decodes UTF-16 without a BOM by its zero-byte lane', () => {
    const le = iconv.encode('Customs declaration: таможенная декларация.', 'utf-16le');
    expect(detectUtf16WithoutBom(le)).toBe('utf-16le');
    expect(decodeText(le).text).toBe('Customs declaration: таможенная декларация.');
    const be = iconv.encode('Returns policy, 30 days.', 'utf-16be');
    expect(decodeText(be)).toMatchObject({ text: 'Returns policy, 30 days.', encoding: 'utf-16be' });
  });

  it('normalises line endings and strips NUL', () => {
    const r = decodeText(new TextEncoder().encode('a\r\nb\rc\0d\n'));
    expect(r.text).toBe('a\nb\ncd\n');
  });

  it('keeps mostly-valid UTF-8 with a broken byte as UTF-8', () => {
    const good = new TextEncoder().encode('Таможенная декларация подаётся заранее. ');
    const bytes = new Uint8Array([...good, 0xff, ...good]);
    const r = decodeText(bytes);
    expect(r.encoding).toBe('utf-8');
    expect(r.text).toContain('Таможенная декларация');
  });

  it('returns an empty string for no bytes', () => {
    expect(decodeText(new Uint8Array())).toMatchObject({ text: '', encoding: 'utf-8' });
  });
});

describe('decodeText: legacy Cyrillic', () => {
  for (const enc of ['windows-1251', 'koi8-r'] as const) {
    it(`decodes short ${enc} Russian`, () => {
      for (const s of RU_SHORT) {
        const r = decodeText(iconv.encode(s, enc));
        expect(r.text, `${enc}: ${s}`).toBe(s);
        expect(r.encoding).toBe(enc);
      }
    });

    it(`decodes long ${enc} Russian with CRLF`, () => {
      const r = decodeText(iconv.encode(RU_LONG, enc));
      expect(r.encoding).toBe(enc);
      expect(r.text).toBe(RU_LONG.replace(/\r\n/g, '\n'));
      expect(r.confidence).toBeGreaterThan(0.8);
    });
  }

  it('tells CP1251 from KOI8-R on every window of a Russian paragraph', () => {
    const words = RU_LONG.replace(/\r\n/g, ' ').split(/\s+/).filter(Boolean);
    let failures = 0;
    let total = 0;
    for (const n of [2, 3, 5]) {
      for (let i = 0; i + n <= words.length; i++) {
        const s = words.slice(i, i + n).join(' ');
        for (const enc of ['windows-1251', 'koi8-r']) {
          total++;
          if (decodeText(iconv.encode(s, enc)).text !== s) failures++;
        }
      }
    }
    expect(failures / total).toBeLessThan(0.02);
  });
});

describe('decodeText: Chinese GBK / GB18030', () => {
  for (const enc of ['gbk', 'gb18030'] as const) {
    it(`decodes short ${enc} Chinese`, () => {
      for (const s of ZH_SHORT) {
        const r = decodeText(iconv.encode(s, enc));
        expect(r.text, `${enc}: ${s}`).toBe(s);
        expect(r.encoding).toBe('gb18030');
      }
    });

    it(`decodes long ${enc} Chinese`, () => {
      const r = decodeText(iconv.encode(ZH_LONG, enc));
      expect(r).toMatchObject({ text: ZH_LONG, encoding: 'gb18030' });
    });
  }

  it('decodes characters that only GB18030 (four-byte) can encode', () => {
    const s = '海关编码 𠀀 与 € 符号';
    const bytes = iconv.encode(s, 'gb18030');
    expect(decodeText(bytes).text).toBe(s);
  });

  it('decodes mixed Chinese, English and digits', () => {
    const s = '订单号 PO-2024-117：FOB 上海，海关编码 8471.30，退货期限 30 天。';
    expect(decodeText(iconv.encode(s, 'gbk')).text).toBe(s);
  });
});

describe('decodeText: Western legacy text is not mistaken for Cyrillic or Chinese', () => {
  it('decodes windows-1252 French and German', () => {
    for (const s of ['Café au lait, crème brûlée et déjà vu.', 'Die Größe der Straße ist übermäßig.']) {
      const r = decodeText(iconv.encode(s, 'windows-1252'));
      expect(r.text).toBe(s);
    }
  });
});
