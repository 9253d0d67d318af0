import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import { LANGUAGE_NATIVE_NAMES } from '../src/shared/ui-language.js';
import {
  commitAll,
  createKb,
  dropAndPreview,
  kbListAndKeyboard,
  nav,
  openChunkViewer,
  searchAndOpen,
  switchLanguage,
  type KbSpec,
} from './ui-flows.js';
import { chromiumLangArgs, EN, englishLeftBehind, uiLang, type UiLang } from './ui-i18n.js';
import {
  chromiumAvailable,
  CHROMIUM,
  CHROMIUM_ARGS,
  ensureConsoleBuilt,
  FIXTURES,
  screenshot,
  startServe,
  tempDir,
  type Served,
} from './ui-support.js';

/**
 * The web console's main flows in Russian and Chinese, in Chromium started in that language (`--lang`, and the
 * matching Accept-Language): it opens in the browser's language with no setting, signs in, creates a KB, drops
 * files, previews them (a broken one fails with a localised sentence), adds them, opens a document's chunks, searches
 * and opens a hit, and reads Settings, asserting the localised words and that no English is left on those screens.
 * The English run of the same flows is e2e/ui-console.test.ts. Screenshots: kb-list-<lang>.png and search-<lang>.png.
 */
const run = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable()) console.warn(`ui-languages: skipped, no Chromium at ${CHROMIUM}`);

interface Case {
  code: Exclude<UiLang, 'en'>;
  kb: KbSpec;
  query: string;
  mark: string;
  /** Words a native speaker would expect, written here by hand (not taken from the catalogues). */
  native: { signIn: string; documents3: string; addFiles3: string; nav: string[] };
}

const CASES: Case[] = [
  {
    code: 'ru',
    kb: { name: 'Справочник', id: 'spravochnik', description: 'Логистика на трёх языках', department: 'логистика' },
    query: 'таможенные платежи',
    mark: 'таможенн',
    native: {
      signIn: 'Вход в ragdesk',
      documents3: '3 документа',
      addFiles3: 'Добавить 3 файла',
      nav: ['Базы знаний', 'Поиск', 'Активность', 'Подключить агента', 'Настройки'],
    },
  },
  {
    code: 'zh-CN',
    kb: { name: '物流手册', id: 'shouce', description: '三种语言的物流流程', department: '物流' },
    query: '海关申报',
    mark: '海关',
    native: {
      signIn: '登录 ragdesk',
      documents3: '3 个文档',
      addFiles3: '添加 3 个文件',
      nav: ['知识库', '搜索', '活动', '连接智能体', '设置'],
    },
  },
];

const FILES = ['sample.md', 'russian.docx', 'chinese.pdf'];

