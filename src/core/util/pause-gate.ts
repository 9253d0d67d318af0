/**
 * Pause/resume indexing (the tray's switch, `setIndexingPaused`): while paused, every write that parses, embeds or
 * indexes waits — calls from any door (the dispatcher's pause middleware) and background work alike (folder
 * syncs, resumed jobs, vector backfills, model-change re-embeds call `wait()` before each batch). Reads never wait.
 * It also counts ingest calls in flight, for the tray.
 */
export class PauseGate {
  private paused = false;
  private waiters: Array<() => void> = [];
  private readonly listeners = new Set<() => void>();
  private inFlight = 0;

  get isPaused(): boolean {
    return this.paused;
  }

  /** Ingest calls running now (held ones included). */
  get active(): number {
    return this.inFlight;
  }

  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    if (!paused) for (const w of this.waiters.splice(0)) w();
    this.emit();
  }

  /** Called on every change (paused, calls in flight); returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  /** Resolves at once when not paused, else on resume. */
  async wait(): Promise<void> {
    while (this.paused) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Run `fn` once not paused, counted as in flight meanwhile. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    this.inFlight++;
    this.emit();
    try {
      await this.wait();
      return await fn();
    } finally {
      this.inFlight--;
      this.emit();
    }
  }
}
