import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import { cliCoreDefaults, cliDataDir } from '../settings.js';
import { activityLogFor } from '../../core/activity/activity-log.js';
import { dataPaths } from '../../core/config/data-dir.js';
import { createLogger } from '../../core/logging/logger.js';
import { watchParent } from '../../core/util/parent-watch.js';
import { openTakingOver } from '../../http/handover.js';
import { hostForUrl, isLoopbackHost } from '../../http/security.js';
import { DEFAULT_PORT, startHttpServer } from '../../http/server.js';
import { RagError } from '../../shared/errors.js';
import { printJson, printLine } from '../output.js';
import { collect, globals, intArg } from './common.js';

/** SIGTERM/SIGINT to exit, at most (the bar is 5 s; what is left after this is cut as by kill -9). */
const STOP_DEADLINE_MS = 4_000;

function portArg(value: string): number {
  const n = intArg(value);
  if (n < 0 || n > 65535) throw new InvalidArgumentError('a port is 0-65535 (0: any free port)');
  return n;
}

function rateArg(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('requests per second per key, 0 for no limit');
  return n;
}

/** The built web console: $RAGDESK_CONSOLE_DIR, next to the built CLI (out/renderer), or out/renderer of the project. */
export function findConsoleDir(explicit?: string): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    explicit,
    process.env.RAGDESK_CONSOLE_DIR,
    path.resolve(here, '../renderer'),
    path.resolve(here, '../../../out/renderer'),
    path.resolve('out/renderer'),
  ];
  return candidates.find((c): c is string => Boolean(c) && fs.existsSync(path.join(c!, 'index.html')));
}

interface ServeOptions {
  port: number;
  host: string;
  stateless?: boolean;
  rateLimit?: number;
  console?: string;
  allowedHost?: string[];
  allowedOrigin?: string[];
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve MCP (Streamable HTTP), the HTTP API and the web console on localhost')
    .option('--port <port>', `port (0: any free port)`, portArg, DEFAULT_PORT)
    .option('--host <address>', 'address to bind; anything but loopback exposes the server to your network', '127.0.0.1')
    .option('--stateless', 'answer /mcp without sessions')
    .option('--rate-limit <n>', 'requests per second per API key (burst 3x); 0 for none', rateArg)
    .option('--console <dir>', 'folder of the built web console (default: out/renderer)')
    .option('--allowed-host <name>', 'extra Host header name to accept (repeatable)', collect)
    .option('--allowed-origin <origin>', 'extra browser origin to accept, e.g. http://my-box:7411 (repeatable)', collect)
    .action(async (o: ServeOptions, cmd: Command) => {
      // Started by `npm start` (scripts/start.js): stop when that process is gone, however it went. Watched from the
      // start: set up after "listening" was printed, a parent killed right then (kill -9 of npm as soon as the server
      // answered) had already re-parented the server, which then took the variable for an inherited one and ran on.
      let parentGone = false;
      let onParentGone: (() => void) | undefined;
      watchParent(() => {
        parentGone = true;
        onParentGone?.();
      });
      const g = globals(cmd);
      const dataDir = cliDataDir(g.dataDir);
      const paths = dataPaths(dataDir);
      const log = createLogger({ dir: paths.logs, file: 'server.log', stderrLevel: 'warn' });
      if (!isLoopbackHost(o.host)) {
        process.stderr.write(
          `warning: --host ${o.host} makes ragdesk reachable from other machines; every request still needs an API key.\n`,
        );
      }
      const { Core } = await import('../../core/core.js');
      const core = await openTakingOver(
        () =>
          Core.open({
            dataDir,
            allowDownload: g.download !== false && process.env.RAGDESK_OFFLINE !== '1',
            watchSources: true,
            ...cliCoreDefaults(),
          }),
        paths.lock,
        { onAsk: (owner) => process.stderr.write(`asking ragdesk mcp (pid ${owner.pid}) to hand over the data dir…\n`) },
      );
      const token = core.lock!.info.token;
      log.addSecret(token);
      const consoleDir = findConsoleDir(o.console);
      const rate = o.rateLimit;
      const server = await startHttpServer({
        core,
        ownerToken: token,
        host: o.host,
        port: o.port,
        logger: log.logger,
        activity: activityLogFor(paths.activity),
        ...(o.stateless ? { stateless: true } : {}),
        ...(rate !== undefined ? { rateLimit: rate === 0 ? false : { perSecond: rate, burst: Math.max(1, Math.round(rate * 3)) } } : {}),
        ...(consoleDir ? { staticDir: consoleDir } : {}),
        ...(o.allowedHost ? { allowedHosts: o.allowedHost } : {}),
        ...(o.allowedOrigin ? { allowedOrigins: o.allowedOrigin } : {}),
      }).catch(async (err: unknown) => {
        await core.close();
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE')
          throw new RagError('busy', `port ${o.port} on ${o.host} is already in use: stop what uses it or choose another with --port`);
        if (code === 'EACCES' || code === 'EADDRNOTAVAIL')
          throw new RagError('invalid_parameter', `cannot listen on ${o.host}:${o.port}: ${(err as Error).message}`);
        throw err;
      });
      core.lock!.setPort(server.port, o.host);
      const base = server.url;
      const info = {
        url: base,
        host: server.host,
        port: server.port,
        mcp: `${base}/mcp`,
        console: `${base}/#token=${token}`,
        token,
        data_dir: dataDir,
        pid: process.pid,
      };
      if (g.json) printJson(info);
      else {
        printLine(`ragdesk serving ${dataDir}`);
        printLine(`listening on ${base} (port ${server.port})`);
        printLine(`MCP (Streamable HTTP): ${base}/mcp`);
        printLine(`web console: ${base}/#token=${token}${consoleDir ? '' : '  (not built: npm run build)'}`);
        printLine(`owner token: ${token}`);
        printLine(
          '  send it as "Authorization: Bearer <token>"; it changes at every start. For agents, create keys: ragdesk keys create <name>',
        );
        printLine(`Stop with Ctrl+C.`);
      }
      if (!isLoopbackHost(o.host)) log.logger.warn({ host: hostForUrl(o.host) }, 'serving beyond loopback');
      core.warmUp();
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) process.exit(130);
          stopping = true;
          log.logger.info({ signal }, 'shutting down');
          // Within 5 s whatever runs: a batch being embedded or a model change stops here as after kill -9 (every
          // write is crash-safe, and interrupted jobs resume at the next start).
          setTimeout(() => {
            log.logger.warn({ signal }, 'shutdown took too long: exiting now (interrupted work resumes at the next start)');
            process.stderr.write('ragdesk: stopping took too long; exiting now (interrupted work resumes at the next start)\n');
            process.exit(process.exitCode ?? 0);
          }, STOP_DEADLINE_MS).unref();
          resolve();
        };
        process.on('SIGINT', () => stop('SIGINT'));
        process.on('SIGTERM', () => stop('SIGTERM'));
        process.on('SIGHUP', () => stop('SIGHUP'));
        onParentGone = () => stop('parent exited');
        if (parentGone) stop('parent exited');
      });
      core.lock!.setPort(null);
      await server.close();
      await core.close();
      await log.close();
      if (!g.json) printLine('stopped');
      setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
    });
}
