import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import {
  chromiumAvailable,
  ensureConsoleBuilt,
  FIXTURES,
  launchChromium,
  screenshot,
  startServe,
  tempDir,
  type Served,
} from './ui-support.js';

/** The KB page's folder sources and ingestion health, in Chromium against `ragdesk serve` (which watches sources). */
const run = chromiumAvailable() ? describe : describe.skip;

run('folder sources and ingestion health in the web console', () => {
  let dir: string;
  let folder: string;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const api = (method: string, body: unknown) =>
    fetch(`${served.url}/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    ensureConsoleBuilt();
    dir = tempDir('ragdesk-ui-sources-');
    const modelDir = (await buildFixtureModel(path.join(dir, 'fixture-model'))).dir;
    folder = path.join(dir, 'handbook');
    fs.mkdirSync(path.join(folder, 'policies'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'sample.md'), path.join(folder, 'import.md'));
    fs.writeFileSync(path.join(folder, 'policies/returns.txt'), 'Returns are accepted within thirty days with a receipt.');
    fs.copyFileSync(path.join(FIXTURES, 'encrypted.pdf'), path.join(folder, 'locked.pdf'));
    served = await startServe(path.join(dir, 'data'));
    expect((await api('createKb', { kb_id: 'docs', name: 'Docs', embedding_model: modelDir })).status).toBe(200);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 1000 }, colorScheme: 'light' });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${served.url}/#token=${served.token}`);
    await page.getByText('Docs', { exact: true }).first().waitFor();
    await page.evaluate(() => (window.location.hash = '#/kb/docs'));
    await page.getByRole('heading', { name: 'Docs', exact: true }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds a folder and shows it synced, with counts and the bad file in the health table', async () => {
    await page.getByLabel('Folder path').fill(folder);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const row = page.getByTestId('sources-table').locator('tbody tr');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(async () => (await row.innerText()).replace(/\s+/g, ' '), { timeout: 90_000 })
      .toMatch(/idle watching for changes .* 3 2 0 1/i);
    // The documents table follows the sync.
    await expect.poll(() => page.getByTestId('documents-table').locator('tbody tr').count(), { timeout: 15_000 }).toBe(2);
    const health = page.getByTestId('health-table');
    await health.locator('tr[data-status=encrypted]', { hasText: 'locked.pdf' }).waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: 'Folder sources' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('sources-title')?.scrollIntoView());
    await screenshot(page, 'kb-sources');
  });

  it('a file saved into the watched folder shows up by itself', async () => {
    fs.writeFileSync(path.join(folder, 'policies/shipping.txt'), 'Shipping takes five days by sea.');
    await expect.poll(() => page.getByTestId('documents-table').locator('tbody tr').count(), { timeout: 20_000 }).toBe(3);
  });

  it('pauses, resumes and removes a source', async () => {
    const row = page.getByTestId('sources-table').locator('tbody tr');
    await row.getByRole('button', { name: 'Pause' }).click();
    await row.getByTestId('source-state').getByText('paused').waitFor();
    await row.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => row.getByTestId('source-state').innerText(), { timeout: 15_000 }).toMatch(/idle/i);
    await row.getByRole('button', { name: 'Sync now' }).click();
    await row.getByRole('button', { name: `Remove ${folder}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByTestId('sources-table').count(), { timeout: 15_000 }).toBe(0);
    await page.getByText('No documents yet').waitFor({ timeout: 15_000 });
    expect(pageErrors).toEqual([]);
  });

  it('follows symbolic links only when the folder is added with the switch on', async () => {
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'credentials.txt'), 'aws_secret_access_key = harbour-crane-secret');
    const linked = path.join(dir, 'linked');
    fs.mkdirSync(linked);
    fs.writeFileSync(path.join(linked, 'inside.txt'), 'A note that really lives in the folder.');
    fs.symlinkSync(path.join(outside, 'credentials.txt'), path.join(linked, 'credentials.txt'));
    const toggle = page.getByRole('switch', { name: 'Follow links' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    expect(await toggle.isChecked()).toBe(true);
    await page.getByLabel('Folder path').fill(linked);
    await page.getByRole('button', { name: 'Add folder' }).click();
    const row = page.getByTestId('sources-table').locator('tbody tr');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(async () => (await row.innerText()).replace(/\s+/g, ' '), { timeout: 90_000 })
      .toMatch(/follows links idle .* 2 2 0 0/i);
    // The form is back to the default for the next folder.
    expect(await toggle.isChecked()).toBe(false);
    const listed = (await (await api('listSources', { kb_id: 'docs' })).json()) as Array<{ follow_links: boolean }>;
    expect(listed.map((s) => s.follow_links)).toEqual([true]);
    expect(pageErrors).toEqual([]);
  });
});
