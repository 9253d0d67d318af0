import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { EN, type Lang } from './ui-i18n.js';
import { dropFiles, fixtureFile } from './ui-support.js';

/**
 * The UI flows of issue 4 as steps over a Playwright page, shared by the web console suite (Chromium against
 * `ragdesk serve`), the language suite (the same flows in Russian and Chinese) and the desktop suite (Electron):
 * the same screens, whichever RagClient is behind them. Every step finds its controls by the words of the UI
 * language `L` (the renderer's catalogues), so it also checks that those words are on screen.
 */
export type Shot = (name: string) => Promise<void>;
const noShot: Shot = async () => undefined;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern for any plural form of a count message (`counts.chunks`: "1 chunk", "5 chunks", "21 фрагмент"…). */
export function countPattern(L: Lang, key: string): string {
  const forms = new Set([1, 2, 5, 21, 1.5].map((n) => escape(L.t(key, { count: n })).replace(/1\\\.5|1,5|21|[125]/, '§')));
  return `(?:${[...forms].map((f) => f.replace('§', '[\\d\\s,.\u00a0\u202f]+')).join('|')})`;
}

/** A pattern for a message whose parameters are themselves patterns. */
export function messagePattern(L: Lang, key: string, params: Record<string, string>): RegExp {
  const marks = Object.fromEntries(Object.keys(params).map((p, i) => [p, `\u0001${i}\u0001`]));
  let source = escape(L.t(key, marks));
  Object.values(params).forEach((pattern, i) => (source = source.replace(`\u0001${i}\u0001`, pattern)));
  return new RegExp(source);
}

export const nav = (page: Page, name: string, L: Lang = EN) =>
  page
    .getByRole('navigation', { name: L.t('app.mainNav') })
    .getByRole('link', { name })
    .click();

export interface KbSpec {
  name: string;
  id: string;
  description: string;
  department: string;
}

export const HANDBOOK: KbSpec = {
  name: 'Handbook',
  id: 'handbook',
  description: 'Logistics procedures in three languages',
  department: 'logistics',
};

export async function createKb(page: Page, modelDir: string, L: Lang = EN, kb: KbSpec = HANDBOOK): Promise<void> {
  await page
    .getByRole('button', { name: L.t('kbList.new') })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: L.t('kbForm.newTitle') });
  await dialog.getByLabel(L.t('common.name')).fill(kb.name);
  const id = dialog.getByLabel(L.t('kbForm.id'));
  // The ID follows the name where it can (Latin names); a Cyrillic or Chinese name leaves it to the person.
  if (/^[A-Za-z]/.test(kb.name)) expect(await id.inputValue()).toBe(kb.id);
  else {
    expect(await id.inputValue()).toBe('');
    await id.fill(kb.id);
  }
  await dialog.getByLabel(L.t('kbForm.description')).fill(kb.description);
  await dialog.getByLabel(L.t('kbForm.department')).fill(kb.department);
  await dialog.getByRole('combobox', { name: L.t('kbForm.model') }).fill(modelDir);
  await dialog.getByRole('button', { name: L.t('common.create'), exact: true }).click();
  await page.getByRole('heading', { name: kb.name }).waitFor();
  expect(page.url()).toContain(`#/kb/${kb.id}`);
  await page.getByText(L.t('docs.none')).waitFor();
}

export const FIVE_FILES = ['sample.md', 'sample.pdf', 'headings.docx', 'russian.docx', 'chinese.pdf'];

