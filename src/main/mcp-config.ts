export interface StdioCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * How an MCP client starts ragdesk over stdio with the app's own runtime: the app executable as Node
 * (`ELECTRON_RUN_AS_NODE=1`) running the main entry with `--mcp-stdio` (what resources/bin/ragdesk-mcp does
 * too). A non-default data dir is passed along; while the app runs, the stdio server bridges to it.
 */
export function stdioCommand(options: { execPath: string; mainEntry: string; dataDir?: string }): StdioCommand {
  const extra = options.dataDir ? ['--data-dir', options.dataDir] : [];
  return { command: options.execPath, args: [options.mainEntry, '--mcp-stdio', ...extra], env: { ELECTRON_RUN_AS_NODE: '1' } };
}

export function claudeDesktopConfig(cmd: StdioCommand, name = 'ragdesk'): string {
  const entry = { command: cmd.command, args: cmd.args, ...(Object.keys(cmd.env).length > 0 ? { env: cmd.env } : {}) };
  return JSON.stringify({ mcpServers: { [name]: entry } }, null, 2);
}
