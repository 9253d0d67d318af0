import type { EventEmitter } from 'node:events';
import { DEFAULT_CHUNKING, type ChunkingConfig } from '../../shared/contract/index.js';
import type { ModelManager } from '../embed/types.js';
import type { Store } from '../store/store.js';
import { RENEW_AT_BYTES } from '../store/lance-session.js';
import type { PauseGate } from '../util/pause-gate.js';

export interface CoreOptions {
  dataDir: string;
  /** Embedding model for new KBs: a preset name or a folder. */
  defaultModel: string;
  /** Chunking for new KBs that do not say. */
  defaultChunking: ChunkingConfig;
  /** May models be downloaded from the hub on first use. */
  allowDownload: boolean;
  /** Largest file accepted, in bytes. */
  maxFileBytes: number;
  /** Largest extracted text accepted, in characters (of a document parsed whole; streamed files: maxStreamBytes). */
  maxTextChars: number;
  /** Text and Markdown files from this size on are written section by section in flat memory (stream-ingest.ts). */
  streamFromBytes: number;
  /** Largest text or Markdown file accepted for streaming, in bytes. */
  maxStreamBytes: number;
  /**
   * A document whose text has at least this many characters keeps it in a content file, not in its row of the
   * documents table (store/content-files.ts).
   */
  contentFileMinChars: number;
  /** How long a vector search waits for a model that is loading (never for a download). */
  vectorWaitMs: number;
  /** Cross-encoder for `use_rerank`: a preset name or a folder. */
  rerankModel: string;
  /** Searches wait for the model to load (one-shot CLI use); servers answer hybrid from full-text meanwhile. */
  waitForModels: boolean;
  /**
   * A KB's first write builds its full-text index before it returns when it has at most this many chunks (a
   * second or less). A larger one is indexed by upkeep right after, with the write's memory given back first in a
   * one-shot CLI (Core.close); searches scan its rows meanwhile.
   */
  inlineIndexRows: number;
  /**
   * While a job writes a KB nobody searches, its upkeep waits for the job's end until the job has written this many
   * rows since the last upkeep: what the first search during the job may have to scan (services/indexing.ts). The
   * one-shot CLI, which serves no search while it writes, sets no bound (Infinity): mid-job upkeeps there only cost
   * time and memory.
   */
  upkeepDeferRows: number;
  /**
   * Up to this many rows a hybrid search reads its full-text list (100 deep) with the hits' columns; past it, ids
   * and scores, and the hits are fetched by row id after fusion (search/search-service.ts rankKbs). A row's
   * columns cost more to read as the table grows (its rows lie further apart). LanceDB alone on the scale bench's
   * tables, SciFact claims, p50: 100 deep with columns / ids only / a fetch of 10 hits by row id: 5.58 / 2.65 /
   * 3.46 ms at 9.6k rows, 14.87 / 6.24 / 6.18 ms at 100k, 45.04 / 22.19 / 8.81 ms at 1M (docs/benchmarks.md).
   * Since hits are one packed column, a fetch of 10 by row id takes ~1 ms at 9.6k, and ragdesk's whole hybrid
   * search, both ways interleaved query by query (2026-12-05): 900 rows 5.09 / 4.67 ms with columns against 5.26 /
   * 4.73 lean; 4.6k rows 8.93 / 9.38 against 8.60 / 9.06; 9.6k 6.31 / 6.99 / 7.09 against 5.14 / 5.58 / 5.70.
   */
  hybridListColumnsMaxRows: number;
  /**
   * The deepest a KB's full-text list of a search over several KBs is read while its bound asks for more
   * (search/lexical-depth.ts); past it, the ranking's head is as exact as that depth makes it. A term common in one KB
   * and rare in a far larger one raises the bound so that it could otherwise ask for most of the term's rows.
   */
  maxLexicalDepth: number;
  /**
   * After upkeep, a chunk table moves to a new LanceDB connection once its caches hold this many bytes by LanceDB's
   * accounting (store/lance-session.ts RENEW_AT_BYTES: old full-text indexes stay cached until the cache is full, and
   * then every few queries pay for the eviction).
   */
  renewCacheBytes: number;
}

export const DEFAULT_OPTIONS: Omit<CoreOptions, 'dataDir'> = {
  defaultModel: 'multilingual',
  defaultChunking: DEFAULT_CHUNKING,
  allowDownload: true,
  maxFileBytes: 100 * 1024 * 1024,
  maxTextChars: 20_000_000,
  streamFromBytes: 8 * 1024 * 1024,
  maxStreamBytes: 1024 * 1024 * 1024,
  contentFileMinChars: 16 * 1024,
  vectorWaitMs: 15_000,
  waitForModels: false,
  rerankModel: 'rerank',
  inlineIndexRows: 50_000,
  upkeepDeferRows: 100_000,
  hybridListColumnsMaxRows: 2_000,
  maxLexicalDepth: 2_000,
  renewCacheBytes: RENEW_AT_BYTES,
};

/** Progress of ingestion, for progress bars and the UI. */
export interface IngestEvent {
  kb_id: string;
  file?: string;
  doc_id?: string;
  stage: 'parse' | 'ocr' | 'chunk' | 'embed' | 'index' | 'done' | 'error' | 'skipped';
  chunks?: number;
  /** A file written section by section (stream-ingest.ts): its bytes read so far, of how many. */
  bytes?: number;
  total_bytes?: number;
  /** OCR: the page just read, of how many to read. */
  page?: number;
  pages?: number;
  message?: string;
}

export interface CoreContext {
  store: Store;
  models: ModelManager;
  options: CoreOptions;
  events: EventEmitter<{ ingest: [IngestEvent] }>;
  /** Indexing paused (the tray's switch): background writers wait on it before each batch. */
  pause: PauseGate;
}