export async function dropAndPreview(page: Page, shot: Shot = noShot, L: Lang = EN, files: string[] = FIVE_FILES): Promise<void> {
  await dropFiles(
    page,
    '[data-testid=drop-zone]',
    files.map((f) => fixtureFile(f)),
  );
  await expect.poll(() => page.getByTestId('upload-row').count()).toBe(files.length);
  const preview = page.getByTestId('chunk-preview');
  const count = page.getByTestId('preview-count');
  const chunking = page.getByTestId('preview-chunking');
  await preview.getByText(L.t('preview.title', { file: 'sample.md' })).waitFor();
  // The first preview waits for the server's parse workers to start (slow on a busy 2-core machine).
  await preview.locator('[data-testid=preview-chunking][data-strategy=markdown]').waitFor({ timeout: 90_000 });
  expect(await chunking.innerText()).toBe(`${L.t('chunking.shortMarkdown')} · 256/32`.toUpperCase());
  const before = Number(await count.getAttribute('data-count'));
  expect(before).toBeGreaterThan(1);
  expect((await count.innerText()).toLowerCase()).toBe(L.t('counts.chunks', { count: before }).toLowerCase());
  expect(await preview.getByTestId('chunk').first().innerText()).toMatch(
    new RegExp(`#0\\s+${countPattern(L, 'counts.characters')} · ${countPattern(L, 'counts.tokens')}`),
  );
  await shot(`kb-preview${L.code === 'en' ? '' : `-${L.code}`}`);

  // Change the strategy: the preview follows.
  const strategy = page.getByRole('combobox', { name: L.t('chunking.strategy') });
  await strategy.click();
  await page.getByRole('option', { name: L.t('chunking.whole') }).click();
  await preview.locator('[data-testid=preview-chunking][data-strategy=whole]').waitFor();
  await expect.poll(() => count.getAttribute('data-count')).toBe('1');
  expect((await count.innerText()).toLowerCase()).toBe(L.t('counts.chunks', { count: 1 }).toLowerCase());
  await strategy.click();
  await page.getByRole('option', { name: L.t('chunking.sentence') }).click();
  await preview.locator('[data-testid=preview-chunking][data-strategy=sentence]').waitFor();

  await page.getByRole('button', { name: L.t('uploads.previewNamed', { file: 'chinese.pdf' }) }).click();
  await preview.getByText(L.t('preview.title', { file: 'chinese.pdf' })).waitFor();
  await preview.getByText(L.t('preview.parser', { parser: 'pdf' }), { exact: true }).waitFor();
}

const stagesOf = (page: Page) =>
  page.getByTestId('upload-row').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-path')}:${r.getAttribute('data-stage')}`));

export async function commitAll(page: Page, shot: Shot = noShot, L: Lang = EN, files: string[] = FIVE_FILES): Promise<void> {
  await page.getByRole('button', { name: L.t('ingest.addFiles', { count: files.length }) }).click();
  await page.getByTestId('ingest-summary').waitFor({ timeout: 90_000 });
  expect(await stagesOf(page)).toEqual(files.map((f) => `${f}:done`));
  expect(await page.getByTestId('ingest-summary').innerText()).toContain(L.t('ingest.added', { count: files.length }));
  await expect.poll(() => page.getByTestId('documents-table').locator('tbody tr').count()).toBe(files.length);
  await page
    .getByTestId('kb-counts')
    .getByText(L.t('counts.documents', { count: files.length }), { exact: false })
    .waitFor();
  await page.getByTestId('upload-list').scrollIntoViewIfNeeded();
  await shot(`kb-ingest-done${L.code === 'en' ? '' : `-${L.code}`}`);
}

