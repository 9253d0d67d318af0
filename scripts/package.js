#!/usr/bin/env node
// `npm run package [-- electron-builder args]`: build, then package the desktop app with electron-builder
// (electron-builder.config.mjs: AppImage + deb, dmg, nsis). Without arguments it packages for this OS.
// electron-builder needs an Electron binary for every target; where none can be downloaded this stops with one line.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectron } from './electron-binary.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const electron = await ensureElectron(root, { env: { ...process.env, RAGDESK_FETCH_ELECTRON: '1' } });
if (!electron.path) {
  console.error(
    `ragdesk: cannot package the desktop app here: ${electron.why}; run \`npm run package\` where Electron's download host (or ELECTRON_MIRROR) is reachable.`,
  );
  process.exit(1);
}

const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (build.status !== 0) process.exit(build.status ?? 1);

const builder = path.join(root, 'node_modules', 'electron-builder', 'cli.js');
const args = ['--config', 'electron-builder.config.mjs', '--publish', 'never', ...process.argv.slice(2)];
const packed = spawnSync(process.execPath, [builder, ...args], { cwd: root, stdio: 'inherit' });
process.exit(packed.status ?? 1);
