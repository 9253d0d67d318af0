import { dataPaths } from '../core/config/data-dir.js';
import type { Core } from '../core/core.js';
import { loggerInternalLog } from '../core/dispatch/internal-errors.js';
import { createLogger, type RagLogger } from '../core/logging/logger.js';

/**
 * The desktop app's log, `<data>/logs/app.log` (warnings and errors on stderr too), as `ragdesk serve` has
 * `server.log` and `ragdesk mcp` has `mcp.log`. The engine's internal errors go here with their detail (stack,
 * paths) under the reference that callers get, whichever door they came through: the window's IPC, the local
 * server's /api and /mcp, background work. The lock's token never appears in it.
 */
export function openAppLog(core: Core): RagLogger {
  const log = createLogger({ dir: dataPaths(core.dataDir).logs, file: 'app.log', stderrLevel: 'warn' });
  const token = core.lock?.info.token;
  if (token) log.addSecret(token);
  core.setInternalErrorLog(loggerInternalLog(log.logger));
  return log;
}