run.each(CASES)('web console in $code (Chromium started with --lang=$code)', ({ code, kb, query, mark, native }) => {
  const L = uiLang(code);
  let dir: string;
  let modelDir: string;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const shot = (name: string) => screenshot(page, name);
  /** Names the test put on screen (they stay as they are in any language). */
  const data = async () => {
    const docs = (await api('listDocuments', { kb_id: kb.id, limit: 100 })) as { documents?: Array<{ title: string; doc_id: string }> };
    const presets = (await api('listModelPresets', {})) as Array<{ name: string; model_id: string }>;
    const headings = fs
      .readFileSync(path.join(FIXTURES, 'sample.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('#'));
    return [
      ...presets.flatMap((p) => [p.name, p.model_id]),
      ...headings,
      kb.name,
      kb.id,
      modelDir,
      ...FILES,
      'corrupt.pdf',
      'pdf docx markdown multilingual english rerank en ru zh',
      ...(docs.documents ?? []).flatMap((d) => [d.title, d.doc_id]),
    ];
  };
  const api = async (method: string, body: unknown) =>
    (
      await fetch(`${served.url}/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json();
  const noEnglish = async () => expect(await englishLeftBehind(page, await data())).toEqual([]);

  beforeAll(async () => {
    ensureConsoleBuilt();
    dir = tempDir(`ragdesk-ui-${code}-`);
    modelDir = (await buildFixtureModel(path.join(dir, 'fixture-model'))).dir;
    served = await startServe(path.join(dir, 'data'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...chromiumLangArgs(code)], headless: true });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 }, colorScheme: 'light' });
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens in the browser’s language, with nothing chosen, and signs in', async () => {
    await page.goto(`${served.url}/`);
    await page.getByRole('heading', { name: native.signIn }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('ragdesk.language')])).toEqual([code, null]);
    await page.getByLabel(L.t('signIn.keyLabel')).fill('not-a-key');
    await page.getByRole('button', { name: L.t('signIn.submit') }).click();
    await page.getByText(L.t('signIn.notAccepted')).waitFor();
    await noEnglish();
    await page.getByLabel(L.t('signIn.keyLabel')).fill(served.token);
    await page.getByRole('button', { name: L.t('signIn.submit') }).click();
    await page.getByText(L.t('kbList.emptyTitle')).waitFor();
    const links = await page
      .getByRole('navigation', { name: L.t('app.mainNav') })
      .getByRole('link')
      .allInnerTexts();
    expect(links.map((l) => l.trim())).toEqual(native.nav);
    await noEnglish();
  });

  it('creates a knowledge base (a name in its own script needs an ID typed in)', () => createKb(page, modelDir, L, kb));

  it('drops files, previews their chunks, and names a broken file’s problem in the language', async () => {
    await dropAndPreview(page, undefined, L, [...FILES, 'corrupt.pdf']);
    await page.getByRole('button', { name: L.t('uploads.previewNamed', { file: 'corrupt.pdf' }) }).click();
    const preview = page.getByTestId('chunk-preview');
    await preview.getByText(L.t('preview.cannotAdd')).waitFor();
    expect(await preview.getByTestId('error-text').innerText()).toBe(L.t('errors.parse_failed_named', { file: 'corrupt.pdf' }));
    await noEnglish();
    await page.getByRole('button', { name: L.t('uploads.removeNamed', { file: 'corrupt.pdf' }) }).click();
    await page.getByRole('button', { name: native.addFiles3 }).waitFor();
  });

  it('adds the files, with counts in the language’s plural forms', async () => {
    await commitAll(page, undefined, L, FILES);
    await page.getByTestId('kb-counts').getByText(native.documents3).waitFor();
    await noEnglish();
  });

  it('opens a document’s chunks', () => openChunkViewer(page, undefined, L, kb.id));

  it('searches in the language, opens a hit at its chunk, and the search page has no English left', async () => {
    await searchAndOpen(page, shot, L, { query, mark, kbName: kb.name });
    await nav(page, L.t('nav.search'), L);
    await page.getByLabel(L.t('search.query')).fill(query);
    await page.getByRole('button', { name: L.t('search.submit'), exact: true }).click();
    await page.getByTestId('hit').first().waitFor();
    await noEnglish();
  });

  it('lists the knowledge base with its counts', async () => {
    await kbListAndKeyboard(page, shot, L, { id: kb.id, name: kb.name, documents: FILES.length });
    await nav(page, L.t('nav.kbs'), L);
    await page.locator(`tr[data-kb="${kb.id}"]`).waitFor();
    await noEnglish();
  });

  it('shows Settings in the language, with the switch on “same as the browser”', async () => {
    await nav(page, L.t('nav.settings'), L);
    await page.getByTestId('keys-section').getByText(L.t('keys.emptyTitle')).waitFor();
    const select = page.getByRole('combobox', { name: L.t('language.label') }).first();
    expect(await select.inputValue()).toBe(L.t('language.browser', { language: LANGUAGE_NATIVE_NAMES[code] }));
    await page.getByText(L.t('models.title'), { exact: true }).waitFor();
    await noEnglish();
  });

  it('shows the agent configs and the activity log in the language', async () => {
    await nav(page, L.t('nav.connect'), L);
    await page.getByTestId('config-claude-desktop').waitFor();
    await page.getByText(L.t('connect.tokenLabel')).waitFor();
    await noEnglish();
    await nav(page, L.t('nav.activity'), L);
    await page.getByText(L.t('activity.emptyTitle')).waitFor();
    await noEnglish();
  });

  it('switches to English at once and back to the browser’s language', async () => {
    await switchLanguage(page, L, EN, 'English');
    await switchLanguage(page, EN, L, EN.t('language.browser', { language: LANGUAGE_NATIVE_NAMES[code] }));
    expect(pageErrors).toEqual([]);
  });
});
