import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { dropFiles, fixtureFile } from './ui-support.js';

/**
 * The UI flows of issue 4 as steps over a Playwright page, shared by the web console suite (Chromium against
 * `ragdesk serve`) and the desktop suite (Electron): the same screens, whichever RagClient is behind them.
 */
export type Shot = (name: string) => Promise<void>;
const noShot: Shot = async () => undefined;

export const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();

export async function createKb(page: Page, modelDir: string): Promise<void> {
  await page.getByRole('button', { name: 'New knowledge base' }).click();
  await page.getByLabel('Name').fill('Handbook');
  expect(await page.getByLabel('ID').inputValue()).toBe('handbook');
  await page.getByLabel('Description').fill('Logistics procedures in three languages');
  await page.getByLabel('Department').fill('logistics');
  await page.getByRole('combobox', { name: 'Embedding model' }).fill(modelDir);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.getByRole('heading', { name: 'Handbook' }).waitFor();
  expect(page.url()).toContain('#/kb/handbook');
  await page.getByText('No documents yet').waitFor();
}

export async function dropAndPreview(page: Page, shot: Shot = noShot): Promise<void> {
  await dropFiles(page, '[data-testid=drop-zone]', [
    fixtureFile('sample.md'),
    fixtureFile('sample.pdf'),
    fixtureFile('headings.docx'),
    fixtureFile('russian.docx'),
    fixtureFile('chinese.pdf'),
  ]);
  await expect.poll(() => page.getByTestId('upload-row').count()).toBe(5);
  const preview = page.getByTestId('chunk-preview');
  await preview.getByText('Preview of sample.md').waitFor();
  await preview.getByText('markdown · 256/32').waitFor();
  const before = Number((await page.getByTestId('preview-count').textContent())?.split(' ')[0]);
  expect(before).toBeGreaterThan(1);
  expect(await preview.getByTestId('chunk').first().innerText()).toMatch(/#0\s+\d+ chars · \d+ tokens/);
  await shot('kb-preview');

  // Change the strategy: the preview follows.
  const strategy = page.getByRole('combobox', { name: 'Chunking strategy' });
  await strategy.click();
  await page.getByRole('option', { name: 'Whole document (one chunk)' }).click();
  await preview.getByText(/^whole · /).waitFor();
  await expect.poll(async () => page.getByTestId('preview-count').textContent()).toBe('1 chunks');
  await strategy.click();
  await page.getByRole('option', { name: 'Sentences' }).click();
  await preview.getByText(/^sentence · /).waitFor();

  await page.getByRole('button', { name: 'Preview chinese.pdf' }).click();
  await preview.getByText('Preview of chinese.pdf').waitFor();
  await preview.getByText('parser: pdf').waitFor();
}

const stagesOf = (page: Page) =>
  page.getByTestId('upload-row').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-path')}:${r.getAttribute('data-stage')}`));

export async function commitAll(page: Page, shot: Shot = noShot): Promise<void> {
  await page.getByRole('button', { name: 'Add 5 files' }).click();
  await page.getByTestId('ingest-summary').waitFor({ timeout: 90_000 });
  expect(await stagesOf(page)).toEqual([
    'sample.md:done',
    'sample.pdf:done',
    'headings.docx:done',
    'russian.docx:done',
    'chinese.pdf:done',
  ]);
  expect(await page.getByTestId('ingest-summary').innerText()).toContain('5 added');
  await expect.poll(() => page.getByTestId('documents-table').locator('tbody tr').count()).toBe(5);
  await page.getByTestId('kb-counts').getByText('5 documents').waitFor();
  await page.getByTestId('upload-list').scrollIntoViewIfNeeded();
  await shot('kb-ingest-done');
}

export async function openChunkViewer(page: Page, shot: Shot = noShot): Promise<void> {
  await page.getByRole('button', { name: 'Таможенные платежи' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByText('russian.docx', { exact: true }).first().waitFor();
  expect(await drawer.getByTestId('document-content').innerText()).toMatch(/[А-Яа-я]{4}/);
  await drawer.getByRole('tab', { name: /View chunks/ }).click();
  await drawer.getByTestId('chunk-viewer').getByTestId('chunk').first().waitFor();
  expect(await drawer.getByTestId('chunk-viewer').innerText()).toMatch(/\d+ chunks · page 1 of 1/);
  await shot('document-chunks');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.url()).toMatch(/#\/kb\/handbook$/);
}

export async function badFileAndXss(page: Page, shot: Shot = noShot): Promise<void> {
  await dropFiles(page, '[data-testid=drop-zone]', [fixtureFile('corrupt.pdf'), fixtureFile('xss.md'), fixtureFile('xss.html')]);
  await expect.poll(() => page.getByTestId('upload-row').count()).toBe(3);
  await page.getByRole('button', { name: 'Add 3 files' }).click();
  await page.getByTestId('ingest-summary').waitFor({ timeout: 60_000 });
  expect(await stagesOf(page)).toEqual(['corrupt.pdf:error', 'xss.md:done', 'xss.html:done']);
  expect(await page.getByTestId('upload-error').innerText()).toMatch(/^parse_failed\s.*corrupt\.pdf/);
  expect(await page.getByTestId('ingest-summary').innerText()).toContain('2 added, 1 failed');
  await shot('kb-ingest-error');

  // The documents holding <script>, <img onerror>, <iframe> and javascript: links render as text only.
  await page.getByLabel('Filter by title').fill('Supplier');
  await expect.poll(() => page.getByTestId('documents-table').locator('tbody tr').count()).toBe(2);
  for (const i of [0, 1]) {
    await page.getByTestId('documents-table').locator('tbody tr').nth(i).getByRole('button').click();
    const content = page.getByTestId('document-content');
    await content.waitFor();
    expect(await content.innerText()).toMatch(/<script>|onerror|alert\(1\)/);
    expect(await content.locator('script, img, iframe, a, [onclick]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await content.waitFor({ state: 'detached' });
  }
  await page.getByLabel('Filter by title').fill('');
}

export async function searchAndOpen(page: Page, shot: Shot = noShot): Promise<void> {
  await nav(page, 'Search');
  await page.getByLabel('Query').fill('customs invoice');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByTestId('hit').first().waitFor();
  expect(await page.getByTestId('hit').count()).toBeGreaterThan(1);
  expect((await page.locator('[data-testid=hit] mark').allInnerTexts()).map((t) => t.toLowerCase())).toContain('customs');
  expect(await page.getByTestId('citation').first().innerText()).toMatch(/Handbook · .+ · chunk #\d+/);
  await shot('search');

  // A metadata filter from the builder: only the Markdown file has department = logistics.
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 field').fill('department');
  await page.getByLabel('Filter 1 value').fill('logistics');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect
    .poll(async () => [...new Set(await page.getByTestId('citation').allInnerTexts())].every((c) => c.includes('sample.md')))
    .toBe(true);

  // Click a hit: the document opens at that chunk.
  const first = page.getByTestId('hit').first();
  const chunk = Number(/chunk #(\d+)/.exec(await first.getByTestId('citation').innerText())?.[1]);
  await first.getByRole('button').first().click();
  await page.getByTestId('chunk-viewer').waitFor();
  await expect.poll(() => page.locator(`.chunk-target[data-chunk-index="${chunk}"]`).count()).toBe(1);
  await page.keyboard.press('Escape');

  // Hits from the XSS documents stay text.
  await nav(page, 'Search');
  await page.getByLabel('Query').fill('supplier alert onerror');
  await page.locator('label', { hasText: 'Full-text' }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByTestId('hit').first().waitFor();
  expect(await page.locator('[data-testid=hit] img, [data-testid=hit] script').count()).toBe(0);
}

/** Create a key (shown once), optionally check it works, revoke it (optionally check it no longer does). */
export async function apiKeys(page: Page, options: { shot?: Shot; status?: (key: string) => Promise<number> } = {}): Promise<void> {
  await nav(page, 'Settings');
  const keys = page.getByTestId('keys-section');
  await keys.getByText('No API keys yet').waitFor();
  await keys.getByLabel('Name').fill('cursor-laptop');
  await keys.getByRole('button', { name: 'Create key' }).click();
  const created = page.getByTestId('created-key');
  const key = (await created.getByTestId('copy-value').innerText()).trim();
  expect(key.length).toBeGreaterThan(20);
  await keys.getByTestId('keys-table').getByText('cursor-laptop').waitFor();
  await keys.evaluate((el) => {
    el.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -70); // below the fixed header
  });
  await options.shot?.('settings-keys');
  if (options.status) expect(await options.status(key)).toBe(200);

  await keys.getByRole('button', { name: 'Revoke cursor-laptop' }).click();
  await page.getByRole('dialog', { name: 'Revoke key?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect.poll(() => keys.getByTestId('keys-table').count()).toBe(0);
  if (options.status) expect(await options.status(key)).toBe(401);
  await page.evaluate(() => window.scrollTo(0, 0));
  await options.shot?.('settings');
}

/** The KB list with its counts, and keyboard navigation into a KB. */
export async function kbListAndKeyboard(page: Page, shot: Shot = noShot): Promise<void> {
  await nav(page, 'Knowledge bases');
  const row = page.locator('tr[data-kb="handbook"]');
  await row.waitFor();
  expect(await row.getByTestId('kb-doc-count').innerText()).toBe('7');
  await shot('kb-list');
  await page.locator('body').focus();
  let reached = false;
  for (let i = 0; i < 25 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.textContent === 'Handbook');
  }
  expect(reached).toBe(true);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Handbook' }).waitFor();
}

/** Change the handbook KB's embedding model in its edit dialog and follow the progress until it is swapped in. */
export async function changeModel(page: Page, otherModelDir: string): Promise<void> {
  await nav(page, 'Knowledge bases');
  await page.locator('tr[data-kb="handbook"]').getByText('Handbook', { exact: true }).click();
  await page.getByRole('heading', { name: 'Handbook' }).waitFor();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('combobox', { name: 'Embedding model' }).fill(otherModelDir);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('model-change').getByText(`Now using ${otherModelDir}`).waitFor({ timeout: 60_000 });
  await page.keyboard.press('Escape');
  await page.getByText(`model: ${otherModelDir.split(/[\\/]/).pop()!}`).waitFor();
}
