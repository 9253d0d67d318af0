import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { tempDir } from '../test-support.js';
import { buildFixtureModel } from './fixture-model.js';
import { checkModelFolder, copyModelFolder, importTarget, readImports, recordImport } from './model-import.js';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = tempDir('ragdesk-import-');
  model = (await buildFixtureModel(path.join(dir, 'fixture'), { dim: 32 })).dir;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function broken(name: string, change: (d: string) => void): string {
  const d = path.join(dir, name);
  fs.cpSync(model, d, { recursive: true });
  change(d);
  return d;
}

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RagError);
    expect((err as RagError).code).toBe('invalid_parameter');
    return ((err as RagError).details?.problems as string[] | undefined) ?? [(err as Error).message];
  }
  throw new Error('no error');
}

describe('checking a model folder', () => {
  it('accepts a transformers.js folder: config with a dimension, tokenizer, ONNX weights', () => {
    expect(checkModelFolder(model, 'embedding')).toEqual({ dir: model, dtype: 'fp32', onnx: 'onnx/model.onnx', dim: 32 });
  });

  it('names every problem at once', () => {
    const d = broken('broken-all', (b) => {
      fs.rmSync(path.join(b, 'tokenizer.json'));
      fs.writeFileSync(path.join(b, 'tokenizer_config.json'), '{ not json');
      fs.writeFileSync(path.join(b, 'config.json'), JSON.stringify({ model_type: 'bert' }));
      fs.renameSync(path.join(b, 'onnx', 'model.onnx'), path.join(b, 'onnx', 'model_fp16.onnx'));
    });
    const found = problems(() => checkModelFolder(d, 'embedding'));
    expect(found).toHaveLength(4);
    expect(found[0]).toBe('tokenizer.json is missing');
    expect(found[1]).toMatch(/^tokenizer_config\.json is not valid JSON/);
    expect(found[2]).toBe('the ONNX weights onnx/model.onnx are missing (onnx/ holds model_fp16.onnx)');
    expect(found[3]).toBe('config.json names no vector dimension (hidden_size)');
  });

  it('wants the weights a preset loads (8-bit quantized) when the folder is to serve that preset', () => {
    expect(problems(() => checkModelFolder(model, 'embedding', 'q8'))).toEqual([
      'the ONNX weights onnx/model_quantized.onnx are missing (onnx/ holds model.onnx)',
    ]);
  });

  it('refuses what is not a folder, an empty weights file and a tokenizer without a model', () => {
    expect(problems(() => checkModelFolder(path.join(dir, 'nope'), 'embedding'))[0]).toMatch(/does not exist/);
    expect(problems(() => checkModelFolder(path.join(model, 'config.json'), 'embedding'))[0]).toMatch(/is a file, not a model folder/);
    const empty = broken('empty-weights', (b) => fs.writeFileSync(path.join(b, 'onnx', 'model.onnx'), ''));
    expect(problems(() => checkModelFolder(empty, 'embedding'))).toEqual(['onnx/model.onnx is empty']);
    const noModel = broken('no-tokenizer-model', (b) => fs.writeFileSync(path.join(b, 'tokenizer.json'), '{"version":"1.0"}'));
    expect(problems(() => checkModelFolder(noModel, 'embedding'))).toEqual(['tokenizer.json has no tokenizer model']);
  });
});

describe('where an import goes', () => {
  it('serves a preset when the folder is that preset’s model (by name, hub id or hub cache snapshot)', () => {
    expect(importTarget('/m/multilingual-e5-small', 'embedding')).toMatchObject({
      model: 'multilingual',
      id: 'Xenova/multilingual-e5-small',
    });
    expect(importTarget('/m/All-MiniLM-L6-v2', 'embedding')).toMatchObject({ model: 'english', id: 'Xenova/all-MiniLM-L6-v2' });
    expect(importTarget('/c/hub/models--Xenova--ms-marco-MiniLM-L-6-v2/snapshots/abc123', 'rerank')).toMatchObject({
      model: 'rerank',
      id: 'Xenova/ms-marco-MiniLM-L-6-v2',
    });
    // The reranker's folder imported as an embedding model is not the preset.
    expect(importTarget('/m/ms-marco-MiniLM-L-6-v2', 'embedding')).toEqual({
      model: 'local/ms-marco-MiniLM-L-6-v2',
      id: 'local/ms-marco-MiniLM-L-6-v2',
    });
  });

  it('becomes local/<folder name> otherwise, or what `as` says', () => {
    expect(importTarget('/m/potion-base-4M-int8', 'embedding')).toEqual({
      model: 'local/potion-base-4M-int8',
      id: 'local/potion-base-4M-int8',
    });
    expect(importTarget('/m/My Model (v2)', 'embedding').model).toBe('local/My-Model-v2');
    expect(importTarget('/m/whatever', 'embedding', 'english')).toMatchObject({ model: 'english', id: 'Xenova/all-MiniLM-L6-v2' });
    expect(importTarget('/m/whatever', 'embedding', 'team-e5')).toEqual({ model: 'local/team-e5', id: 'local/team-e5' });
    expect(() => importTarget('/m/whatever', 'embedding', 'rerank')).toThrow(/rerank preset, not a embedding model/);
    expect(() => importTarget('/m/whatever', 'embedding', '../../etc')).toThrow(/cannot name a model/);
  });
});

