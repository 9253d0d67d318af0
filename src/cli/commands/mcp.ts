import type { Command } from 'commander';
import type { dataPaths } from '../../core/config/data-dir.js';
import type { RagLogger } from '../../core/logging/logger.js';
import type { CallRecord } from '../../mcp/server.js';
import { startStdioFront } from '../../mcp/stdio-front.js';
import { globals } from './common.js';
import type { StdioBackends } from './mcp-backend.js';

/** In stdio mode stdout is the protocol: anything a library prints with console.* goes to stderr instead. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) =>
    process.stderr.write(`${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

interface Session {
  dataDir: string;
  paths: ReturnType<typeof dataPaths>;
  log: RagLogger;
}

/** The data dir (flag, environment or the app's settings) and the session's log. */
async function openSession(flag: string | undefined, apiKey: string | undefined): Promise<Session> {
  const [{ cliDataDir }, dirs, logging] = await Promise.all([
    import('../settings.js'),
    import('../../core/config/data-dir.js'),
    import('../../core/logging/logger.js'),
  ]);
  const dataDir = cliDataDir(flag);
  const paths = dirs.dataPaths(dataDir);
  const log = logging.createLogger({ dir: paths.logs, file: 'mcp.log', stderrLevel: 'warn', secrets: apiKey ? [apiKey] : [] });
  log.logger.info({ dataDir, pid: process.pid, key: apiKey ? 'RAGDESK_API_KEY' : 'owner' }, 'ragdesk mcp (stdio) started');
  return { dataDir, paths, log };
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('MCP server over stdio (for Claude Desktop, Cursor, VS Code); bridges to a running ragdesk server when there is one')
    .option('--no-bridge', 'always open the data dir in this process (fails if another process holds it)')
    .addHelpText(
      'after',
      "\nEnvironment: RAGDESK_API_KEY limits the session to that key's KBs (default: the local owner, full rights).\n" +
        'Logs go to <data dir>/logs/mcp.log and warnings to stderr; stdout carries only MCP messages.',
    )
    .action(async (o: { bridge?: boolean }, cmd: Command) => {
      keepStdoutForProtocol();
      const g = globals(cmd);
      const apiKey = process.env.RAGDESK_API_KEY?.trim() || undefined;
      const allowDownload = g.download !== false && process.env.RAGDESK_OFFLINE !== '1';
      // The stdio front answers initialize and tools/list before the settings, the logger and the MCP SDK load;
      // they load when it hands over (once the tools are listed, or at the first call).
      let session: Promise<Session> | undefined;
      const open = () => (session ??= openSession(g.dataDir, apiKey));
      // What answers calls (keys, activity log, metrics, the backends) loads after initialize and tools/list were
      // answered: in the background once the client is initialised, or at the first call, whichever comes first.
      let calls: Promise<{ backends: StdioBackends; record: (r: CallRecord) => void }> | undefined;
      const callSide = () =>
        (calls ??= (async () => {
          const { dataDir, paths, log } = await open();
          const [{ activityLogFor }, { keyStoreFor }, { Metrics }, { callRecorder }, { StdioBackends }] = await Promise.all([
            import('../../core/activity/activity-log.js'),
            import('../../core/auth/key-store.js'),
            import('../../core/metrics/metrics.js'),
            import('../../mcp/recorder.js'),
            import('./mcp-backend.js'),
          ]);
          const metrics = new Metrics();
          const activity = activityLogFor(paths.activity);
          const backends = new StdioBackends({
            dataDir,
            apiKey,
            logger: log.logger,
            metrics,
            activity,
            keys: keyStoreFor(paths.keys),
            allowDownload,
            noBridge: o.bridge === false,
            addSecret: (secret) => log.addSecret(secret),
          });
          // Resolving happens once lines go to the SDK server (the front has handed over).
          backends.attach((await running.server!).failover);
          const record = callRecorder({
            metrics,
            activity,
            logger: log.logger,
            transport: 'stdio',
            keyName: () => backends.principal()?.name ?? 'revoked',
          });
          return { backends, record };
        })());
      const running = startStdioFront({
        prepare: async () => ({
          logger: (await open()).log.logger,
          resolve: async (facts) => (await callSide()).backends.resolve(facts),
          // The owner records calls; when bridged, the owner process does it.
          onCall: (r) =>
            void callSide().then(({ backends, record }) => {
              if (backends.mode === 'local') record(r);
            }),
        }),
      });
      const stop = () => void running.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await running.closed;
      await running.close();
      await calls?.then(({ backends }) => backends.close()).catch(() => undefined);
      // A session that could not open (the settings, the log) fails the command here, after the front closed.
      if (session) {
        const { log } = await session;
        log.logger.info('ragdesk mcp (stdio) stopped');
        await log.close();
      }
      // Nothing may keep a stdio server alive once its client has gone.
      setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
    });
}
