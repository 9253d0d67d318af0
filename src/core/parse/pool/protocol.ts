import type { ErrorEnvelope } from '../../../shared/errors.js';

/** Messages between the parse pool and its workers. */
export interface TaskProgress {
  /** Units done (pages, sheets…) and the total when known. */
  done?: number;
  total?: number;
  message?: string;
}

export type PoolRequest = { type: 'run'; id: number; kind: string; payload: unknown } | { type: 'cancel'; id: number };

export type PoolResponse =
  | { type: 'ready'; id?: undefined }
  | { type: 'progress'; id: number; progress: TaskProgress }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: ErrorEnvelope };
