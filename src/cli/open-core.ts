import { liveLockOwner, type LockInfo } from '../core/config/lock.js';
import { dataPaths } from '../core/config/data-dir.js';
import type { ModelProgressEvent } from '../core/embed/types.js';
import type { RagClient } from '../shared/contract/index.js';
import { ragClient } from '../shared/contract/index.js';
import { RagError } from '../shared/errors.js';
import type { GlobalOptions } from './output.js';
import { ownerTransport, OwnerUnreachable, type OwnerAddress } from './owner-transport.js';
import { createProgress } from './progress.js';
import { cliCoreDefaults, cliDataDir } from './settings.js';

/** What a command works with: the contract, whichever process runs it. */
export interface CliSession {
  client: RagClient;
  dataDir: string;
  /** `local`: this process opened the data dir (and closes it after the command); `owner`: calls go to the live owner. */
  via: 'local' | 'owner';
  /** The owner's pid when `via` is `owner`. */
  ownerPid?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a command waits for a data dir held by a process that serves no port (another one-shot command). */
function ownerWaitMs(): number {
  const n = Number(process.env.RAGDESK_OWNER_WAIT_MS);
  return Number.isFinite(n) && n >= 0 ? n : 30_000;
}

/** Where to reach an owner's HTTP server from this machine. */
function ownerAddress(owner: LockInfo & { port: number }): OwnerAddress {
  const host = owner.host === '0.0.0.0' || owner.host === '::' || owner.host === '[::]' || !owner.host ? '127.0.0.1' : owner.host;
  return { pid: owner.pid, host: host.replace(/^\[|\]$/g, ''), port: owner.port, token: owner.token };
}

function busyError(owner: LockInfo | undefined): RagError {
  return new RagError(
    'busy',
    owner
      ? `the data dir is in use by another ragdesk process (pid ${owner.pid}) that serves no port to share it; try again when it has finished`
      : 'the data dir is in use by another ragdesk process that is starting or stopping; try again',
    owner ? { details: { pid: owner.pid } } : undefined,
  );
}

/**
 * The one way a CLI command reaches the engine. If a live process owns the data dir and serves HTTP (the desktop
 * app, `ragdesk serve`, a stdio `ragdesk mcp` owner), the command calls its `/api` with the lock's token, so it never
 * answers `busy` beside a running app. Otherwise it opens the data dir in this process for the length of the command.
 * A holder without a port (another one-shot command) is waited for, up to RAGDESK_OWNER_WAIT_MS (default 30 s).
 */
export async function withClient<T>(
  opts: GlobalOptions,
  fn: (session: CliSession) => Promise<T>,
  /** The KBs the command embeds for ('all': every one), if any: opened here, their worker starts first (early-embedder.ts). */
  embedFor?: readonly string[] | 'all',
): Promise<T> {
  const dataDir = cliDataDir(opts.dataDir);
  const lockPath = dataPaths(dataDir).lock;
  const started = Date.now();
  const deadline = started + ownerWaitMs();
  let told = false;
  let last: LockInfo | undefined;
  for (;;) {
    const owner = liveLockOwner(lockPath);
    if (owner?.port) {
      const transport = ownerTransport(ownerAddress({ ...owner, port: owner.port }));
      let reachable = false;
      try {
        reachable = (await transport.health()).pid === owner.pid;
      } catch (err) {
        if (!(err instanceof OwnerUnreachable) && !(err instanceof SyntaxError)) {
          transport.close();
          throw err;
        }
      }
      if (reachable) {
        try {
          return await fn({ client: ragClient(transport.call), dataDir, via: 'owner', ownerPid: owner.pid });
        } finally {
          transport.close();
        }
      }
      transport.close();
    } else if (!owner) {
      const local = await openLocal(dataDir, opts, embedFor).catch((err: unknown) => {
        // Someone took the data dir between the look and the open: look again.
        if (err instanceof RagError && err.code === 'busy') return undefined;
        throw err;
      });
      if (local) return local.run(fn);
    }
    last = owner ?? last;
    if (Date.now() >= deadline) throw busyError(last);
    if (!told && owner && !owner.port && Date.now() - started > 1000) {
      told = true;
      process.stderr.write(`waiting for ragdesk (pid ${owner.pid}) to finish with the data dir…\n`);
    }
    await sleep(150);
  }
}

/** Open the engine in this process for one command and close it afterwards (flushing index upkeep, releasing the lock). */
async function openLocal(dataDir: string, opts: GlobalOptions, embedFor?: readonly string[] | 'all') {
  if (embedFor && (embedFor === 'all' || embedFor.length > 0)) (await import('./early-embedder.js')).startEmbedderEarly(dataDir, embedFor);
  const { Core } = await import('../core/core.js');
  const core = await Core.open({
    dataDir,
    ...cliCoreDefaults(),
    allowDownload: opts.download !== false && process.env.RAGDESK_OFFLINE !== '1',
    waitForModels: true,
    // No search is served while the command writes: the first write's full-text index would only be rebuilt at the
    // end, and it would make the end's upkeep compact and fold instead of compacting once (services/indexing.ts).
    inlineIndexRows: 0,
    upkeepDeferRows: Infinity,
  });
  return {
    async run<T>(fn: (session: CliSession) => Promise<T>): Promise<T> {
      const bars = new Map<string, ReturnType<typeof createProgress>>();
      const off = core.ctx.models.onProgress((e: ModelProgressEvent) => {
        if (e.state !== 'downloading') return;
        let bar = bars.get(e.model);
        if (!bar) {
          bar = createProgress(!opts.json);
          bar.start(100, `downloading ${e.model}`);
          bars.set(e.model, bar);
        }
        bar.update(Math.round((e.progress ?? 0) * 100), e.file ?? '');
      });
      try {
        return await fn({ client: core.client, dataDir: core.dataDir, via: 'local' });
      } finally {
        off();
        for (const bar of bars.values()) bar.stop();
        await core.close();
      }
    },
  };
}
