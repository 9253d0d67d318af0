import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import { OcrLanguageStore } from '../src/core/ocr/lang-store.js';
import { DEBIAN_TESSDATA, haveTessdata, ocrFixturePath } from '../src/core/ocr/test-support.js';
import { nav } from './ui-flows.js';
import { EN } from './ui-i18n.js';
import { chromiumAvailable, dropFiles, ensureConsoleBuilt, launchChromium, startServe, tempDir, type Served } from './ui-support.js';

/**
 * Scans dropped on the web console (Chromium against `ragdesk serve`): the upload row counts OCR pages as they are
 * read, the document says it was read by OCR, and a phrase of the Chinese photo finds it.
 */
const run = chromiumAvailable() && haveTessdata(['rus', 'chi_sim']) ? describe : describe.skip;

run('scans in the web console', () => {
  let dir: string;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ensureConsoleBuilt();
    dir = tempDir('ragdesk-ui-ocr-');
    const modelDir = (await buildFixtureModel(path.join(dir, 'fixture-model'))).dir;
    const dataDir = path.join(dir, 'data');
    new OcrLanguageStore({ modelsDir: path.join(dataDir, 'models') }).importFrom(DEBIAN_TESSDATA, ['rus', 'chi_sim']);
    served = await startServe(dataDir);
    const created = await fetch(`${served.url}/api/createKb`, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kb_id: 'scans', name: 'Scans', embedding_model: modelDir }),
    });
    expect(created.status).toBe(200);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 1000 }, colorScheme: 'light' });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${served.url}/#token=${served.token}`);
    await page.getByText('Scans', { exact: true }).first().waitFor();
    await page.evaluate(() => (window.location.hash = '#/kb/scans'));
    await page.getByRole('heading', { name: 'Scans', exact: true }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds an image-only PDF and a photo, counting OCR pages on the way', async () => {
    const files = ['scan-en.pdf', 'photo-zh.jpg'];
    await dropFiles(
      page,
      '[data-testid=drop-zone]',
      files.map((name) => ({ name, base64: fs.readFileSync(ocrFixturePath(name)).toString('base64') })),
    );
    await expect.poll(() => page.getByTestId('upload-row').count()).toBe(2);
    // Every OCR line the upload rows show, as they come and go.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { ocrSeen: string[] }).ocrSeen = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid=upload-ocr]'))
          if (!seen.includes(el.textContent ?? '')) seen.push(el.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: EN.t('ingest.addFiles', { count: 2 }) }).click();
    await page.getByTestId('ingest-summary').waitFor({ timeout: 240_000 });
    expect(await page.getByTestId('ingest-summary').innerText()).toContain(EN.t('ingest.added', { count: 2 }));
    const seen = await page.evaluate(() => (window as unknown as { ocrSeen: string[] }).ocrSeen);
    // The rows poll the server's progress: which page a poll lands on depends on the machine's speed, not that one
    // is shown (a fast machine may read both pages between two polls).
    const pageLines = [1, 2].map((done) => EN.t('uploads.ocrPages', { done, total: 2 }));
    expect(seen.filter((line) => pageLines.includes(line))).not.toEqual([]);
  }, 300_000);

  it('finds the photo by a phrase on it, and its document says it was read by OCR', async () => {
    await nav(page, EN.t('nav.search'));
    await page.getByLabel(EN.t('search.query')).fill('报关行');
    await page.locator('label', { hasText: EN.t('search.fts') }).click();
    await page.getByRole('button', { name: EN.t('search.submit'), exact: true }).click();
    await page.getByTestId('hit').first().waitFor();
    expect(await page.getByTestId('citation').first().innerText()).toContain('photo-zh.jpg');
    await page.getByTestId('hit').first().getByRole('button').first().click();
    const drawer = page.getByTestId('document-drawer');
    await drawer.getByText(EN.t('health.ocrPages', { count: 1 }), { exact: false }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
