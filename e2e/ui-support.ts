import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Helpers of the web-console e2e tests: build the console, spawn `ragdesk serve`, drive Debian's Chromium. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.join(ROOT, 'src/core/parse/__fixtures__');
export const SCREENSHOTS = path.join(ROOT, 'docs/screenshots');
export const CHROMIUM = process.env.RAGDESK_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Build with electron-vite when out/renderer is missing or older than the renderer/shared sources. */
export function ensureConsoleBuilt(): void {
  const index = path.join(ROOT, 'out/renderer/index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = Math.max(newestMtime(path.join(ROOT, 'src/renderer')), newestMtime(path.join(ROOT, 'src/shared')));
  if (built > sources) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Served {
  url: string;
  token: string;
  proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** `node --import tsx src/cli/index.ts serve --data-dir D --port 0`, offline; resolves with its URL and owner token. */
export function startServe(dataDir: string): Promise<Served> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'RAGDESK_DATA_DIR' && k !== 'RAGDESK_API_KEY') env[k] = v;
  Object.assign(env, { RAGDESK_OFFLINE: '1', HF_HUB_OFFLINE: '1', RAGDESK_CONSOLE_DIR: path.join(ROOT, 'out/renderer') });
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'src/cli/index.ts'), 'serve', '--data-dir', dataDir, '--port', '0'],
    { cwd: ROOT, env },
  );
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ragdesk serve did not start:\n${out}`)), 60_000);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`ragdesk serve exited (${code}):\n${out}`));
    };
    proc.once('exit', onExit);
    proc.stdout!.on('data', () => {
      const url = /listening on (http:\/\/\S+?) /.exec(out)?.[1];
      const token = /owner token: (\S+)/.exec(out)?.[1];
      if (!url || !token) return;
      clearTimeout(timer);
      proc.off('exit', onExit);
      resolve({
        url,
        token,
        proc,
        output: () => out,
        stop: () =>
          new Promise<void>((done) => {
            if (proc.exitCode !== null) return done();
            const kill = setTimeout(() => proc.kill('SIGKILL'), 10_000);
            proc.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            proc.kill('SIGTERM');
          }),
      });
    });
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM);
}

export interface DropFile {
  name: string;
  base64: string;
  type?: string;
}

export function fixtureFile(name: string, as = name): DropFile {
  return { name: as, base64: fs.readFileSync(path.join(FIXTURES, name)).toString('base64') };
}

/** Drop files on an element the way a person would: a DataTransfer built in the page, carrying real File objects. */
export async function dropFiles(page: Page, selector: string, files: DropFile[]): Promise<void> {
  await page.locator(selector).evaluate((el, list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type ?? '' }));
    }
    for (const type of ['dragenter', 'dragover', 'drop'])
      el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, files);
}

export const ARTIFACTS = path.join(ROOT, 'test-results/screenshots');

/**
 * A screenshot as a test artifact (test-results/screenshots, every run), and for the README in docs/screenshots
 * when that one is missing or RAGDESK_UPDATE_SCREENSHOTS=1 (so a plain test run leaves the work tree alone).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const artifact = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: artifact, fullPage: false });
  const readme = path.join(SCREENSHOTS, `${name}.png`);
  if (process.env.RAGDESK_UPDATE_SCREENSHOTS === '1' || !fs.existsSync(readme)) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    fs.copyFileSync(artifact, readme);
  }
}
