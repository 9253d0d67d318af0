import { fileURLToPath } from 'node:url';
import { configureHeapGrowth } from '../core/util/heap-growth.js';
import { parseDesktopArgs } from './argv.js';

/**
 * The desktop app's entry. With `--mcp-stdio` it is the bundled MCP binary (usually run as plain Node through
 * ELECTRON_RUN_AS_NODE, so nothing here may touch Electron's APIs before this branch); otherwise the app.
 */
configureHeapGrowth();
const args = parseDesktopArgs(process.argv);
if (args.mcpStdio) {
  const { runMcpStdio } = await import('./mcp-stdio.js');
  await runMcpStdio(fileURLToPath(import.meta.url), args.rest);
} else {
  const { startDesktop } = await import('./desktop.js');
  await startDesktop(args);
}
