import fs from 'node:fs';
import path from 'node:path';
import type { ModelPreset } from '../../shared/contract/index.js';

/** The vector dimension of a model, without loading it when possible (preset table or folder config). */
export function knownDim(model: string, presets: readonly ModelPreset[]): number | undefined {
  const preset = presets.find((p) => p.name === model || p.model_id === model);
  if (preset?.dim) return preset.dim;
  try {
    const config = JSON.parse(fs.readFileSync(path.join(path.resolve(model), 'config.json'), 'utf8')) as Record<string, unknown>;
    const dim = config.hidden_size ?? config.hidden_dim ?? config.dim ?? config.d_model;
    return typeof dim === 'number' ? dim : undefined;
  } catch {
    return undefined;
  }
}
