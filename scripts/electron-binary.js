// The Electron binary, fetched on first use instead of at install time.
//
// `npm ci` never downloads it: package.json's `allowScripts` denies electron's install script, so an install on a
// machine that cannot reach Electron's download host (proxies, air-gapped labs, sandboxed CI) never fails over it.
// The `electron` package itself (its types, its installer) is always installed; `npm start`, `npm run package` and
// the Electron e2e test call ensureElectron(), which runs that installer once, bounded in time, and remembers a
// failure for a day so that every later start goes straight to the headless server instead of waiting again.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** The electron package's directory under `root`, or undefined when it is not installed. */
function electronPackageDir(root) {
  const dir = path.join(root, 'node_modules', 'electron');
  return fs.existsSync(path.join(dir, 'package.json')) ? dir : undefined;
}

/** Where a failed fetch is remembered (inside node_modules: a fresh install forgets it). */
export function failureMemoPath(root) {
  return path.join(root, 'node_modules', '.cache', 'ragdesk', 'electron-fetch.json');
}

/** The Electron executable when it is on disk: `{ path }`, else `{ why }` (one sentence). */
export function electronBinary(root) {
  const dir = electronPackageDir(root);
  if (!dir) return { why: 'the electron package is not installed' };
  try {
    const bin = createRequire(path.join(root, 'package.json'))('electron');
    if (typeof bin === 'string' && fs.existsSync(bin)) return { path: bin };
    return { why: `the Electron binary is not at ${String(bin)}` };
  } catch {
    return { why: 'the Electron binary has not been downloaded' };
  }
}

function readMemo(root) {
  try {
    return JSON.parse(fs.readFileSync(failureMemoPath(root), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeMemo(root, memo) {
  const file = failureMemoPath(root);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(memo)}\n`);
  } catch {
    // Only an optimisation: the next start tries again.
  }
}

/** The first line of the installer's error that says what went wrong (e.g. `getaddrinfo ENOTFOUND github.com`). */
function firstReason(output) {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => /error|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|status code|\b40\d\b|\b50\d\b/i.test(l)) ?? lines[0];
  return (line ?? 'the download failed').replace(/^(Request)?Error:\s*/, '').slice(0, 200);
}

/** Run electron's own installer (node_modules/electron/install.js): `{ ok: true }` or `{ ok: false, why }`. */
export function fetchElectron(root, options = {}) {
  const dir = electronPackageDir(root);
  if (!dir) return Promise.resolve({ ok: false, why: 'the electron package is not installed' });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'install.js')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ok: false, why: `the download did not finish within ${Math.round(timeoutMs / 1000)} s` });
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, why: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? { ok: true } : { ok: false, why: firstReason(output) });
    });
  });
}

/**
 * The Electron executable, fetching it first when it is missing. Resolves `{ path }` or `{ why }`; never throws.
 * Skips the fetch when ELECTRON_SKIP_BINARY_DOWNLOAD or RAGDESK_HEADLESS is set, and for a day after a failure
 * (RAGDESK_FETCH_ELECTRON=1 retries at once). `onFetch` is called when a download actually starts.
 */
export async function ensureElectron(root, options = {}) {
  const env = options.env ?? process.env;
  const have = electronBinary(root);
  if (have.path) return have;
  if (env.RAGDESK_HEADLESS) return { why: 'RAGDESK_HEADLESS is set' };
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) return { why: `${have.why}, and ELECTRON_SKIP_BINARY_DOWNLOAD is set` };
  if (!electronPackageDir(root)) return have;
  const version = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const memo = readMemo(root);
  const recent = memo && memo.version === version && Date.now() - memo.failedAt < RETRY_AFTER_MS;
  if (recent && !env.RAGDESK_FETCH_ELECTRON) {
    const when = new Date(memo.failedAt).toISOString();
    return { why: `Electron ${version} could not be downloaded (${memo.why}; tried ${when}, RAGDESK_FETCH_ELECTRON=1 retries now)` };
  }
  options.onFetch?.(version);
  const fetched = await fetchElectron(root, options);
  if (fetched.ok) {
    fs.rmSync(failureMemoPath(root), { force: true });
    return electronBinary(root);
  }
  writeMemo(root, { version, failedAt: Date.now(), why: fetched.why });
  return { why: `Electron ${version} could not be downloaded (${fetched.why})` };
}
