import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { extractFile, listPackage, statFile } from '@electron/asar';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPaths, RESOURCE_FILES } from '../src/main/app-paths.js';
import { stdioCommand } from '../src/main/mcp-config.js';
import { agentWorkflow, connectStdio, fixtureModel, runCommand, tempDir } from './launcher-support.js';

/**
 * The packaged desktop app, checked against what the runtime needs. electron-builder runs for real with
 * electron-builder.config.mjs (`--linux dir`, the step every installer target starts from); only the Electron
 * binary, which cannot be downloaded everywhere, is a stand-in that runs Node when started as Node (what the MCP
 * launcher does). Then: every built file is in app.asar, every native module the main process can load is unpacked
 * and loads from there, every resource file the code reads is in resources/, and the bundled MCP launcher serves MCP
 * from that layout with the app's executable and no Node on PATH.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const linux = process.platform === 'linux';

let dir: string;
let app: string;
let resources: string;
let asar: string;
let marker: string;

/** Every package the main process can load: the production dependency closure (dependencies + optional ones). */
function productionClosure(): Map<string, string> {
  const found = new Map<string, string>(); // package dir → name
  const locate = (name: string, from: string): string | undefined => {
    for (let d = from; ; d = path.dirname(d)) {
      const candidate = path.join(d, 'node_modules', name);
      if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
      if (d === ROOT || path.dirname(d) === d) return undefined;
    }
  };
  const visit = (pkgDir: string, names: Record<string, boolean>) => {
    for (const [name, required] of Object.entries(names)) {
      const at = locate(name, pkgDir);
      if (!at) {
        if (required) throw new Error(`${name} (needed by ${path.relative(ROOT, pkgDir) || 'ragdesk'}) is not installed`);
        continue; // an optional dependency for another platform
      }
      if (found.has(at)) continue;
      found.set(at, name);
      visit(at, depsOf(at));
    }
  };
  const depsOf = (pkgDir: string): Record<string, boolean> => {
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const out: Record<string, boolean> = {};
    for (const name of Object.keys(pkg.optionalDependencies ?? {})) out[name] = false;
    for (const name of Object.keys(pkg.dependencies ?? {})) out[name] = !(name in (pkg.optionalDependencies ?? {}));
    return out;
  };
  visit(ROOT, depsOf(ROOT));
  return found;
}

function filesUnder(dirPath: string, skipNodeModules: boolean): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dirPath, { withFileTypes: true })) {
    const p = path.join(dirPath, entry.name);
    if (entry.isDirectory()) {
      if (!(skipNodeModules && entry.name === 'node_modules')) out.push(...filesUnder(p, skipNodeModules));
    } else if (entry.isFile()) out.push(p);
  }
  return out;
}

function idOf(pkgDir: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { name: string; version: string };
  return `${pkg.name}@${pkg.version}`;
}

/** Where each package (name@version) sits inside app.asar. */
function packagesInAsar(): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of listPackage(asar, { isPack: false })) {
    const rel = entry.replace(/^[\\/]/, '');
    if (!/(^|[\\/])node_modules[\\/](@[^\\/]+[\\/])?[^\\/@][^\\/]*[\\/]package\.json$/.test(rel)) continue;
    const pkg = JSON.parse(extractFile(asar, rel, false).toString()) as { name?: string; version?: string };
    if (pkg.name && pkg.version) out.set(`${pkg.name}@${pkg.version}`, path.dirname(rel));
  }
  return out;
}

/** Whether this Node runs on glibc (a Linux with musl, such as Alpine, has no glibc version in its report). */
const onGlibc = Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);

/**
 * Native files built for another OS or CPU (onnxruntime-node ships all of them in one package), or for the other
 * C library (koffi's Linux package holds a glibc and a musl build: `linux_x64/`, `musl_x64/`).
 */
function foreign(file: string): boolean {
  const parts = file.split(path.sep);
  const os = ['darwin', 'linux', 'win32'].filter((p) => p !== process.platform);
  const cpus = ['x64', 'arm64', 'ia32', 'arm'].filter((a) => a !== process.arch);
  const otherLibc = process.platform === 'linux' ? (onGlibc ? /^musl_/ : /^linux_/) : undefined;
  return (
    parts.some((p) => os.includes(p)) ||
    parts.some((p) => cpus.includes(p)) ||
    (otherLibc !== undefined && parts.some((p) => otherLibc.test(p)))
  );
}

