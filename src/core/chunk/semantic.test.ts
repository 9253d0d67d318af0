import { describe, expect, it } from 'vitest';
import { SEMANTIC_FALLBACK_WARNING, chunkDocument, chunkDocumentWithWarnings } from './index.js';
import { chooseCuts, depthScores, gapSimilarities, percentile } from './semantic.js';
import { expectCoverage, expectValidChunks, textDoc, wordCounter } from './test-support.js';

const DIM = 256;

/** Bag-of-words vectors: each word (or CJK character) hashed (FNV-1a) into one of DIM buckets. */
function bagOfWords(text: string): Float32Array {
  const v = new Float32Array(DIM);
  for (const w of text.toLowerCase().match(/[\p{Script=Han}]|[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0x811c9dc5;
    for (const ch of w) hash = Math.imul(hash ^ (ch.codePointAt(0) as number), 0x01000193) >>> 0;
    v[hash % DIM] = (v[hash % DIM] as number) + 1;
  }
  return v;
}

let embedCalls = 0;
const embed = async (texts: string[]): Promise<Float32Array[]> => {
  embedCalls++;
  return texts.map(bagOfWords);
};

// Two topics with their own vocabulary, as a bag-of-words "model" can tell them apart.
const CATS_EN = [
  'Our cats sleep all day, and the cats purr in the sun.',
  'The cats groom their fur, and clean fur keeps cats happy.',
  'Young cats hunt mice, and the cats chase every toy mouse.',
  'Cats use whiskers to judge gaps, so cats rarely get stuck.',
  'Old cats sleep even more, yet the cats still purr.',
  'Cats mark their home by rubbing fur on furniture.',
];
const ROCKETS_EN = [
  'Rockets burn fuel, and rockets carry payloads to orbit.',
  'A rocket engine pushes exhaust out, so rockets climb to orbit.',
  'Rockets need speed for orbit, and rocket fuel gives that speed.',
  'Rocket stages drop off when the rocket fuel is gone.',
  'Engineers test rocket engines before rockets launch.',
  'Each rocket launch aims for an orbit, and rockets follow a plan.',
];
const CATS_RU = [
  'Кошки спят весь день, и кошки мурлычут.',
  'Кошки вылизывают шерсть, и кошки любят чистую шерсть.',
  'Кошки ловят мышей, и кошки играют с мышами.',
  'Кошки чувствуют щели усами, и кошки не застревают.',
  'Старые кошки спят больше, но кошки мурлычут.',
];
const ROCKETS_RU = [
  'Ракеты сжигают топливо, и ракеты выходят на орбиту.',
  'Двигатель ракеты работает на топливе, и ракета летит на орбиту.',
  'Ракеты набирают скорость, и ракеты выходят на орбиту.',
  'Ступени ракеты отделяются, когда топливо ракеты кончается.',
  'Инженеры испытывают двигатели, и ракеты стартуют на орбиту.',
];
const CATS_ZH = [
  '猫一天大部分时间都在睡觉，猫很懒。',
  '猫用舌头梳理猫毛。',
  '猫感到安全时，猫会发出呼噜声。',
  '小猫看着大猫学习抓老鼠。',
  '猫用胡须测量缝隙，猫很聪明。',
];
const ROCKETS_ZH = [
  '火箭燃烧燃料，把卫星送入轨道。',
  '火箭发动机喷出燃气，火箭升空。',
  '进入轨道需要火箭达到很高的速度。',
  '燃料用完后，火箭各级分离。',
  '工程师在发射前测试火箭发动机。',
];

describe('semantic strategy', () => {
  it.each([
    ['English', CATS_EN, ROCKETS_EN, ' '],
    ['Russian', CATS_RU, ROCKETS_RU, ' '],
    ['Chinese', CATS_ZH, ROCKETS_ZH, ''],
  ])('cuts %s text at the topic boundary', async (_lang, a, b, sep) => {
    const doc = textDoc([...a, ...b].join(sep));
    const { chunks, warnings } = await chunkDocumentWithWarnings(
      doc,
      { strategy: 'semantic', chunk_size: 512, chunk_overlap: 32 },
      { tokenizer: wordCounter, embed },
    );
    expect(warnings).toEqual([]);
    expectValidChunks(doc, chunks, wordCounter, 512);
    expect(chunks.map((c) => c.text)).toEqual([a.join(sep), b.join(sep)]);
  });

  it('keeps chunk_size as a hard maximum inside a topic, without overlap across the cut', async () => {
    const a = [...CATS_EN, ...CATS_EN];
    const doc = textDoc([...a, ...ROCKETS_EN].join(' '));
    const chunks = await chunkDocument(doc, { strategy: 'semantic', chunk_size: 40, chunk_overlap: 12 }, { tokenizer: wordCounter, embed });
    expectValidChunks(doc, chunks, wordCounter, 40);
    expectCoverage(doc, chunks);
    const boundary = doc.text.indexOf(ROCKETS_EN[0]!);
    for (const c of chunks) {
      const crosses = c.location.char_start! < boundary && c.location.char_end! > boundary;
      expect(crosses, c.text).toBe(false);
    }
    expect(chunks.some((c) => c.location.char_start === boundary)).toBe(true);
  });

  it('embeds long documents in batches', async () => {
    embedCalls = 0;
    const sentences = Array.from({ length: 300 }, (_, i) => `Sentence number ${i} talks about cats.`);
    const doc = textDoc(sentences.join(' '));
    await chunkDocument(doc, { strategy: 'semantic', chunk_size: 256, chunk_overlap: 0 }, { tokenizer: wordCounter, embed });
    expect(embedCalls).toBe(3);
  });

  it('falls back to sentence chunking with a warning when there is no embedding model', async () => {
    const doc = textDoc([...CATS_EN, ...ROCKETS_EN].join(' '));
    const config = { strategy: 'semantic' as const, chunk_size: 40, chunk_overlap: 8 };
    const got = await chunkDocumentWithWarnings(doc, config, { tokenizer: wordCounter });
    expect(got.warnings).toEqual([SEMANTIC_FALLBACK_WARNING]);
    const bySentence = await chunkDocument(doc, { ...config, strategy: 'sentence' }, { tokenizer: wordCounter });
    expect(got.chunks).toEqual(bySentence);
  });

  it('falls back with a warning when embedding fails', async () => {
    const doc = textDoc([...CATS_EN, ...ROCKETS_EN].join(' '));
    const failing = async (): Promise<Float32Array[]> => {
      throw new Error('model file missing');
    };
    const got = await chunkDocumentWithWarnings(
      doc,
      { strategy: 'semantic', chunk_size: 512, chunk_overlap: 0 },
      { tokenizer: wordCounter, embed: failing },
    );
    expect(got.warnings).toHaveLength(1);
    expect(got.warnings[0]).toContain('model file missing');
    expect(got.chunks).toHaveLength(1);
  });

  it('does not cut a text with no topic shift when all gaps are alike', () => {
    expect(chooseCuts(depthScores([0.6, 0.6, 0.6, 0.6]))).toEqual(new Set());
    expect(chooseCuts([])).toEqual(new Set());
    expect(percentile([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(percentile([0, 10], 95)).toBeCloseTo(9.5);
  });

  it('cuts at the deepest valley of similarity, not at noise or the ends', () => {
    const sims = [0.1, 0.7, 0.8, 0.75, 0.2, 0.7, 0.8, 0.72, 0.78, 0.3];
    const depths = depthScores(sims);
    expect(depths[4]).toBeCloseTo(0.6 + 0.6);
    expect(depths[0]).toBeCloseTo(0.7); // an end: one side only
    expect(chooseCuts(depths)).toEqual(new Set([4]));
  });

  it('compares windows of sentences across each gap', () => {
    const x = new Float32Array([1, 0]);
    const y = new Float32Array([0, 1]);
    const s = gapSimilarities([x, x, x, y, y, y]);
    expect(s).toHaveLength(5);
    expect(s[2]).toBeCloseTo(0);
    expect(s[0]).toBeCloseTo(1);
    expect(s[1]!).toBeGreaterThan(0);
    expect(s[1]!).toBeLessThan(1);
  });
});
