import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What `npm pack` puts in the npm package, and what the built code imports: only what runs (out/, bin/, resources/,
 * the sample KB, README, license), and every package the built main process, CLI and worker import is a runtime
 * dependency (the renderer's React, Mantine and i18n libraries are bundled into out/renderer, so they are not).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Packages a bundle may import without depending on them, and why. */
const PROVIDED: Record<string, string> = {
  electron: 'the desktop app runtime itself (imported by the Electron main process only)',
  'playwright-core': '`ragdesk bench` UI benchmark only: a chunk only the bench command loads, which says when it is missing',
};

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/**
 * Bare module names a built file imports: static `from '…'`, `import('…')`, `require('…')`. Comment lines (bundled
 * packages' doc examples) and a `require` that opens a template literal (the bundled ajv's standalone-code
 * templates, never run here) are text, not imports.
 */
function bareImports(file: string): Set<string> {
  const code = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\*|\/\/)/.test(line))
    .join('\n');
  const out = new Set<string>();
  const spec = `["']((?:node:)?(?:@[a-z0-9][\\w.-]*/)?[a-z0-9][\\w.-]*(?:/[\\w./-]+)?)["']`;
  const patterns = [
    new RegExp(`\\bfrom\\s*${spec}`, 'gi'),
    new RegExp(`\\bimport\\s*\\(\\s*${spec}\\s*\\)`, 'gi'),
    new RegExp(`(?<!\`)\\brequire\\s*\\(\\s*${spec}\\s*\\)`, 'gi'),
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.add(m[1]!);
  return out;
}

const packageName = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
const isBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(packageName(spec));

describe('the npm package', () => {
  it('holds only what runs: out/, bin/, resources/, the sample KB, README and LICENSE', () => {
    if (!fs.existsSync(path.join(ROOT, 'out', 'main', 'cli.js')))
      throw new Error('out/ is missing: run `npm run build` first (npm test does)');
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const [packed] = JSON.parse(
      execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
        shell: process.platform === 'win32',
      }),
    ) as { files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    const allowed =
      /^(out\/|bin\/|resources\/bin\/|resources\/tray\/|resources\/icon\.png$|rag_data\/|README\.md$|LICENSE$|package\.json$)/;
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    for (const needed of [
      'bin/ragdesk.js',
      'out/main/cli.js',
      'out/main/index.js',
      'out/main/embed-worker.js',
      'out/main/parse-worker.js',
      'out/main/analysis-worker.js',
      'out/renderer/index.html',
      'resources/bin/ragdesk-mcp',
      'resources/bin/ragdesk-mcp.cmd',
      'rag_data/en-customs-clearance.md',
      'LICENSE',
      'README.md',
    ]) {
      expect(files).toContain(needed);
    }
    expect(files.filter((f) => f.endsWith('.map') || f.startsWith('src/') || f.includes('node_modules/'))).toEqual([]);
  });

  it('depends on every package the built main process, CLI and workers import, and on nothing the renderer bundles', () => {
    const built = [...filesUnder(path.join(ROOT, 'out', 'main')), ...filesUnder(path.join(ROOT, 'out', 'preload'))].filter((f) =>
      /\.[cm]?js$/.test(f),
    );
    const imported = new Map<string, string>();
    for (const file of built)
      for (const spec of bareImports(file)) if (!isBuiltin(spec)) imported.set(packageName(spec), path.relative(ROOT, file));
    expect(imported.has('@lancedb/lancedb')).toBe(true);
    const undeclared = [...imported].filter(([name]) => !(name in pkg.dependencies) && !(name in PROVIDED)).map(([n, f]) => `${n} (${f})`);
    expect(undeclared).toEqual([]);

    const rendererOnly = ['react', 'react-dom', '@mantine/core', '@mantine/hooks', 'i18next', 'react-i18next'];
    for (const name of rendererOnly) {
      expect(imported.has(name), `${name} is imported by out/main or out/preload`).toBe(false);
      expect(name in pkg.dependencies, `${name} is a runtime dependency`).toBe(false);
    }
    // The renderer bundle is self-contained: it imports nothing by package name.
    const renderer = filesUnder(path.join(ROOT, 'out', 'renderer')).filter((f) => f.endsWith('.js'));
    expect(renderer.flatMap((f) => [...bareImports(f)])).toEqual([]);
  });
});
