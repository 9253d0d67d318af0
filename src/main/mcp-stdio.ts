import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `--mcp-stdio`: run the `ragdesk mcp` command (stdio MCP; it bridges to the running app's server when the data
 * dir is held) inside this runtime. The CLI is its own entry of the same build (out/main/cli.js, next to this
 * file's entry), so it is loaded by path, as the program it is, rather than imported as a module.
 */
export async function runMcpStdio(mainEntry: string, rest: readonly string[]): Promise<void> {
  const cli = path.join(path.dirname(mainEntry), 'cli.js');
  process.argv = [process.argv[0] ?? process.execPath, cli, 'mcp', ...rest];
  await import(pathToFileURL(cli).href);
}
