import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env, pipeline, type Tensor } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import type { ModelState } from '../../shared/contract/index.js';
import { buildFixtureModel } from './fixture-model.js';
import {
  checkLocal,
  classifyLoadError,
  createProgressMapper,
  localTokenizerDir,
  missingFailure,
  ORT_SESSION_OPTIONS,
  pickDtype,
} from './loader.js';
import { resolveModelSpec } from './model-spec.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-loader-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const FULL = { 'config.json': '{}', 'tokenizer.json': '{}', 'tokenizer_config.json': '{}' };

describe('pickDtype / checkLocal', () => {
  it('loads fp32 from a folder unless the config or the files say otherwise', () => {
    expect(pickDtype(folder({ ...FULL, 'onnx/model.onnx': 'x', 'onnx/model_quantized.onnx': 'x' }))).toBe('fp32');
    expect(pickDtype(folder({ ...FULL, 'onnx/model_quantized.onnx': 'x' }))).toBe('q8');
    const cfg = JSON.stringify({ 'transformers.js_config': { dtype: 'q8' } });
    expect(pickDtype(folder({ ...FULL, 'config.json': cfg, 'onnx/model.onnx': 'x', 'onnx/model_quantized.onnx': 'x' }))).toBe('q8');
    // the config names a file that is not there: fall back to what is
    expect(pickDtype(folder({ ...FULL, 'config.json': cfg, 'onnx/model.onnx': 'x' }))).toBe('fp32');
    expect(pickDtype(folder(FULL), 'q8')).toBe('q8');
  });

  it('reports a complete folder, and what an incomplete one lacks', () => {
    const ok = folder({ ...FULL, 'onnx/model.onnx': 'x' });
    expect(checkLocal(resolveModelSpec(ok, 'embedding'), '/nowhere')).toEqual({ dir: ok, complete: true, missing: [], dtype: 'fp32' });
    const partial = folder({ 'config.json': '{}' });
    const check = checkLocal(resolveModelSpec(partial, 'embedding'), '/nowhere');
    expect(check.complete).toBe(false);
    expect(check.missing).toEqual(['tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']);
  });

  it('looks for hub models in <cacheDir>/<owner>/<name> with the preset dtype', () => {
    const cache = folder({});
    const spec = resolveModelSpec('english', 'embedding');
    expect(checkLocal(spec, cache)).toMatchObject({ dir: path.join(cache, 'Xenova/all-MiniLM-L6-v2'), complete: false, dtype: 'q8' });
    expect(checkLocal(spec, cache).missing).toContain('onnx/model_quantized.onnx');
    expect(localTokenizerDir(spec, cache)).toBeUndefined();
    for (const [f, c] of Object.entries({ ...FULL, 'onnx/model_quantized.onnx': 'x' })) {
      mkdirSync(path.dirname(path.join(cache, 'Xenova/all-MiniLM-L6-v2', f)), { recursive: true });
      writeFileSync(path.join(cache, 'Xenova/all-MiniLM-L6-v2', f), c);
    }
    expect(checkLocal(spec, cache).complete).toBe(true);
    expect(localTokenizerDir(spec, cache)).toBe(path.join(cache, 'Xenova/all-MiniLM-L6-v2'));
  });
});

