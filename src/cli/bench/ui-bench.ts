import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Core } from '../../core/core.js';
import { buildFixtureModel } from '../../core/embed/fixture-model.js';
import { startHttpServer, type RunningHttpServer } from '../../http/server.js';
import { findConsoleDir } from '../commands/serve.js';
import { percentile, round } from './stats.js';
import { makeBenchPdf } from './ui-bench-pdf.js';

/**
 * The web console's numbers, in real Chromium against an in-process server (the same Core + HTTP server as
 * `ragdesk serve`), with the fixture embedding model so nothing is downloaded:
 * - `first_load_ms`: a cold page load (fresh browser context, empty cache) until the KB list is rendered;
 * - `drop_to_searchable_ms`: a 20-page PDF dropped on the KB page and added, until a full-text search
 *   finds the word on its last page (and, separately, until the UI shows the file done).
 */
const CHROMIUM = process.env.RAGDESK_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
const LOADS = 5;
const PAGES = 20;
const MARKER = 'quokkaberry';

/**
 * The few browser globals the page-side functions below use. This file is Node code (no DOM types, on purpose:
 * see tsconfig.json); the functions passed to Playwright's evaluate run in the page and say what they need here.
 */
interface PageGlobals {
  performance: { getEntriesByType(type: 'navigation'): Array<{ domContentLoadedEventEnd: number }> };
  atob(data: string): string;
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: Uint8Array[], name: string, options: { type: string }) => unknown;
  DragEvent: new (type: string, init: { bubbles: boolean; cancelable: boolean; dataTransfer: unknown }) => unknown;
}

async function firstLoad(browser: Browser, url: string): Promise<{ ms: number; dom_content_loaded_ms: number }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  try {
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(url);
    await page.locator('tr[data-kb="bench"]').waitFor({ timeout: 60_000 });
    const ms = performance.now() - start;
    const dcl = await page.evaluate(
      () => (globalThis as unknown as PageGlobals).performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? 0,
    );
    return { ms, dom_content_loaded_ms: dcl };
  } finally {
    await context.close();
  }
}

async function dropPdf(page: Page, pdf: Buffer): Promise<void> {
  await page.locator('[data-testid=drop-zone]').evaluate((el, b64) => {
    const g = globalThis as unknown as PageGlobals;
    const bytes = Uint8Array.from(g.atob(b64), (c) => c.charCodeAt(0));
    const dt = new g.DataTransfer();
    dt.items.add(new g.File([bytes], 'manual-20-pages.pdf', { type: 'application/pdf' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      (el as unknown as { dispatchEvent(e: unknown): boolean }).dispatchEvent(
        new g.DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }),
      );
  }, pdf.toString('base64'));
}

async function dropToSearchable(browser: Browser, server: RunningHttpServer, core: Core, token: string): Promise<Record<string, number>> {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  try {
    await page.goto(`${server.url}/#token=${token}`);
    await page.goto(`${server.url}/#/kb/bench`);
    await page.locator('[data-testid=drop-zone]').waitFor();
    const pdf = makeBenchPdf(PAGES, MARKER);
    const start = performance.now();
    await dropPdf(page, pdf);
    await page.getByTestId('preview-count').waitFor({ timeout: 60_000 });
    const previewed = performance.now() - start;
    await page.getByRole('button', { name: 'Add 1 file' }).click();
    let searchable = 0;
    const deadline = Date.now() + 120_000;
    while (!searchable && Date.now() < deadline) {
      const res = await core.client.search({ query: MARKER, kb_ids: ['bench'], mode: 'fts', top_k: 1 });
      if (res.hits.length > 0) searchable = performance.now() - start;
      else await new Promise((r) => setTimeout(r, 50));
    }
    await page.locator('[data-testid=upload-row][data-stage=done]').waitFor({ timeout: 120_000 });
    const uiDone = performance.now() - start;
    return {
      drop_to_searchable_ms: round(searchable || NaN, 0),
      drop_to_preview_ms: round(previewed, 0),
      drop_to_ui_done_ms: round(uiDone, 0),
      pdf_bytes: pdf.length,
      pdf_pages: PAGES,
    };
  } finally {
    await page.close();
  }
}

export async function benchUi(): Promise<Record<string, unknown>> {
  if (!fs.existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM} (install Debian's chromium, or set RAGDESK_CHROMIUM)` };
  const consoleDir = findConsoleDir();
  if (!consoleDir) return { skipped: 'the web console is not built (npm run build)' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-bench-ui-'));
  let core: Core | undefined;
  let server: RunningHttpServer | undefined;
  let browser: Browser | undefined;
  try {
    const model = await buildFixtureModel(path.join(dir, 'fixture-model'));
    core = await Core.open({ dataDir: path.join(dir, 'data'), allowDownload: false });
    await core.client.createKb({ kb_id: 'bench', name: 'Bench', embedding_model: model.dir });
    await core.ctx.models.getEmbedder(model.dir, { allowDownload: false });
    const token = core.lock!.info.token;
    server = await startHttpServer({ core, ownerToken: token, port: 0, staticDir: consoleDir, rateLimit: false });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });

    const loads: number[] = [];
    const dcls: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const r = await firstLoad(browser, `${server.url}/#token=${token}`);
      loads.push(r.ms);
      dcls.push(r.dom_content_loaded_ms);
    }
    const drop = await dropToSearchable(browser, server, core, token);
    const bundle = fs
      .readdirSync(path.join(consoleDir, 'assets'))
      .reduce((n, f) => n + fs.statSync(path.join(consoleDir, 'assets', f)).size, 0);
    return {
      browser: `chromium ${browser.version()}`,
      model: 'fixture (64-d, built locally)',
      first_load_ms: {
        median: round(percentile(loads, 50), 0),
        min: round(Math.min(...loads), 0),
        max: round(Math.max(...loads), 0),
        runs: LOADS,
      },
      first_load_dom_content_loaded_ms: round(percentile(dcls, 50), 0),
      console_assets_kb: round(bundle / 1024, 0),
      ...drop,
    };
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await core?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