/** Turn app.asar into a directory of the same name (plain Node cannot read inside an asar file; Electron can). */
function asarToDirectory(archive: string): void {
  const target = `${archive}.dir`;
  if (fs.existsSync(`${archive}.unpacked`)) fs.renameSync(`${archive}.unpacked`, target);
  else fs.mkdirSync(target);
  for (const entry of listPackage(archive, { isPack: false })) {
    const rel = entry.replace(/^[\\/]/, '');
    const st = statFile(archive, rel, false) as { files?: unknown; unpacked?: boolean; executable?: boolean };
    const dest = path.join(target, rel);
    if (st.files) fs.mkdirSync(dest, { recursive: true });
    else if (!st.unpacked) {
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, extractFile(archive, rel, false), { mode: st.executable ? 0o755 : 0o644 });
    }
  }
  fs.rmSync(archive);
  fs.renameSync(target, archive);
}

beforeAll(async () => {
  if (!linux) return;
  if (!fs.existsSync(path.join(ROOT, 'out', 'main', 'index.js')))
    throw new Error('out/ is missing: run `npm run build` first (npm test does)');
  dir = tempDir('ragdesk-package-');
  marker = path.join(dir, 'stand-in-electron-ran');
  // The stand-in Electron distribution: an executable that, like Electron with ELECTRON_RUN_AS_NODE=1, runs Node.
  const dist = path.join(dir, 'electron-dist');
  fs.mkdirSync(dist);
  fs.writeFileSync(
    path.join(dist, 'electron'),
    [
      '#!/bin/sh',
      '[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "stand-in Electron: runs only as Node" >&2; exit 9; }',
      `echo "$0" >> '${marker}'`,
      `exec '${process.execPath}' "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(dist, 'version'), require('electron/package.json').version as string);
  const built = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const args = [
      path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
      '--linux',
      'dir',
      '--config',
      'electron-builder.config.mjs',
      `-c.electronDist=${dist}`,
      `-c.directories.output=${path.join(dir, 'dist')}`,
      '--publish',
      'never',
    ];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
  if (built.code !== 0) throw new Error(`electron-builder failed (${built.code}):\n${built.out}`);
  app = path.join(dir, 'dist', 'linux-unpacked');
  resources = path.join(app, 'resources');
  asar = path.join(resources, 'app.asar');
}, 300_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!linux)('the packaged desktop app (electron-builder.config.mjs)', () => {
  it('has the built app in app.asar, started by package.json’s main', () => {
    const inAsar = new Set(
      listPackage(asar, { isPack: false }).map((f) =>
        f
          .replace(/^[\\/]/, '')
          .split(path.sep)
          .join('/'),
      ),
    );
    const built = filesUnder(path.join(ROOT, 'out'), false)
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .filter((f) => !f.endsWith('.map'));
    expect(built).toEqual(
      expect.arrayContaining([
        'out/main/index.js',
        'out/main/cli.js',
        'out/main/embed-worker.js',
        'out/main/parse-worker.js',
        'out/main/analysis-worker.js',
        'out/preload/index.cjs',
      ]),
    );
    expect(built.filter((f) => !inAsar.has(f))).toEqual([]);
    const pkg = JSON.parse(extractFile(asar, 'package.json').toString()) as { main: string; type: string };
    expect(pkg.main).toBe('out/main/index.js');
    // No development-only packages (the renderer's React and Mantine are bundled into out/renderer).
    for (const dev of ['react', 'react-dom', '@mantine/core', 'electron', 'vite', 'typescript'])
      expect(inAsar.has(`node_modules/${dev}`)).toBe(false);
  });

  it('ships every production package and unpacks every native module for this platform, which loads from there', async () => {
    // electron-builder lays node_modules out anew (it may hoist another version of a package): compare packages by
    // name and version, then find each native file inside its package wherever that package landed.
    const located = packagesInAsar();
    const closure = [...productionClosure().keys()];
    expect(closure.length).toBeGreaterThan(50);
    expect(closure.map(idOf).filter((id) => !located.has(id))).toEqual([]);

    const { NATIVE_FILES } = (await import(path.join(ROOT, 'electron-builder.config.mjs'))) as { NATIVE_FILES: string[] };
    const isNative = picomatch(NATIVE_FILES, { dot: true });
    const native = closure.flatMap((pkgDir) =>
      filesUnder(pkgDir, true)
        .map((f) => path.relative(pkgDir, f))
        .filter((inPkg) => isNative(`node_modules/x/${inPkg.split(path.sep).join('/')}`) && !foreign(inPkg))
        .map((inPkg) => ({ id: idOf(pkgDir), inAsar: path.join(located.get(idOf(pkgDir))!, inPkg) })),
    );
    // The ones ragdesk cannot run without are among them: LanceDB, onnxruntime (+ its shared library), sharp.
    const names = native.map((n) => n.inAsar.split(path.sep).join('/')).join('\n');
    expect(names).toMatch(new RegExp(`@lancedb/lancedb-${process.platform}-${process.arch}.*\\.node`));
    expect(names).toMatch(new RegExp(`onnxruntime-node/bin/napi-v\\d+/${process.platform}/${process.arch}/onnxruntime_binding\\.node`));
    expect(names).toMatch(/libonnxruntime/);
    expect(names).toMatch(/sharp-.*\.node/);
    // koffi's add-on, through which every process trims glibc's heap on Linux (core/util/native-heap-trim.ts).
    expect(names).toMatch(new RegExp(`@koromix/koffi-${process.platform}-${process.arch}/.*koffi\\.node`));
    const notUnpacked = native.filter(({ inAsar }) => {
      const st = statFile(asar, inAsar, false) as { unpacked?: boolean };
      return !st.unpacked || !fs.existsSync(path.join(`${asar}.unpacked`, inAsar));
    });
    expect(notUnpacked).toEqual([]);
    // Each add-on loads from app.asar.unpacked, its shared libraries found beside it as in the app (one process
    // each: two onnxruntime versions share a library name).
    const addOns = native.filter((n) => n.inAsar.endsWith('.node')).map((n) => path.join(`${asar}.unpacked`, n.inAsar));
    const failed: string[] = [];
    for (const addOn of addOns) {
      const load = await runCommand(process.execPath, ['-e', `require(${JSON.stringify(addOn)})`], {
        env: { PATH: process.env.PATH ?? '' },
        cwd: dir,
      });
      if (load.code !== 0)
        failed.push(`${path.relative(resources, addOn)}: ${load.stderr.split('\n').find((l) => /Error/.test(l)) ?? load.stderr}`);
    }
    expect(failed).toEqual([]);
  });

  it('copies every resource file the code reads into resources/', () => {
    const wanted = [RESOURCE_FILES.icon, ...Object.values(RESOURCE_FILES.tray), ...Object.values(RESOURCE_FILES.launcher)];
    const retina = Object.values(RESOURCE_FILES.tray).map((f) => f.replace(/\.png$/, '@2x.png'));
    expect([...wanted, ...retina].filter((f) => !fs.existsSync(path.join(resources, f)))).toEqual([]);
    expect(fs.statSync(path.join(resources, RESOURCE_FILES.launcher.posix)).mode & 0o111).not.toBe(0);
    const paths = appPaths(asar, resources, {}, 'linux');
    expect(paths.resources).toBe(resources);
    expect(paths.launcher).toBe(path.join(resources, 'bin', 'ragdesk-mcp'));
    expect(fs.existsSync(path.join(app, 'ragdesk'))).toBe(true);
  });

  it('runs the bundled MCP launcher with the app’s own executable: no Node on PATH, a foreign cwd', async () => {
    asarToDirectory(asar);
    const home = path.join(dir, 'home');
    const cwd = path.join(dir, 'elsewhere');
    const bin = path.join(dir, 'bin');
    for (const d of [home, cwd, bin]) fs.mkdirSync(d, { recursive: true });
    fs.symlinkSync(fs.existsSync('/usr/bin/dirname') ? '/usr/bin/dirname' : '/bin/dirname', path.join(bin, 'dirname'));
    const env = { HOME: home, PATH: bin };
    const model = await fixtureModel(dir);
    // A KB made with the packaged CLI, run the way the app runs it (its executable as Node).
    const exe = path.join(app, 'ragdesk');
    const created = await runCommand(exe, [path.join(asar, 'out', 'main', 'cli.js'), 'kb', 'create', 'notes', '--model', model], {
      env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
      cwd,
    });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    fs.rmSync(marker, { force: true });

    const paths = appPaths(asar, resources, {}, 'linux');
    const entry = stdioCommand({ execPath: exe, mainEntry: paths.mainEntry, launcher: paths.launcher });
    expect(entry).toEqual({ command: path.join(resources, 'bin', 'ragdesk-mcp'), args: [], env: {} });
    const mcp = await connectStdio(entry, { env, cwd });
    try {
      await agentWorkflow(mcp.client, 'notes', 'from-the-app');
    } finally {
      await mcp.close();
    }
    // It ran the app's executable (as Node), not a node from PATH.
    const ran = fs.readFileSync(marker, 'utf8').trim().split('\n');
    expect(ran.map((p) => path.resolve(p))).toEqual([path.join(app, 'ragdesk')]);
  });
});

describe.skipIf(linux)('the packaged desktop app (electron-builder.config.mjs)', () => {
  it.skip('is built and checked on Linux (electron-builder --linux dir with a stand-in Electron)', () => undefined);
});
