#!/usr/bin/env node
// `npm start`: the desktop app where an Electron binary exists, otherwise the same app headless
// (`ragdesk serve` with the web console). Builds first if needed and loads the sample KB on first start.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cli = path.join(root, 'bin', 'ragdesk.js');
const passThrough = process.argv.slice(2);

function run(args, opts = {}) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: opts.quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  return r;
}

if (!existsSync(path.join(root, 'out', 'main', 'cli.js')) || !existsSync(path.join(root, 'out', 'renderer', 'index.html'))) {
  console.error('ragdesk: building (first start)…');
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

function electronBinary() {
  try {
    const bin = require('electron');
    return typeof bin === 'string' && existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
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

const electron = electronBinary();
const child = electron
  ? spawn(electron, [root, ...passThrough], { cwd: root, stdio: 'inherit' })
  : spawn(process.execPath, [cli, 'serve', ...passThrough], { cwd: root, stdio: 'inherit' });
if (!electron) console.error('ragdesk: no Electron binary here; running headless (ragdesk serve) with the web console.');
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
