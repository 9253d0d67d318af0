import chardet from 'chardet';
import iconv from 'iconv-lite';

/**
 * Turns the bytes of a text file into a string, whatever its encoding:
 * 1. a byte-order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE) wins;
 * 2. UTF-16 without a BOM, recognised by zero bytes sitting in one byte lane;
 * 3. valid UTF-8 (which includes plain ASCII);
 * 4. mostly-valid UTF-8 with a few broken bytes stays UTF-8;
 * 5. legacy encodings: `chardet` proposes candidates, and each candidate decoding (always including
 *    windows-1251, KOI8-R, CP866 and GB18030) is scored by how plausible the resulting text is — Russian letter
 *    frequencies and letter case for Cyrillic, GB2312 level-1 (the 3755 most common characters) for Chinese,
 *    heavy penalties for replacement characters, control codes, box drawing and mixed-script words.
 *    chardet's own confidence is only a small prior, so it cannot confuse CP1251 with KOI8-R or call short
 *    Russian text windows-1252.
 * The result has `\n` line endings and no NUL characters.
 */
export interface DecodedText {
  text: string;
  /** The encoding used, lower-case iconv-lite name: utf-8, utf-16le, utf-16be, windows-1251, koi8-r, gb18030... */
  encoding: string;
  /** 0..1: how sure the detection is (1 for a BOM or valid UTF-8). */
  confidence?: number;
}

/** Legacy detection looks at this many bytes at most; the whole input is then decoded with the winner. */
const SAMPLE_BYTES = 64 * 1024;
/** Candidates always tried for legacy bytes, besides chardet's proposals. */
const ALWAYS_TRY = ['windows-1251', 'koi8-r', 'cp866', 'gb18030'] as const;
/** chardet names → iconv-lite names we are willing to decode with. */
const CHARDET_TO_ICONV: Record<string, string> = {
  'windows-1250': 'windows-1250',
  'windows-1251': 'windows-1251',
  'windows-1252': 'windows-1252',
  'windows-1253': 'windows-1253',
  'windows-1254': 'windows-1254',
  'windows-1255': 'windows-1255',
  'windows-1256': 'windows-1256',
  'ISO-8859-1': 'iso-8859-1',
  'ISO-8859-2': 'iso-8859-2',
  'ISO-8859-5': 'iso-8859-5',
  'ISO-8859-7': 'iso-8859-7',
  'ISO-8859-9': 'iso-8859-9',
  'KOI8-R': 'koi8-r',
  GB18030: 'gb18030',
  Big5: 'big5',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
};

export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = detectBom(bytes);
  if (bom) return finish(iconv.decode(toBuffer(bytes.subarray(bom.length)), bom.encoding), bom.encoding, 1);
  if (bytes.length === 0) return { text: '', encoding: 'utf-8', confidence: 1 };

  const utf16 = detectUtf16WithoutBom(bytes);
  if (utf16) return finish(iconv.decode(toBuffer(bytes), utf16), utf16, 0.9);

  const utf8 = tryUtf8(bytes);
  if (utf8 !== undefined) {
    // A handful of multi-byte sequences can be valid UTF-8 by chance (two GBK characters often are): let UTF-8
    // compete with the legacy candidates then, with a head start.
    if (countUtf8Sequences(bytes, 4) > 3) return finish(utf8, 'utf-8', 1);
    const legacy = detectLegacyEncoding(bytes, true);
    if (legacy.encoding === 'utf-8') return finish(utf8, 'utf-8', legacy.confidence);
    return finish(iconv.decode(toBuffer(bytes), legacy.encoding), legacy.encoding, legacy.confidence);
  }
  if (mostlyUtf8(bytes)) return finish(new TextDecoder('utf-8').decode(bytes), 'utf-8', 0.6);

  const { encoding, confidence } = detectLegacyEncoding(bytes);
  return finish(iconv.decode(toBuffer(bytes), encoding), encoding, confidence);
}

