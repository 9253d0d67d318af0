#!/usr/bin/env node
// The `ragdesk` command: runs the built CLI (npm run build puts it in out/main/cli.js).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('ragdesk is not built yet: run `npm run build` in the project folder first.\n');
  process.exit(1);
}
await import(pathToFileURL(cli).href);