describe('copying a model folder into the data dir', () => {
  it('copies the files a load needs (not other weights), replaces only when asked, and undoes', () => {
    const src = broken('with-extras', (b) => {
      fs.writeFileSync(path.join(b, 'onnx', 'model_q4.onnx'), 'other weights');
      fs.writeFileSync(path.join(b, 'README.md'), '# model card');
    });
    const dest = path.join(dir, 'data', 'models', 'local', 'fixture');
    const first = copyModelFolder(src, dest, 'onnx/model.onnx', { replace: false, imported: false });
    first.commit();
    expect(fs.readdirSync(dest).sort()).toEqual(['README.md', 'config.json', 'onnx', 'tokenizer.json', 'tokenizer_config.json']);
    expect(fs.readdirSync(path.join(dest, 'onnx'))).toEqual(['model.onnx']);
    expect(first).toMatchObject({ files: 5, replaced: false });
    expect(first.bytes).toBeGreaterThan(fs.statSync(path.join(src, 'onnx', 'model.onnx')).size);

    expect(() => copyModelFolder(src, dest, 'onnx/model.onnx', { replace: false, imported: true })).toThrow(/already imported/);
    fs.writeFileSync(path.join(dest, 'marker'), 'old');
    const again = copyModelFolder(src, dest, 'onnx/model.onnx', { replace: true, imported: true });
    expect(again.replaced).toBe(true);
    expect(fs.existsSync(path.join(dest, 'marker'))).toBe(false);
    again.undo();
    expect(fs.readFileSync(path.join(dest, 'marker'), 'utf8')).toBe('old');
    expect(fs.readdirSync(path.dirname(dest))).toEqual(['fixture']);
  });

  it('records imports in imported.json', () => {
    const models = path.join(dir, 'records');
    expect(readImports(models)).toEqual({});
    const record = {
      model: 'local/x',
      kind: 'embedding' as const,
      source_dir: '/src/x',
      imported_at: '2026-01-01T00:00:00.000Z',
      dtype: 'fp32',
      dim: 32,
    };
    recordImport(models, 'local/x', record);
    recordImport(models, 'Xenova/all-MiniLM-L6-v2', { ...record, model: 'english' });
    expect(Object.keys(readImports(models))).toEqual(['local/x', 'Xenova/all-MiniLM-L6-v2']);
    expect(readImports(models)['local/x']).toEqual(record);
  });

  it('reads imported.json again once it is replaced, and hands out copies of what it read', () => {
    const models = path.join(dir, 'reread');
    const record = {
      model: 'local/y',
      kind: 'embedding' as const,
      source_dir: '/y',
      imported_at: '2026-01-01T00:00:00.000Z',
      dtype: 'fp32',
      dim: 8,
    };
    recordImport(models, 'local/y', record);
    const first = readImports(models);
    delete first['local/y'];
    expect(Object.keys(readImports(models))).toEqual(['local/y']);
    // Another process replaces the file (an atomic rename, as recordImport does): the next read sees it.
    const file = path.join(models, 'imported.json');
    const tmp = `${file}.other`;
    fs.writeFileSync(tmp, JSON.stringify({ 'local/z': { ...record, model: 'local/z' } }));
    fs.renameSync(tmp, file);
    expect(Object.keys(readImports(models))).toEqual(['local/z']);
    fs.rmSync(file);
    expect(readImports(models)).toEqual({});
  });
});