export async function openChunkViewer(page: Page, shot: Shot = noShot, L: Lang = EN, kbId = 'handbook'): Promise<void> {
  await page.getByRole('button', { name: 'Таможенные платежи' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByText('russian.docx', { exact: true }).first().waitFor();
  expect(await drawer.getByTestId('document-content').innerText()).toMatch(/[А-Яа-я]{4}/);
  await drawer.getByRole('tab', { name: L.t('doc.tabChunks') }).click();
  await drawer.getByTestId('chunk-viewer').getByTestId('chunk').first().waitFor();
  expect(await drawer.getByTestId('chunk-viewer').innerText()).toMatch(
    messagePattern(L, 'doc.chunksPage', { chunks: countPattern(L, 'counts.chunks'), page: '1', pages: '1' }),
  );
  if (L.code === 'en') await shot('document-chunks');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.url()).toMatch(new RegExp(`#/kb/${kbId}$`));
}

export async function badFileAndXss(page: Page, shot: Shot = noShot, L: Lang = EN): Promise<void> {
  await dropFiles(page, '[data-testid=drop-zone]', [fixtureFile('corrupt.pdf'), fixtureFile('xss.md'), fixtureFile('xss.html')]);
  await expect.poll(() => page.getByTestId('upload-row').count()).toBe(3);
  await page.getByRole('button', { name: L.t('ingest.addFiles', { count: 3 }) }).click();
  await page.getByTestId('ingest-summary').waitFor({ timeout: 60_000 });
  expect(await stagesOf(page)).toEqual(['corrupt.pdf:error', 'xss.md:done', 'xss.html:done']);
  // The error reads as a sentence in the UI language, with the file name; the stable code and the server's words follow.
  const error = page.getByTestId('upload-error');
  expect(await error.getAttribute('data-code')).toBe('parse_failed');
  expect(await error.getByTestId('error-text').innerText()).toBe(L.t('errors.parse_failed_named', { file: 'corrupt.pdf' }));
  expect(await error.getByTestId('error-detail').innerText()).toMatch(/^parse_failed\s.*corrupt\.pdf/);
  expect(await page.getByTestId('ingest-summary').innerText()).toContain(
    `${L.t('ingest.added', { count: 2 })}${L.t('common.listSeparator')}${L.t('ingest.failed', { count: 1 })}`,
  );
  await shot('kb-ingest-error');

  // The documents holding <script>, <img onerror>, <iframe> and javascript: links render as text only.
  await page.getByLabel(L.t('docs.filterLabel')).fill('Supplier');
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
  await page.getByLabel(L.t('docs.filterLabel')).fill('');
}

export interface SearchSpec {
  query: string;
  /** A word the hits must mark (lower case). */
  mark: string;
  kbName: string;
  /** A metadata filter that leaves only one file's hits. */
  filter?: { field: string; value: string; file: string };
  /** Also check that hits from the XSS documents stay text. */
  xss?: boolean;
}

export const HANDBOOK_SEARCH: SearchSpec = {
  query: 'customs invoice',
  mark: 'customs',
  kbName: 'Handbook',
  filter: { field: 'department', value: 'logistics', file: 'sample.md' },
  xss: true,
};

export async function searchAndOpen(page: Page, shot: Shot = noShot, L: Lang = EN, spec: SearchSpec = HANDBOOK_SEARCH): Promise<void> {
  const submit = () => page.getByRole('button', { name: L.t('search.submit'), exact: true }).click();
  await nav(page, L.t('nav.search'), L);
  await page.getByLabel(L.t('search.query')).fill(spec.query);
  await submit();
  await page.getByTestId('hit').first().waitFor();
  expect(await page.getByTestId('hit').count()).toBeGreaterThan(1);
  const marked = (await page.locator('[data-testid=hit] mark').allInnerTexts()).map((t) => t.toLowerCase());
  expect(
    marked.some((m) => m.includes(spec.mark)),
    `marks: ${marked.join(', ')}`,
  ).toBe(true);
  const citation = messagePattern(L, 'search.citation', { kb: escape(spec.kbName), doc: '.+', index: '(\\d+)' });
  expect(await page.getByTestId('citation').first().innerText()).toMatch(citation);
  expect(await page.getByTestId('hits-summary').innerText()).toMatch(
    messagePattern(L, 'search.summary', { hits: countPattern(L, 'counts.hits'), mode: escape(L.t('search.hybrid')) }),
  );
  await shot(`search${L.code === 'en' ? '' : `-${L.code}`}`);

  if (spec.filter) {
    // A metadata filter from the builder: only one file has this value.
    const { field, value, file } = spec.filter;
    await page.getByRole('button', { name: L.t('filters.add') }).click();
    await page.getByLabel(L.t('filters.fieldAria', { n: 1 })).fill(field);
    await page.getByLabel(L.t('filters.valueAria', { n: 1 })).fill(value);
    await submit();
    await expect
      .poll(async () => [...new Set(await page.getByTestId('citation').allInnerTexts())].every((c) => c.includes(file)))
      .toBe(true);
  }

  // Click a hit: the document opens at that chunk.
  const first = page.getByTestId('hit').first();
  const chunk = Number(citation.exec(await first.getByTestId('citation').innerText())?.[1]);
  await first.getByRole('button').first().click();
  await page.getByTestId('chunk-viewer').waitFor();
  await expect.poll(() => page.locator(`.chunk-target[data-chunk-index="${chunk}"]`).count()).toBe(1);
  await page.keyboard.press('Escape');

  if (spec.xss) {
    // Hits from the XSS documents stay text.
    await nav(page, L.t('nav.search'), L);
    await page.getByLabel(L.t('search.query')).fill('supplier alert onerror');
    await page.locator('label', { hasText: L.t('search.fts') }).click();
    await submit();
    await page.getByTestId('hit').first().waitFor();
    expect(await page.locator('[data-testid=hit] img, [data-testid=hit] script').count()).toBe(0);
  }
}

/** Create a key (shown once), optionally check it works, revoke it (optionally check it no longer does). */
export async function apiKeys(
  page: Page,
  options: { shot?: Shot; status?: (key: string) => Promise<number> } = {},
  L: Lang = EN,
): Promise<void> {
  await nav(page, L.t('nav.settings'), L);
  const keys = page.getByTestId('keys-section');
  await keys.getByText(L.t('keys.emptyTitle')).waitFor();
  await keys.getByLabel(L.t('common.name')).fill('cursor-laptop');
  await keys.getByRole('button', { name: L.t('keys.create') }).click();
  const created = page.getByTestId('created-key');
  const key = (await created.getByTestId('copy-value').innerText()).trim();
  expect(key.length).toBeGreaterThan(20);
  await created.getByText(L.t('keys.created', { name: 'cursor-laptop' })).waitFor();
  await keys.getByTestId('keys-table').getByText('cursor-laptop').waitFor();
  await keys.evaluate((el) => {
    el.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -70); // below the fixed header
  });
  await options.shot?.('settings-keys');
  if (options.status) expect(await options.status(key)).toBe(200);

  await keys.getByRole('button', { name: L.t('keys.revokeNamed', { name: 'cursor-laptop' }) }).click();
  await page
    .getByRole('dialog', { name: L.t('keys.revokeTitle') })
    .getByRole('button', { name: L.t('keys.revoke') })
    .click();
  await expect.poll(() => keys.getByTestId('keys-table').count()).toBe(0);
  if (options.status) expect(await options.status(key)).toBe(401);
  await page.evaluate(() => window.scrollTo(0, 0));
  await options.shot?.('settings');
}

