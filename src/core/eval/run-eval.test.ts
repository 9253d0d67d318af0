import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createModelManager } from '../embed/model-manager.js';
import type { ModelManager } from '../embed/types.js';
import { fixtureModels, tempDir } from '../test-support.js';
import { prng } from '../util/prng.js';
import { runEval, type EvalDoc } from './run-eval.js';
import type { Core } from '../core.js';

/**
 * The evaluation's correctness on a small BEIR-layout collection made here (SciFact-sized runs are in the
 * bench): documents added one per call rank exactly as the bulk-indexed collection, and a collection split
 * over two KBs (alternating doc ids) ranks as one KB, in full-text and hybrid mode.
 */

const TOPICS: Record<string, string[]> = {
  harbour: ['crane', 'berth', 'quay', 'container', 'vessel', 'tug', 'pilot', 'anchor'],
  customs: ['declaration', 'tariff', 'duty', 'broker', 'invoice', 'origin', 'inspection', 'bond'],
  react: ['render', 'hook', 'state', 'component', 'suspense', 'transition', 'fiber', 'effect'],
  cardio: ['heart', 'artery', 'pressure', 'cholesterol', 'stroke', 'pulse', 'valve', 'rhythm'],
  coffee: ['roast', 'bean', 'espresso', 'grinder', 'crema', 'brew', 'arabica', 'kettle'],
  weather: ['cloud', 'storm', 'rain', 'humidity', 'front', 'gust', 'drizzle', 'forecast'],
};
const COMMON = ['the', 'report', 'notes', 'daily', 'figures', 'team', 'review', 'record', 'system', 'plan'];

let dataset: string;
let models: ModelManager;
let model: string;

function writeCollection(dir: string): void {
  const rand = prng(11);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const topics = Object.keys(TOPICS);
  const corpus: string[] = [];
  const byTopic = new Map<string, string[]>();
  for (let i = 0; i < 90; i++) {
    const topic = topics[i % topics.length]!;
    const words = Array.from({ length: 12 + Math.floor(rand() * 40) }, () => (rand() < 0.55 ? pick(TOPICS[topic]!) : pick(COMMON)));
    const id = `d${i}`;
    corpus.push(JSON.stringify({ _id: id, title: `${topic} ${pick(TOPICS[topic]!)}`, text: words.join(' ') }));
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), id]);
  }
  const queries: string[] = [];
  const qrels = ['query-id\tcorpus-id\tscore'];
  for (let q = 0; q < 24; q++) {
    const topic = topics[q % topics.length]!;
    queries.push(JSON.stringify({ _id: `q${q}`, text: `${pick(TOPICS[topic]!)} ${pick(TOPICS[topic]!)} ${pick(COMMON)}` }));
    for (const id of byTopic.get(topic)!.slice(q % 3, (q % 3) + 5)) qrels.push(`q${q}\t${id}\t1`);
  }
  fs.mkdirSync(path.join(dir, 'qrels'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'corpus.jsonl'), `${corpus.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'queries.jsonl'), `${queries.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'qrels', 'test.tsv'), `${qrels.join('\n')}\n`);
}

/** One addDocument call per document, and no upkeep afterwards: the index as a stream of writes leaves it. */
async function oneByOne(core: Core, kbId: string, docs: EvalDoc[]): Promise<void> {
  for (const d of docs) await core.client.addDocument({ kb_id: kbId, ...d });
}

beforeAll(async () => {
  dataset = path.join(tempDir('ragdesk-tiny-beir-'), 'tiny');
  writeCollection(dataset);
  ({ model } = await fixtureModels());
  models = createModelManager({ dataDir: tempDir(), allowDownload: false });
}, 60_000);

const ndcg = (reports: Array<{ mode: string; ndcg_at_10: number }>, mode: string) => reports.find((r) => r.mode === mode)!.ndcg_at_10;

describe('ragdesk eval', () => {
  it('one document per call ranks exactly as bulk indexing (fts and hybrid)', async () => {
    const base = { dataset, model, models, modes: ['fts', 'hybrid'] as const };
    const bulk = await runEval({ ...base, modes: [...base.modes] });
    const single = await runEval({ ...base, modes: [...base.modes], ingest: oneByOne });
    expect(ndcg(bulk, 'fts')).toBeGreaterThan(0.3);
    expect(ndcg(single, 'fts')).toBeCloseTo(ndcg(bulk, 'fts'), 4);
    expect(ndcg(single, 'hybrid')).toBeCloseTo(ndcg(bulk, 'hybrid'), 4);
  }, 120_000);

  it('a collection split over two KBs scores as one KB (--split-kbs 2)', async () => {
    const base = { dataset, model, models, modes: ['fts', 'hybrid'] as Array<'fts' | 'hybrid'> };
    const one = await runEval(base);
    const two = await runEval({ ...base, splitKbs: 2 });
    expect(two.every((r) => r.kbs === 2)).toBe(true);
    expect(ndcg(two, 'fts')).toBeCloseTo(ndcg(one, 'fts'), 4);
    expect(Math.abs(ndcg(two, 'hybrid') - ndcg(one, 'hybrid'))).toBeLessThanOrEqual(0.01);
  }, 120_000);

  it('reads each ranking only as deep as --candidates says, and reports the depth', async () => {
    const base = { dataset, model, models, modes: ['fts', 'hybrid'] as Array<'fts' | 'hybrid'> };
    const deep = await runEval(base);
    const shallow = await runEval({ ...base, candidates: 3 });
    expect(deep.every((r) => r.candidates === undefined)).toBe(true);
    expect(shallow.every((r) => r.candidates === 3)).toBe(true);
    for (const r of shallow) {
      // every query has 5 relevant documents: 3 read can find 3 of them at most
      expect(r.recall_at_100).toBeLessThanOrEqual(0.6);
      expect(r.recall_at_100).toBeLessThan(deep.find((d) => d.mode === r.mode)!.recall_at_100);
    }
  }, 120_000);
});
