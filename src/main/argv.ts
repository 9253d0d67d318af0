/** Command-line switches of the desktop app. */
export interface DesktopArgs {
  /** Run the MCP server over stdio instead of the desktop app (what Claude Desktop's config starts). */
  mcpStdio: boolean;
  /** Start hidden in the tray (passed by the login item). */
  hidden: boolean;
  /** Arguments after `--mcp-stdio`, handed to `ragdesk mcp` (e.g. `--data-dir D`). */
  rest: string[];
}

export function parseDesktopArgs(argv: readonly string[]): DesktopArgs {
  const at = argv.indexOf('--mcp-stdio');
  return {
    mcpStdio: at >= 0,
    hidden: argv.includes('--hidden'),
    rest: at >= 0 ? argv.slice(at + 1) : [],
  };
}
