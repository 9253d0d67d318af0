import type { Core } from '../core/core.js';
import { startHttpServer, type HttpServerOptions, type RunningHttpServer } from '../http/server.js';

export interface ServerStatus {
  enabled: boolean;
  running: boolean;
  url: string | null;
  error: string | null;
}

/** The app's local HTTP server (`/mcp`, `/api`, web console, `/health`, `/metrics`): on, off, or restarted on a new port. */
export class LocalServer {
  private running: RunningHttpServer | null = null;
  private lastError: string | null = null;
  private enabled = false;

  constructor(
    private readonly core: Core,
    private readonly options: Omit<HttpServerOptions, 'core' | 'ownerToken' | 'port'>,
  ) {}

  get status(): ServerStatus {
    return { enabled: this.enabled, running: this.running !== null, url: this.running?.url ?? null, error: this.lastError };
  }

  /** Start (or restart) on `port`; a busy port falls back to a free one. Failures are kept in the status. */
  async apply(enabled: boolean, port: number): Promise<ServerStatus> {
    this.enabled = enabled;
    if (this.running && (!enabled || (port !== 0 && this.running.port !== port))) await this.stop();
    if (!enabled || this.running) return this.status;
    const token = this.core.lock?.info.token;
    if (!token) {
      this.lastError = 'the data dir is not locked by this process';
      return this.status;
    }
    try {
      this.running = await this.listen(token, port);
      this.lastError = null;
    } catch (err) {
      let failure: unknown = err;
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && port !== 0) {
        // The configured port is taken (another app): serve on a free one and say so in the status URL.
        try {
          this.running = await this.listen(token, 0);
          this.lastError = null;
          return this.status;
        } catch (again) {
          failure = again;
        }
      }
      this.lastError = failure instanceof Error ? failure.message : String(failure);
    }
    return this.status;
  }

  private async listen(token: string, port: number): Promise<RunningHttpServer> {
    const server = await startHttpServer({ ...this.options, core: this.core, ownerToken: token, port });
    this.core.lock?.setPort(server.port, server.host);
    return server;
  }

  async stop(): Promise<void> {
    const server = this.running;
    this.running = null;
    if (!server) return;
    this.core.lock?.setPort(null);
    await server.close();
  }
}