/** The KB list with its counts, and keyboard navigation into a KB. */
export async function kbListAndKeyboard(
  page: Page,
  shot: Shot = noShot,
  L: Lang = EN,
  kb: { id: string; name: string; documents: number } = { id: 'handbook', name: 'Handbook', documents: 7 },
): Promise<void> {
  await nav(page, L.t('nav.kbs'), L);
  const row = page.locator(`tr[data-kb="${kb.id}"]`);
  await row.waitFor();
  expect(await row.getByTestId('kb-doc-count').innerText()).toBe(String(kb.documents));
  await shot(`kb-list${L.code === 'en' ? '' : `-${L.code}`}`);
  await page.locator('body').focus();
  let reached = false;
  for (let i = 0; i < 25 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate((name) => document.activeElement?.textContent === name, kb.name);
  }
  expect(reached).toBe(true);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: kb.name }).waitFor();
}

/** Change the handbook KB's embedding model in its edit dialog and follow the progress until it is swapped in. */
export async function changeModel(page: Page, otherModelDir: string, L: Lang = EN): Promise<void> {
  await nav(page, L.t('nav.kbs'), L);
  await page.locator('tr[data-kb="handbook"]').getByText('Handbook', { exact: true }).click();
  await page.getByRole('heading', { name: 'Handbook' }).waitFor();
  await page.getByRole('button', { name: L.t('common.edit'), exact: true }).click();
  await page.getByRole('combobox', { name: L.t('kbForm.model') }).fill(otherModelDir);
  await page.getByRole('button', { name: L.t('common.save'), exact: true }).click();
  await page
    .getByTestId('model-change')
    .getByText(L.t('modelChange.done', { model: otherModelDir }))
    .waitFor({ timeout: 60_000 });
  await page.keyboard.press('Escape');
  await page.getByText(L.t('kbPage.model', { model: otherModelDir.split(/[\\/]/).pop()! })).waitFor();
}

/**
 * The language switch in Settings: picking `to` changes every word at once (no reload) and is remembered; "same as
 * the browser" goes back to `from`.
 */
export async function switchLanguage(page: Page, from: Lang, to: Lang, nativeName: string): Promise<void> {
  await nav(page, from.t('nav.settings'), from);
  const select = page.getByRole('combobox', { name: from.t('language.label') }).first();
  await select.click();
  await page.getByRole('option', { name: nativeName }).click();
  await page.getByRole('heading', { name: to.t('nav.settings'), level: 2 }).waitFor();
  await page
    .getByRole('navigation', { name: to.t('app.mainNav') })
    .getByRole('link', { name: to.t('nav.kbs') })
    .waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(to.code);
}
