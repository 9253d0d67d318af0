import type { MethodName, RagClient } from '../shared/contract/index.js';

/** Calls that ingest (parse, embed, write): these wait while indexing is paused. Reads and deletes go on. */
export const INGEST_METHODS: readonly MethodName[] = ['addDocument', 'addFile', 'uploadFile', 'addDocumentsBatch'];

/**
 * Pause/resume indexing (the tray's switch): while paused, ingest calls from every adapter (IPC, /api, MCP)
 * wait and go ahead on resume; searches and other reads are never held. It also counts ingests in flight.
 */
export class IngestGate {
  private paused = false;
  private waiters: Array<() => void> = [];
  private listeners = new Set<() => void>();
  active = 0;

  get isPaused(): boolean {
    return this.paused;
  }

  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    if (!paused) for (const w of this.waiters.splice(0)) w();
    this.emit();
  }

  /** Called on every change (paused, ingests in flight). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  private async pass(): Promise<void> {
    while (this.paused) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** The same client, with ingest calls held while paused. */
  wrap(client: RagClient): RagClient {
    const wrapped = { ...client } as Record<string, (input: unknown) => Promise<unknown>>;
    for (const name of INGEST_METHODS) {
      const fn = client[name] as (input: unknown) => Promise<unknown>;
      wrapped[name] = async (input: unknown) => {
        if (this.paused) await this.pass();
        this.active++;
        this.emit();
        try {
          return await fn(input);
        } finally {
          this.active--;
          this.emit();
        }
      };
    }
    return wrapped as unknown as RagClient;
  }
}
