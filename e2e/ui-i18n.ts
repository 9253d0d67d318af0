import i18next, { type TFunction } from 'i18next';
import type { Page } from 'playwright-core';
import { en } from '../src/renderer/i18n/en.js';
import { ru } from '../src/renderer/i18n/ru.js';
import { zhCN } from '../src/renderer/i18n/zh-CN.js';

/**
 * The UI's languages for the browser tests: the renderer's own catalogues through i18next (so a locator follows a
 * reworded string), Chromium flags that start the browser in a language, and a check for English left behind.
 */
export type UiLang = 'en' | 'ru' | 'zh-CN';

export interface Lang {
  code: UiLang;
  t: TFunction;
}

export function uiLang(code: UiLang): Lang {
  const i18n = i18next.createInstance();
  void i18n.init({
    lng: code,
    fallbackLng: false,
    resources: { en: { translation: en }, ru: { translation: ru }, 'zh-CN': { translation: zhCN } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return { code, t: i18n.t.bind(i18n) as TFunction };
}

export const EN = uiLang('en');

/**
 * Chromium started in a language, as a person's browser is: `--lang` sets its UI locale, and `--accept-lang` the
 * languages it sends (Accept-Language) and reports (navigator.languages); headless Chromium reads the latter only.
 */
export function chromiumLangArgs(code: UiLang): string[] {
  const accept = code === 'en' ? 'en-US,en' : code === 'ru' ? 'ru-RU,ru' : 'zh-CN,zh';
  return [`--lang=${code === 'en' ? 'en-US' : code}`, `--accept-lang=${accept}`];
}

/** Names that stay as they are in every language (products, formats, protocols, menu paths of other apps). */
const KEEP = new Set(
  (
    'ragdesk AI MCP API HTTP HTTPS PDF Word Markdown HTML EPUB RTF OpenDocument OCR UTF token top_k stdio bearer JSON Enter ' +
    'Claude Desktop Cursor VS Code npm PATH Settings Developer Edit Config Open User Configuration json cursor vscode mcp ' +
    'bin js claude_desktop_config ms kB MB GB B d e5 true false page author Ann ' +
    // ragdesk's commands (the CLI stays English)
    'serve keys create add link NAME ' +
    // the example folder path (/home/ivan/Документы/…)
    'home ivan wang ' +
    // a model folder's files, the example key name
    'transformers tokenizer onnx config cursor laptop'
  ).split(' '),
);

/**
 * Words in Latin letters in what the page shows, outside the data it displays: document text (`.doc-text`), code,
 * marks, and anything `translate="no"` (the server's own sentences). `data` holds the words of names the test
 * itself put there (knowledge base, files, titles, models). In a Russian or Chinese UI the answer should be [].
 */
export async function englishLeftBehind(page: Page, data: readonly string[]): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const skip = (el: Element | null) =>
      el?.closest('.doc-text, code, pre, mark, [translate="no"], [aria-hidden="true"], script, style, [hidden]');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || skip(el) || !node.textContent?.trim()) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
      out.push(node.textContent);
    }
    // What screen readers say counts too.
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
      if (skip(el)) continue;
      for (const attr of ['aria-label', 'placeholder', 'title']) {
        const v = el.getAttribute(attr);
        if (v) out.push(v);
      }
    }
    return out;
  });
  const words = (text: string) => text.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [];
  const allowed = new Set([...KEEP, ...data.flatMap(words)].map((w) => w.toLowerCase()));
  const left = new Set<string>();
  for (const text of texts)
    for (const word of words(text)) if (!allowed.has(word.toLowerCase())) left.add(`${word} (in "${text.slice(0, 60)}")`);
  return [...left];
}
