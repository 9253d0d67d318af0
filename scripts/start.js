#!/usr/bin/env node
// `npm start`: the desktop app where an Electron binary exists or can be fetched (once, on first start), otherwise
// the same app headless (`ragdesk serve` with the web console). Builds first if needed and loads the sample KB
// (rag_data/) on first start. Extra arguments go to the app or to `ragdesk serve`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectron } from './electron-binary.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'ragdesk.js');
const passThrough = process.argv.slice(2);

function run(args, opts = {}) {
  return spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: opts.quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
}

if (!existsSync(path.join(root, 'out', 'main', 'cli.js')) || !existsSync(path.join(root, 'out', 'renderer', 'index.html'))) {
  console.error('ragdesk: building (first start)…');
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// First start: the sample KB from rag_data/ (English, Russian and Chinese documents).
const list = run(['kb', 'list', '--json'], { quiet: true });
if (list.status === 0) {
  const kbs = JSON.parse(list.stdout || '[]');
  if (!kbs.some((k) => k.kb_id === 'sample')) {
    console.error('ragdesk: loading the sample knowledge base from rag_data/ …');
    run(
      [
        'kb',
        'create',
        'sample',
        '--name',
        'Sample: Harbor Line Trading',
        '--description',
        'Sample KB shipped with ragdesk (en/ru/zh)',
        '--languages',
        'en,ru,zh',
      ],
      { quiet: true },
    );
    run(['add', path.join(root, 'rag_data'), '--kb', 'sample', '--exclude', '**/README.md']);
  }
} else if (!/busy/.test(list.stdout + list.stderr)) {
  process.stderr.write(list.stderr);
}

// Say that a download runs only when it takes a while (where the host is unreachable it fails at once).
let slow;
const electron = await ensureElectron(root, {
  onFetch: (version) => {
    slow = setTimeout(() => console.error(`ragdesk: downloading Electron ${version} for the desktop window (first start only)…`), 1500);
  },
});
clearTimeout(slow);
if (!electron.path) {
  console.error(
    `ragdesk: running headless, no desktop window: ${electron.why}. The web console below serves your knowledge bases, the sample KB (rag_data/) included.`,
  );
}
// RAGDESK_PARENT_PID: the server stops by itself if this process dies without a word (kill -9).
const env = { ...process.env, RAGDESK_PARENT_PID: String(process.pid) };
const child = electron.path
  ? spawn(electron.path, [root, ...passThrough], { cwd: root, stdio: 'inherit', env })
  : spawn(process.execPath, [cli, 'serve', ...passThrough], { cwd: root, stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig));
// Killing npm forwards no signal (its shell dies, this process is re-parented): stop the server then too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) child.kill('SIGTERM');
}, 500).unref();
child.on('exit', (code) => process.exit(code ?? 0));
