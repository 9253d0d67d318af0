import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import {
  apiKeys,
  badFileAndXss,
  changeModel,
  commitAll,
  createKb,
  dropAndPreview,
  kbListAndKeyboard,
  nav,
  openChunkViewer,
  searchAndOpen,
  switchLanguage,
} from './ui-flows.js';
import { EN, uiLang } from './ui-i18n.js';
import {
  chromiumAvailable,
  CHROMIUM,
  ensureConsoleBuilt,
  launchChromium,
  screenshot,
  startServe,
  tempDir,
  type Served,
} from './ui-support.js';

/**
 * The web console in real Chromium (Debian's, headless) against `ragdesk serve` on a temp data dir, as a new
 * user would use it: sign in, create a KB, drop files, preview and change the chunking, add them with progress,
 * read chunks, search and open a hit, see a bad file fail while the others succeed, manage API keys, and make
 * sure document text never runs as HTML. Screenshots of each main screen go to docs/screenshots/.
 */
const run = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable())
  console.warn(`ui-console: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set RAGDESK_CHROMIUM)`);

run('web console in Chromium against ragdesk serve', () => {
  let dir: string;
  let modelDir: string;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const shot = (name: string) => screenshot(page, name);

  beforeAll(async () => {
    ensureConsoleBuilt();
    dir = tempDir('ragdesk-ui-');
    modelDir = (await buildFixtureModel(path.join(dir, 'fixture-model'))).dir;
    served = await startServe(path.join(dir, 'data'));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 }, colorScheme: 'light' });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('asks for a key, refuses a wrong one, and signs in with the token serve printed', async () => {
    await page.goto(`${served.url}/`);
    await page.getByLabel(EN.t('signIn.keyLabel')).fill('not-a-key');
    await page.getByRole('button', { name: EN.t('signIn.submit') }).click();
    await expect.poll(() => page.getByText(EN.t('signIn.notAccepted')).count()).toBe(1);
    await shot('sign-in');
    await page.getByLabel(EN.t('signIn.keyLabel')).fill(served.token);
    await page.getByRole('button', { name: EN.t('signIn.submit') }).click();
    await page.getByText(EN.t('kbList.emptyTitle')).waitFor();
    await shot('kb-list-empty');
    // The token lives in sessionStorage only.
    expect(await page.evaluate(() => [sessionStorage.getItem('ragdesk.token'), localStorage.length])).toEqual([served.token, 0]);
  });

  it('creates a knowledge base', () => createKb(page, modelDir));
  it('drops md, pdf, docx, Russian and Chinese files and previews their chunks', () => dropAndPreview(page, shot));
  it('adds the files one at a time and every one reaches done', () => commitAll(page, shot));
  it('opens a document and its chunk viewer', () => openChunkViewer(page, shot));
  it('keeps going past a broken file, shows its error code, and renders the XSS documents as text', () => badFileAndXss(page, shot));
  it('searches, highlights the query terms, filters by metadata and opens a hit at its chunk', () => searchAndOpen(page, shot));

  it('creates an API key, shows it once, lets it sign in, and revokes it', async () => {
    const status = (key: string) =>
      page.evaluate(
        async (k) =>
          (
            await fetch('/api/listKbs', {
              method: 'POST',
              headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
              body: '{}',
            })
          ).status,
        key,
      );
    await apiKeys(page, { shot, status });
  });

  it('shows ready-to-copy agent configs for stdio and HTTP with the bearer token', async () => {
    await nav(page, EN.t('nav.connect'));
    await page.getByTestId('config-claude-desktop').waitFor();
    const http = await page.getByTestId('config-cursor-http').getByTestId('copy-value').innerText();
    expect(JSON.parse(http)).toEqual({
      mcpServers: { ragdesk: { url: `${served.url}/mcp`, headers: { Authorization: `Bearer ${served.token}` } } },
    });
    // The data dir arrives with the diagnostic call: poll until the config shows it.
    const stdio = async () =>
      JSON.parse(await page.getByTestId('config-vscode-stdio').getByTestId('copy-value').innerText()).servers.ragdesk;
    await expect
      .poll(stdio, { timeout: 15_000 })
      .toEqual({ type: 'stdio', command: 'ragdesk', args: ['mcp', '--data-dir', path.join(dir, 'data')] });
    await shot('connect');
  });

  it('shows MCP calls in the activity log, live', async () => {
    await nav(page, EN.t('nav.activity'));
    await page.getByText(EN.t('activity.emptyTitle')).waitFor();
    // An agent connects over HTTP and searches; the open page picks the calls up by itself.
    const agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${served.token}` } },
      }),
    );
    await agent.callTool({ name: 'list_accessible_kbs', arguments: {} });
    await agent.callTool({ name: 'search_kb', arguments: { kb_id: 'handbook', query: 'customs clearance' } });
    await agent.close();
    const table = page.getByTestId('activity-table');
    await table.getByText('search_kb').waitFor({ timeout: 15_000 });
    expect(await table.innerText()).toContain('customs clearance');
    expect(await table.innerText()).toContain('e2e-agent');
    await shot('activity');
  });

  it('lists KBs with counts, follows the OS colour scheme, and works from the keyboard', async () => {
    await kbListAndKeyboard(page, shot);
    await nav(page, EN.t('nav.kbs'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('kb-list-dark');
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('changes the embedding model of a KB with documents from the edit dialog, with progress', async () => {
    await changeModel(page, (await buildFixtureModel(path.join(dir, 'fixture-model-32'), { dim: 32, seed: 7 })).dir);
  });

  it('switches the language in Settings at once, remembers it in this browser, and can follow the browser again', async () => {
    const ru = uiLang('ru');
    await switchLanguage(page, EN, ru, 'Русский');
    expect(await page.evaluate(() => localStorage.getItem('ragdesk.language'))).toBe('ru');
    await page.reload();
    await page.getByRole('heading', { name: ru.t('nav.settings'), level: 2 }).waitFor();
    await switchLanguage(page, ru, EN, ru.t('language.browser', { language: 'English' }));
    expect(await page.evaluate(() => localStorage.getItem('ragdesk.language'))).toBeNull();
  });

  it('creates a full-text only KB (model none) and says so on its page and in the list', async () => {
    await nav(page, EN.t('nav.kbs'));
    const plain = { name: 'Plain notes', id: 'plain-notes', description: 'Keyword search only', department: 'ops' };
    await createKb(page, 'none', EN, plain);
    await page.getByText(EN.t('kbPage.fullTextOnly'), { exact: true }).waitFor();
    await nav(page, EN.t('nav.kbs'));
    await page
      .getByRole('row', { name: new RegExp(plain.name) })
      .getByText(EN.t('kbPage.fullTextOnly'), { exact: true })
      .waitFor();
  });

  it('never opened a dialog or threw in the page', () => {
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