/** The byte-order mark at the start of `bytes`, if any. */
export function detectBom(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  const [b0, b1, b2, b3] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return { encoding: 'utf-32le', length: 4 };
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return { encoding: 'utf-32be', length: 4 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/**
 * UTF-16 without a BOM: text in any script has spaces, digits, punctuation and newlines, whose high byte is
 * zero, so one byte lane holds many zeros and the other (almost) none.
 */
export function detectUtf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(bytes.length, SAMPLE_BYTES) & ~1;
  if (n < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  const lane = (many: number, few: number): boolean => many >= 2 && many >= pairs * 0.1 && few <= pairs * 0.02 && many > few * 4;
  const candidate = lane(oddZeros, evenZeros) ? 'utf-16le' : lane(evenZeros, oddZeros) ? 'utf-16be' : undefined;
  if (!candidate) return undefined;
  // Confirm: the decoded sample must be text, not e.g. a table of 16-bit integers.
  const sample = iconv.decode(toBuffer(bytes.subarray(0, n)), candidate);
  let bad = 0;
  for (const ch of sample) {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || (c >= 0xd800 && c <= 0xdfff)) bad++;
  }
  return bad <= sample.length * 0.02 ? candidate : undefined;
}

/** Detects a legacy (non-Unicode) encoding; exported for diagnostics and tests. */
export function detectLegacyEncoding(bytes: Uint8Array, includeUtf8 = false): { encoding: string; confidence: number } {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  const highBytes = countHighBytes(sample);
  if (highBytes === 0) return { encoding: 'utf-8', confidence: 1 };

  const prior = new Map<string, number>();
  let matches: { name: string; confidence: number }[] = [];
  try {
    matches = chardet.analyse(sample);
  } catch {
    matches = [];
  }
  for (const m of matches) {
    const name = CHARDET_TO_ICONV[m.name];
    if (name && !prior.has(name)) prior.set(name, m.confidence / 100);
  }
  const candidates = new Set<string>(ALWAYS_TRY);
  if (includeUtf8) {
    candidates.add('utf-8');
    prior.set('utf-8', 0.7);
  }
  // chardet's best guesses join the race (only the top few, so a 10%-confidence Shift_JIS does not).
  for (const m of matches.slice(0, 3)) {
    const name = CHARDET_TO_ICONV[m.name];
    if (name && m.confidence >= 20) candidates.add(name);
  }

  const scored = [...candidates]
    .map((encoding) => {
      const text = iconv.decode(toBuffer(sample), encoding);
      const bitsPerByte = plausibilityCost(text) / highBytes - 1.5 * (prior.get(encoding) ?? 0);
      return { encoding, bitsPerByte };
    })
    .sort((a, b) => a.bitsPerByte - b.bitsPerByte);
  const best = scored[0]!;
  const margin = (scored[1]?.bitsPerByte ?? best.bitsPerByte + 4) - best.bitsPerByte;
  const confidence = Math.round(Math.min(0.99, Math.max(0.3, 0.5 + margin / 6)) * 100) / 100;
  return { encoding: best.encoding, confidence };
}

// ---------------------------------------------------------------------------------------------------------
// Plausibility: an approximate cost in bits of every non-ASCII character of a candidate decoding, under a
// tiny model of "real text". Lower is more plausible. ASCII is identical in every candidate and costs nothing.

/** Russian letter frequencies (per cent), from the national corpus. */
const RUSSIAN_FREQ: Record<string, number> = {
  о: 10.97,
  е: 8.45,
  а: 8.01,
  и: 7.35,
  н: 6.7,
  т: 6.26,
  с: 5.47,
  р: 4.73,
  в: 4.54,
  л: 4.4,
  к: 3.49,
  м: 3.21,
  д: 2.98,
  п: 2.81,
  у: 2.62,
  я: 2.01,
  ы: 1.9,
  ь: 1.74,
  г: 1.7,
  з: 1.65,
  б: 1.59,
  ч: 1.44,
  й: 1.21,
  х: 0.97,
  ж: 0.94,
  ш: 0.73,
  ю: 0.64,
  ц: 0.48,
  щ: 0.36,
  э: 0.32,
  ф: 0.26,
  ъ: 0.04,
  ё: 0.2,
};
const RUSSIAN_BITS = new Map(Object.entries(RUSSIAN_FREQ).map(([ch, pct]) => [ch, -Math.log2(pct / 100)]));
/** The most frequent Russian letter pairs: a correct decoding is full of them, a permuted one rarely. */
const RUSSIAN_BIGRAMS = new Set(
  (
    'ст но ен то на ов ни ра во ко по пр ро ер ал ор ли ре ос ле ет ол ва он та ин ес ел ан ка от ла ть ом де не ' +
    'ие ем ит ль ог ми ве ия те ат до од тр ис ны го ой ви да ый ас им ая ло че сл об ег мо ил ее ди ед ам ки ик ' +
    'за же ии ск ят ти чт ше уд ри дн бо вл ей ую ют ар ма нн вы ож ся ут ля ых их св нт зн ча жи ще зо бе бы пе ' +
    'тв кр гр ме ак ус ру ду ту му ку ол ск ен ть ст ью ьс нь ва ра ци ое ом ем ах ях ой ей ую ая яя ую ле ка'
  ).split(' '),
);
/** Bits saved for each frequent pair. */
const BIGRAM_BONUS = 2;
/** Punctuation and symbols that real Russian, Chinese or Western text uses. */
const COMMON_SYMBOLS = new Set([...'«»–—‘’‚“”„…•·№°§©®™±×÷€\u00a0\u2009\u202f']);

const isLatinLetter = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7);
const isRussianLetter = (c: number): boolean => (c >= 0x410 && c <= 0x44f) || c === 0x401 || c === 0x451;
const isHan = (c: number): boolean => (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff);

