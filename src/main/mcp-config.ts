export interface StdioCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface StdioOptions {
  /** The app's executable (process.execPath). */
  execPath: string;
  /** out/main/index.js of the app (inside app.asar when packaged). */
  mainEntry: string;
  /** A non-default data dir, passed along as `--data-dir`. */
  dataDir?: string;
  /** The bundled launcher (resources/bin/ragdesk-mcp, or .cmd on Windows), when it is on disk. */
  launcher?: string;
  /** The AppImage file the app runs from (Linux AppImage). */
  appImage?: string;
}

/**
 * How an MCP client starts ragdesk over stdio with the app's own runtime, by absolute path (MCP clients start
 * servers with a minimal environment and their own working directory):
 * - an AppImage: the AppImage file itself with `--mcp-stdio` (its contents are mounted at a new path every run,
 *   so nothing inside it can be named in a config; the app's entry handles `--mcp-stdio` before touching Electron);
 * - otherwise the bundled launcher (resources/bin/ragdesk-mcp), which runs the app's executable as Node;
 * - without a launcher: the executable as Node (`ELECTRON_RUN_AS_NODE=1`) running the main entry with `--mcp-stdio`.
 * A non-default data dir is passed along; while the app runs, the stdio server bridges to it.
 */
export function stdioCommand(options: StdioOptions): StdioCommand {
  const extra = options.dataDir ? ['--data-dir', options.dataDir] : [];
  if (options.appImage) return { command: options.appImage, args: ['--mcp-stdio', ...extra], env: {} };
  if (options.launcher) return { command: options.launcher, args: extra, env: {} };
  return { command: options.execPath, args: [options.mainEntry, '--mcp-stdio', ...extra], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

export function claudeDesktopConfig(cmd: StdioCommand, name = 'ragdesk'): string {
  const entry = { command: cmd.command, args: cmd.args, ...(Object.keys(cmd.env).length > 0 ? { env: cmd.env } : {}) };
  return JSON.stringify({ mcpServers: { [name]: entry } }, null, 2);
}
