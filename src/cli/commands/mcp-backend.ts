import type { Logger } from 'pino';
import type { ActivityLog } from '../../core/activity/activity-log.js';
import type { KeyStore } from '../../core/auth/key-store.js';
import { OWNER, type Principal } from '../../core/auth/scope.js';
import { dataPaths } from '../../core/config/data-dir.js';
import { liveLockOwner } from '../../core/config/lock.js';
import type { Core } from '../../core/core.js';
import { isLoopbackHost } from '../../http/security.js';
import type { RunningHttpServer } from '../../http/server.js';
import type { LocalBackend } from '../../mcp/local-backend.js';
import type { Metrics } from '../../core/metrics/metrics.js';
import type { Backend } from '../../mcp/server.js';
import type { FailoverBackend, StdioClientFacts } from '../../mcp/stdio.js';
import { RagError } from '../../shared/errors.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The tools that search: their first calls wait for the warm-up (see warm-up.ts). */
const SEARCH_TOOLS = new Set(['search_kb', 'search_all_accessible_kbs', 'ask_knowledge_base']);
/** The longest a search waits for the warm-up: past it, a hybrid search answers from full-text, as it says. */
const SEARCH_WAITS_FOR_WARM_UP_MS = 5_000;

export interface StdioBackendOptions {
  dataDir: string;
  allowDownload: boolean;
  /** RAGDESK_API_KEY, when set: calls run with that key's rights (here or on the owner). */
  apiKey?: string;
  keys: KeyStore;
  logger: Logger;
  metrics: Metrics;
  activity: ActivityLog;
  /** Never bridge: open the data dir here or fail (tests, debugging). */
  noBridge?: boolean;
  /** How long to wait for an owner that holds the lock but has no port yet (default 10 s). */
  waitMs?: number;
  /** Keep a secret (the lock token) out of the logs. */
  addSecret?: (secret: string) => void;
}

/**
 * Where `ragdesk mcp` sends calls. If another live ragdesk process owns the data dir and serves HTTP, bridge to
 * its /mcp with the lock's token (or the API key). Otherwise open the data dir here — and serve a private
 * loopback /mcp too, recorded in the lock, so a second `ragdesk mcp` bridges to this one and `ragdesk serve`
 * or the desktop app can ask this process to hand the data dir over (it then becomes a bridge itself).
 */
export class StdioBackends {
  mode: 'local' | 'remote' | undefined;
  private core: Core | undefined;
  private http: RunningHttpServer | undefined;
  private local: LocalBackend | undefined;
  /** The search rehearsal under way or done (rehearse). */
  private rehearsal: Promise<void> | undefined;
  private failover: FailoverBackend | undefined;
  /** After handing over, wait this long for the new owner instead of taking the data dir back. */
  private waitForOtherUntil = 0;

  constructor(private readonly o: StdioBackendOptions) {}

  attach(failover: FailoverBackend): void {
    this.failover = failover;
  }

  principal(): Principal | undefined {
    return this.o.apiKey ? this.o.keys.verify(this.o.apiKey) : OWNER;
  }

  async resolve(facts: StdioClientFacts): Promise<Backend> {
    const lockPath = dataPaths(this.o.dataDir).lock;
    if (this.o.apiKey && !this.principal()) throw new RagError('permission_denied', 'RAGDESK_API_KEY is not a valid key for this data dir');
    const deadline = Date.now() + (this.o.waitMs ?? 10_000);
    let lastOwner: { pid: number } | undefined;
    while (Date.now() < deadline || Date.now() < this.waitForOtherUntil) {
      const owner = this.o.noBridge ? undefined : liveLockOwner(lockPath);
      lastOwner = owner;
      if (owner?.port) {
        const host = isLoopbackHost(owner.host) ? owner.host : '127.0.0.1';
        const url = `http://${host.includes(':') ? `[${host}]` : host}:${owner.port}/mcp`;
        // The SDK's HTTP client loads only for a bridge.
        const { RemoteBackend } = await import('../../mcp/remote-backend.js');
        const remote = new RemoteBackend({ url, token: this.o.apiKey ?? owner.token }, facts);
        try {
          await remote.connect();
          this.mode = 'remote';
          this.o.logger.info({ pid: owner.pid, url }, 'bridging stdio to the ragdesk process that owns the data dir');
          return remote;
        } catch (err) {
          this.o.logger.warn({ err, url }, 'could not reach the owner yet');
          await remote.close();
        }
      } else if (!owner && Date.now() >= this.waitForOtherUntil) {
        try {
          return await this.becomeOwner();
        } catch (err) {
          if (!(err instanceof RagError) || err.code !== 'busy' || this.o.noBridge) throw err;
        }
      }
      await sleep(200);
    }
    throw new RagError(
      'busy',
      `the data dir is in use by another ragdesk process${lastOwner ? ` (pid ${lastOwner.pid})` : ''} that does not serve MCP; try again when it has finished`,
    );
  }