/** About 400 of the most frequent Chinese characters (general and business text): cheaper than the rest of level 1. */
const COMMON_HAN = new Set([
  ...('的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从' +
    '知全点但意工已实现度把物体力明正电它表话由外部最各很再并问些向理合政第原情战因长动开身加何走老真相高月本手什被使制间解通员北南东西四五六七八九百千万两民社新气回次位级及特重应题常信提先结资场府教文化机' +
    '务产业品商管领导区市县省运输货海关退税费价格金银钱币贸易口报检验疫质量安标准规求服客户订单司企门负责办申请审核批程序流续件证票据记录料息系统网络平台数内容条况果目影响变展建设销售购买保护持存处罚违反任' +
    '义权利则策措施计划案境世界城域环包装送交付收接受拒绝换维修损坏缺陷查测试认许登注册编号代码类型介绍联邮址期限周钟早晚今昨每哪谁怎样虽且或该必须需够愿希望觉白清楚般别非比较更少短低快慢旧远近左右'),
]);

const hanCache = new Map<string, number>();
/** Cost of a Han character: cheap when it is among the common characters of simplified or traditional use. */
function hanBits(ch: string): number {
  const cached = hanCache.get(ch);
  if (cached !== undefined) return cached;
  let bits = 19;
  const gb = iconv.encode(ch, 'gbk');
  if (gb.length === 2) {
    const [lead, trail] = [gb[0]!, gb[1]!];
    if (trail >= 0xa1 && lead >= 0xb0 && lead <= 0xd7)
      bits = COMMON_HAN.has(ch) ? 7.5 : 10.5; // GB2312 level 1
    else if (trail >= 0xa1 && lead >= 0xd8 && lead <= 0xf7) bits = 15; // GB2312 level 2
  }
  if (bits > 10) {
    const big5 = iconv.encode(ch, 'big5');
    if (big5.length === 2 && big5[0]! >= 0xa4 && big5[0]! <= 0xc6) bits = Math.min(bits, 11);
  }
  hanCache.set(ch, bits);
  return bits;
}

const RUSSIAN_VOWELS = new Set([...'аеёиоуыэюя']);

/** Word-level checks on a run of Cyrillic letters: vowel-less lowercase words and "ABc" case patterns are misdecodings. */
class CyrillicWord {
  length = 0;
  lower = 0;
  vowels = 0;
  upperRun = 0;
  badCase = false;

  add(lower: string, isUpper: boolean): void {
    this.length++;
    if (RUSSIAN_VOWELS.has(lower)) this.vowels++;
    if (isUpper) this.upperRun++;
    else {
      if (this.upperRun >= 2) this.badCase = true;
      this.upperRun = 0;
      this.lower++;
    }
  }

  /** Extra bits for the finished word, and reset. */
  close(): number {
    let bits = 0;
    if (this.lower >= 2 && this.vowels === 0) bits += 8;
    if (this.badCase) bits += 6;
    this.length = this.lower = this.vowels = this.upperRun = 0;
    this.badCase = false;
    return bits;
  }
}

