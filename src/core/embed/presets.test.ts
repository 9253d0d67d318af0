import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelPresetSchema } from '../../shared/contract/index.js';
import { isHubId, resolveModelSpec, specKey } from './model-spec.js';
import { applyPrefix, DEFAULT_EMBEDDING_PRESET, DEFAULT_RERANK_PRESET, findPreset, listPresets, prefixesFor } from './presets.js';

describe('presets', () => {
  it('lists an English default, a multilingual default and a rerank preset, valid per the contract', () => {
    const presets = listPresets();
    for (const p of presets) expect(() => ModelPresetSchema.parse(p)).not.toThrow();
    expect(presets.map((p) => [p.name, p.model_id, p.kind])).toEqual([
      ['multilingual', 'Xenova/multilingual-e5-small', 'embedding'],
      ['english', 'Xenova/all-MiniLM-L6-v2', 'embedding'],
      ['rerank', 'Xenova/ms-marco-MiniLM-L-6-v2', 'rerank'],
    ]);
    expect(presets.find((p) => p.name === 'multilingual')?.languages).toEqual(expect.arrayContaining(['ru', 'zh']));
    expect(DEFAULT_EMBEDDING_PRESET).toBe('multilingual');
    expect(DEFAULT_RERANK_PRESET).toBe('rerank');
    expect(findPreset('multilingual', 'rerank')).toBeUndefined();
  });
});

describe('prefixes', () => {
  it('gives e5 models query:/passage: prefixes and others none', () => {
    expect(prefixesFor('Xenova/multilingual-e5-small')).toEqual({ query: 'query: ', passage: 'passage: ' });
    expect(prefixesFor('intfloat/e5-base-v2')).toEqual({ query: 'query: ', passage: 'passage: ' });
    expect(prefixesFor('/models/multilingual-e5-large')).toEqual({ query: 'query: ', passage: 'passage: ' });
    expect(prefixesFor('Xenova/all-MiniLM-L6-v2')).toEqual({ query: '', passage: '' });
    expect(prefixesFor('/models/potion-base-4M-int8')).toEqual({ query: '', passage: '' });
    expect(prefixesFor('acme/not-e5-really')).toEqual({ query: '', passage: '' });
  });

  it('applies a prefix once and copies the input', () => {
    const input = ['heart disease', 'query: already'];
    const out = applyPrefix(input, 'query: ');
    expect(out).toEqual(['query: heart disease', 'query: already']);
    expect(input).toEqual(['heart disease', 'query: already']);
    expect(applyPrefix(input, '')).not.toBe(input);
    expect(applyPrefix(input, '')).toEqual(input);
  });
});

describe('resolveModelSpec', () => {
  it('resolves presets to hub ids with their dtype and prefixes', () => {
    const spec = resolveModelSpec('multilingual', 'embedding');
    expect(spec).toMatchObject({
      source: 'hub',
      resolved: 'Xenova/multilingual-e5-small',
      name: 'Xenova/multilingual-e5-small',
      dtype: 'q8',
    });
    expect(spec.prefixes).toEqual({ query: 'query: ', passage: 'passage: ' });
    expect(resolveModelSpec('english', 'embedding').prefixes).toEqual({ query: '', passage: '' });
    expect(resolveModelSpec('rerank', 'rerank').resolved).toBe('Xenova/ms-marco-MiniLM-L-6-v2');
    expect(specKey(spec)).toBe('embedding:Xenova/multilingual-e5-small');
  });

  it('treats absolute and ./ paths as folders loaded by basename from their parent', () => {
    const abs = resolveModelSpec('/opt/models/my-model', 'embedding');
    expect(abs).toMatchObject({ source: 'folder', resolved: '/opt/models/my-model', name: 'my-model', localModelPath: '/opt/models' });
    expect(abs.dtype).toBeUndefined();
    const rel = resolveModelSpec('./models/e5-small-local', 'embedding', '/work');
    expect(rel).toMatchObject({
      source: 'folder',
      resolved: '/work/models/e5-small-local',
      name: 'e5-small-local',
      localModelPath: '/work/models',
    });
    expect(rel.prefixes.query).toBe('query: ');
  });

  it('passes folders whose name transformers.js would not accept as full paths', () => {
    const spec = resolveModelSpec('/opt/my models/a b', 'embedding');
    expect(spec).toMatchObject({ source: 'folder', resolved: '/opt/my models/a b', name: '/opt/my models/a b' });
    expect(spec.localModelPath).toBeUndefined();
  });

  it('prefers an existing relative folder with config.json over a hub id of the same spelling', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-spec-'));
    mkdirSync(path.join(root, 'acme', 'model'), { recursive: true });
    writeFileSync(path.join(root, 'acme', 'model', 'config.json'), '{}');
    expect(resolveModelSpec('acme/model', 'embedding', root)).toMatchObject({
      source: 'folder',
      resolved: path.join(root, 'acme', 'model'),
    });
    expect(resolveModelSpec('acme/other', 'embedding', root)).toMatchObject({ source: 'hub', resolved: 'acme/other', name: 'acme/other' });
  });

  it('knows the hub id syntax', () => {
    expect(isHubId('Xenova/all-MiniLM-L6-v2')).toBe(true);
    expect(isHubId('bert-base-uncased')).toBe(true);
    expect(isHubId('a/b/c')).toBe(false);
    expect(isHubId('a--b')).toBe(false);
    expect(isHubId('has space')).toBe(false);
  });
});