  private async becomeOwner(): Promise<Backend> {
    // The engine (LanceDB, the model worker) loads only now, after initialize and tools/list were answered.
    const [{ Core }, { startHttpServer }, { cliCoreDefaults }, { LocalBackend }, { warmUpSearch, WARM_QUERY }, { within }] =
      await Promise.all([
        import('../../core/core.js'),
        import('../../http/server.js'),
        import('../settings.js'),
        import('../../mcp/local-backend.js'),
        import('../../core/services/warm-up.js'),
        import('../../core/util/timeout.js'),
      ]);
    const core = await Core.open({
      dataDir: this.o.dataDir,
      allowDownload: this.o.allowDownload,
      // The owner of the data dir keeps folder sources in sync, whichever process it is.
      watchSources: true,
      opMetrics: this.o.metrics.api,
      ...cliCoreDefaults(),
    });
    this.core = core;
    // The models start loading (in their worker) and the tables, full-text and vector indexes get ready now, in
    // the background; a search that comes meanwhile waits for that same warm-up (at most
    // SEARCH_WAITS_FOR_WARM_UP_MS, then it answers as it can).
    core.warmUp();
    const warming = performance.now();
    const warmed = warmUpSearch(core.ctx).then(() =>
      this.o.logger.info({ ms: Math.round(performance.now() - warming) }, 'search warm-up done (tables, indexes, models)'),
    );
    const warm = within(warmed, SEARCH_WAITS_FOR_WARM_UP_MS);
    void warmed.then(() => (this.rehearsal = this.rehearse(core, WARM_QUERY)));
    const token = core.lock!.info.token;
    this.o.addSecret?.(token);
    try {
      this.http = await startHttpServer({
        core,
        ownerToken: token,
        host: '127.0.0.1',
        port: 0,
        logger: this.o.logger,
        metrics: this.o.metrics,
        activity: this.o.activity,
        onHandover: () => void this.handOver(),
      });
      core.lock!.setPort(this.http.port, '127.0.0.1');
    } catch (err) {
      this.o.logger.warn({ err }, 'no private HTTP port: other ragdesk processes cannot share this data dir');
    }
    this.local = new LocalBackend({
      core: () => core,
      principal: () => this.principal(),
      before: (tool) => (SEARCH_TOOLS.has(tool.name) ? warm : undefined),
    });
    this.mode = 'local';
    this.o.logger.info({ port: this.http?.port }, 'opened the data dir');
    return this.local;
  }

  /**
   * A few search_kb calls through this backend, answered and thrown away, once the engine is warm (mcp/rehearsal.ts:
   * through an MCP server and client linked in memory): the first real call then finds the protocol's and the tool's
   * schemas parsed, and the hit columns, result views and JSON written before (zod compiles a schema's parser at its
   * first use; V8 compiles the paths that run, and faster code for those that ran a few times). They are no client's
   * calls: nothing records them. A caller without a readable KB, or a failure, leaves it undone.
   */
  private async rehearse(core: Core, query: string): Promise<void> {
    try {
      const local = this.local;
      const principal = this.principal();
      // Released meanwhile (the client left, or the data dir was handed over): nothing to warm.
      const released = () => this.core !== core;
      if (!local || !principal || released()) return;
      const kb = (await core.clientFor(core.scopeOf(principal)).listKbs({})).find((k) => k.enabled);
      if (!kb) return;
      const { rehearseSearch, SEARCH_REHEARSALS } = await import('../../mcp/rehearsal.js');
      const started = performance.now();
      const args = { kb_id: kb.kb_id, top_k: 10, mode: kb.embedding_model ? 'hybrid' : 'fts' };
      const calls = await rehearseSearch(local, args, query, SEARCH_REHEARSALS, released);
      this.o.logger.info({ kb_id: kb.kb_id, calls: calls.length, ms: Math.round(performance.now() - started) }, 'search rehearsal done');
    } catch (err) {
      this.o.logger.debug({ err }, 'search rehearsal failed');
    }
  }

  /** Another process (ragdesk serve, the desktop app) takes the data dir; calls wait and then go to it. */
  private async handOver(): Promise<void> {
    this.o.logger.info('handing the data dir over');
    this.waitForOtherUntil = Date.now() + 30_000;
    this.failover?.reset();
    this.mode = undefined;
    await this.releaseLocal();
  }

  private async releaseLocal(): Promise<void> {
    const { http, core, local } = this;
    this.http = undefined;
    this.core = undefined;
    this.local = undefined;
    await http?.close().catch(() => undefined);
    // A rehearsal stops after its call in flight (it sees the engine released): the store is closed after it, not
    // under it (a search on a closed store would be logged as an internal error).
    await this.rehearsal;
    await local?.idle();
    await core?.close().catch((err: unknown) => this.o.logger.error({ err }, 'closing the engine failed'));
  }

  async close(): Promise<void> {
    await this.releaseLocal();
  }
}