export function plausibilityCost(text: string): number {
  let cost = 0;
  let prev = 0x20;
  let prevLower = '';
  const word = new CyrillicWord();
  // Chinese is written without spaces: a Han character, spaces, then a Han character again is a misdecoding.
  let hanThenSpace = false;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) {
      if (c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) cost += 16;
      hanThenSpace = c === 0x20 && (hanThenSpace || isHan(prev));
      prev = c;
      prevLower = '';
      cost += word.close();
      continue;
    }
    if (hanThenSpace && isHan(c)) cost += 8;
    hanThenSpace = false;
    cost += charCost(ch, c, prev);
    if (isRussianLetter(c)) {
      const lower = ch.toLowerCase();
      if (prevLower && RUSSIAN_BIGRAMS.has(prevLower + lower)) cost -= BIGRAM_BONUS;
      word.add(lower, lower !== ch);
      prevLower = lower;
    } else {
      prevLower = '';
      cost += word.close();
    }
    prev = c;
  }
  return cost + word.close();
}

function charCost(ch: string, c: number, prev: number): number {
  if (c === 0xfffd || (c >= 0x80 && c <= 0x9f) || (c >= 0xe000 && c <= 0xf8ff)) return 24;
  if (isRussianLetter(c)) {
    const lower = ch.toLowerCase();
    let bits = RUSSIAN_BITS.get(lower) ?? 12;
    if (lower !== ch) {
      const prevIsLower = prev !== 0x20 && String.fromCodePoint(prev).toUpperCase() !== String.fromCodePoint(prev);
      bits += prevIsLower ? 10 : isRussianLetter(prev) ? 0.5 : 3;
    }
    if (isLatinLetter(prev)) bits += 12;
    return bits;
  }
  if (c >= 0x400 && c <= 0x4ff) return 12; // other Cyrillic (Ukrainian, Serbian...)
  if (isHan(c)) return hanBits(ch);
  if ((c >= 0x3000 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff5e)) return 6; // CJK punctuation, fullwidth ASCII
  if (c >= 0x3040 && c <= 0x30ff) return 9; // kana
  if (c >= 0xac00 && c <= 0xd7a3) return 10; // Hangul syllables
  if (COMMON_SYMBOLS.has(ch)) return 6;
  if (isLatinLetter(c)) return isRussianLetter(prev) || isHan(prev) ? 18 : 7;
  if (c >= 0x370 && c <= 0x3ff) return 10; // Greek
  if (c >= 0x590 && c <= 0x6ff) return 10; // Hebrew, Arabic
  return 14; // box drawing, halfwidth kana, rare symbols...
}

/** Multi-byte sequences in (valid) UTF-8 (lead bytes 0xC0 and above), counted up to `limit`. */
function countUtf8Sequences(bytes: Uint8Array, limit: number): number {
  let n = 0;
  for (let i = 0; i < bytes.length && n < limit; i++) if (bytes[i]! >= 0xc0) n++;
  return n;
}

function countHighBytes(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b >= 0x80) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------------------

function tryUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** True when at least 95% of the non-ASCII bytes form valid UTF-8 sequences (a file with a few broken bytes). */
function mostlyUtf8(bytes: Uint8Array): boolean {
  let valid = 0;
  let invalid = 0;
  const n = Math.min(bytes.length, SAMPLE_BYTES);
  for (let i = 0; i < n;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = len > 0 && i + len <= n;
    for (let k = 1; ok && k < len; k++) ok = (bytes[i + k]! & 0xc0) === 0x80;
    if (ok) {
      valid += len;
      i += len;
    } else {
      invalid++;
      i++;
    }
  }
  return valid > 0 && invalid <= (valid + invalid) * 0.05;
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Line endings to `\n`, no NUL characters, no stray BOM. */
export function normalizeDecoded(text: string): string {
  let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (out.includes('\r')) out = out.replace(/\r\n?/g, '\n');
  if (out.includes('\0')) out = out.replace(/\0/g, '');
  return out;
}

function finish(text: string, encoding: string, confidence: number): DecodedText {
  return { text: normalizeDecoded(text), encoding, confidence };
}