describe('createProgressMapper', () => {
  const collect = (downloading: boolean) => {
    const events: [ModelState, number | undefined, string | undefined][] = [];
    const map = createProgressMapper(downloading, (s, p, f) => events.push([s, p, f]));
    return { events, map };
  };

  it('turns transformers.js download progress into 0..1 downloading events with the file name', () => {
    const { events, map } = collect(true);
    map({ status: 'initiate', file: 'config.json' });
    map({ status: 'download', file: 'onnx/model_quantized.onnx' });
    map({ status: 'progress', file: 'onnx/model_quantized.onnx', progress: 10 });
    map({ status: 'progress_total', progress: 10 });
    map({ status: 'progress_total', progress: 10.4 }); // under 1% step: thinned out
    map({ status: 'progress', file: 'onnx/model_quantized.onnx', progress: 60 }); // totals win once seen
    map({ status: 'progress_total', progress: 55.5 });
    map({ status: 'progress_total', progress: 100 });
    map({ status: 'progress_total', progress: 100 });
    map({ status: 'done', file: 'onnx/model_quantized.onnx' });
    map({ status: 'ready' });
    expect(events).toEqual([
      ['downloading', 0.1, 'onnx/model_quantized.onnx'],
      ['downloading', 0.555, 'onnx/model_quantized.onnx'],
      ['downloading', 1, 'onnx/model_quantized.onnx'],
    ]);
  });

  it('uses per-file progress when no total is reported', () => {
    const { events, map } = collect(true);
    map({ status: 'progress', file: 'tokenizer.json', progress: 50 });
    map({ status: 'progress', file: 'tokenizer.json', progress: 100 });
    expect(events).toEqual([
      ['downloading', 0.5, 'tokenizer.json'],
      ['downloading', 1, 'tokenizer.json'],
    ]);
  });

  it('reports nothing for loads from disk', () => {
    const { events, map } = collect(false);
    map({ status: 'progress_total', progress: 50 });
    map({ status: 'progress', file: 'onnx/model.onnx', progress: 100 });
    expect(events).toEqual([]);
  });
});

describe('load errors', () => {
  const hub = resolveModelSpec('multilingual', 'embedding');
  const ctx = { spec: hub, dir: '/data/models/Xenova/multilingual-e5-small', cacheDir: '/data/models', allowDownload: true };

  it('says a model is missing and downloads are off, with the files as the cause', () => {
    const f = missingFailure({ ...ctx, allowDownload: false, missing: ['config.json'] });
    expect(f).toMatchObject({ code: 'model_unavailable', state: 'missing' });
    expect(f.message).toBe('model "multilingual" (Xenova/multilingual-e5-small) is not in /data/models and downloads are off');
    expect(f.details?.cause).toContain('config.json');
    const folderSpec = resolveModelSpec('/opt/m', 'embedding');
    expect(missingFailure({ ...ctx, spec: folderSpec, dir: '/opt/m', missing: ['onnx/model.onnx'] }).message).toContain(
      'not a usable model folder',
    );
  });

  it('classifies a failed download as missing', () => {
    const err = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), { code: 'ENOTFOUND' }),
    });
    const f = classifyLoadError(err, ctx);
    expect(f.state).toBe('missing');
    expect(f.message).toMatch(/is not in \/data\/models and the download failed/);
    expect(f.message).toContain('ENOTFOUND');
  });

  it('classifies a file not found (locally or on the hub) as missing', () => {
    const err = Object.assign(new Error('Could not locate file: "https://huggingface.co/x/resolve/main/onnx/model.onnx".'), {
      name: 'ModelFileNotFoundError',
    });
    expect(classifyLoadError(err, ctx).state).toBe('missing');
    expect(classifyLoadError(err, { ...ctx, allowDownload: false }).message).toContain('downloads are off');
  });

  it('classifies anything else as error', () => {
    const f = classifyLoadError(new Error('protobuf parsing failed'), ctx);
    expect(f).toMatchObject({ code: 'model_unavailable', state: 'error' });
    expect(f.message).toContain('failed to load: protobuf parsing failed');
  });
});

describe('ORT_SESSION_OPTIONS', () => {
  it('turns spin-waiting off and reaches onnxruntime through transformers.js with the same vectors', async () => {
    expect(ORT_SESSION_OPTIONS.extra.session.intra_op.allow_spinning).toBe('0');
    expect(ORT_SESSION_OPTIONS.extra.session.inter_op.allow_spinning).toBe('0');
    const model = await buildFixtureModel(mkdtempSync(path.join(os.tmpdir(), 'ragdesk-ort-options-')));
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    const texts = ['customs clearance of a parcel', 'таможенное оформление', '海关清关'];
    const vectors: number[][] = [];
    for (const session_options of [undefined, ORT_SESSION_OPTIONS]) {
      const pipe = await pipeline('feature-extraction', model.dir, {
        local_files_only: true,
        ...(session_options ? { session_options } : {}),
      });
      const out = (await pipe(texts, { pooling: 'mean', normalize: true })) as Tensor;
      vectors.push(Array.from(out.data as Float32Array));
      await pipe.dispose();
    }
    expect(vectors[0]!.length).toBe(texts.length * model.dim);
    expect(vectors[1]).toEqual(vectors[0]);
  });
});
