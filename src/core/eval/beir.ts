import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createGunzip } from 'node:zlib';
import { RagError } from '../../shared/errors.js';
import type { Qrels } from './metrics.js';

export interface BeirDoc {
  _id: string;
  title?: string;
  text: string;
}

export interface BeirDataset {
  name: string;
  dir: string;
  corpus: BeirDoc[];
  queries: Map<string, string>;
  qrels: Qrels;
}

async function readJsonl<T>(file: string): Promise<T[]> {
  const input = file.endsWith('.gz') ? fs.createReadStream(file).pipe(createGunzip()) : fs.createReadStream(file);
  const out: T[] = [];
  for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim()) out.push(JSON.parse(line) as T);
  }
  return out;
}

function firstExisting(dir: string, names: string[]): string {
  const found = names.map((n) => path.join(dir, n)).find((p) => fs.existsSync(p));
  if (!found) throw new RagError('invalid_parameter', `${dir} has none of ${names.join(', ')} (BEIR layout expected)`);
  return found;
}

/** Load a BEIR-layout dataset: corpus.jsonl[.gz], queries.jsonl[.gz], qrels/test.tsv. */
export async function loadBeir(dir: string): Promise<BeirDataset> {
  const abs = path.resolve(dir);
  const corpus = await readJsonl<BeirDoc>(firstExisting(abs, ['corpus.jsonl', 'corpus.jsonl.gz']));
  const queries = new Map(
    (await readJsonl<{ _id: string; text: string }>(firstExisting(abs, ['queries.jsonl', 'queries.jsonl.gz']))).map((q) => [
      String(q._id),
      q.text,
    ]),
  );
  const qrels: Qrels = new Map();
  const lines = fs.readFileSync(firstExisting(abs, ['qrels/test.tsv']), 'utf8').split('\n');
  for (const line of lines.slice(1)) {
    const [q, d, s] = line.trim().split('\t');
    if (!q || !d || !queries.has(q)) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(s));
  }
  // A dataset nested one level (xquad-r/ru) is named with its parent; one directly in a datasets folder by itself.
  const parent = path.basename(path.dirname(abs));
  const name = parent === 'datasets' ? path.basename(abs) : `${parent}/${path.basename(abs)}`;
  return { name, dir: abs, corpus, queries, qrels };
}
