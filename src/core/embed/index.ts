export type { Embedder, GetModelOptions, ModelManager, ModelProgressEvent, Reranker } from './types.js';
export {
  DEFAULT_EMBEDDING_PRESET,
  DEFAULT_RERANK_PRESET,
  ENGLISH_EMBEDDING_PRESET,
  MODEL_PRESETS,
  applyPrefix,
  findPreset,
  listPresets,
  prefixesFor,
  type ModelKind,
  type ModelPresetDef,
  type Prefixes,
} from './presets.js';
export { isHubId, resolveModelSpec, type ModelSpec } from './model-spec.js';
export { createModelManager, WorkerModelManager, type ModelManagerOptions } from './model-manager.js';
export { embedWorkerCandidates, resolveEmbedWorkerPath } from './worker-path.js';
export { buildFixtureModel, buildFixtureReranker, type FixtureModelInfo, type FixtureModelOptions } from './fixture-model.js';
export { isRemoteModel, parseRemoteSpec, type RemoteProvider, type RemoteSpec } from './remote/remote-spec.js';
export type { RemoteModelsOptions } from './remote/remote-models.js';
