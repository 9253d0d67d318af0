import type { UiLanguage } from '../../shared/ui-language.js';

/**
 * The main process's own words (tray menu, tooltip, native dialogs) in every UI language. The renderer has its own
 * catalogues (src/renderer/i18n). To add a message: add its key to `MainCatalogue`, then to all three catalogues
 * (TypeScript insists), and use it through `mainText(lang, key, params)`; `{name}` in a message is a parameter, and
 * a count-dependent message gives one form per plural category of its language (Intl.PluralRules; `{count}`).
 * catalogues.test.ts fails on a key no code uses and on missing plural forms.
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export interface MainCatalogue {
  trayOpen: string;
  trayShow: string;
  trayServerRunning: string;
  trayServerStopped: string;
  trayServerStarting: string;
  trayServerOff: string;
  trayCopyUrl: string;
  trayCopyMcpConfig: string;
  trayIndexing: PluralForms;
  trayPauseIndexing: string;
  trayResumeIndexing: string;
  trayQuit: string;
  trayTooltipPaused: string;
  dialogLoginItemFailed: string;
  dialogCannotStart: string;
  dialogCannotStartBusy: string;
}

const en: MainCatalogue = {
  trayOpen: 'Open ragdesk',
  trayShow: 'Show ragdesk',
  trayServerRunning: 'Server running at {url}',
  trayServerStopped: 'Server stopped: {error}',
  trayServerStarting: 'Server starting…',
  trayServerOff: 'Server off (turn it on in Settings)',
  trayCopyUrl: 'Copy server URL',
  trayCopyMcpConfig: 'Copy MCP config (Claude Desktop)',
  trayIndexing: { one: 'Indexing {count} document…', other: 'Indexing {count} documents…' },
  trayPauseIndexing: 'Pause indexing',
  trayResumeIndexing: 'Resume indexing',
  trayQuit: 'Quit ragdesk',
  trayTooltipPaused: 'indexing paused',
  dialogLoginItemFailed: 'Could not change the login item',
  dialogCannotStart: 'ragdesk cannot start',
  dialogCannotStartBusy: 'Quit the other ragdesk (for example `ragdesk serve`) and start the app again.',
};

const ru: MainCatalogue = {
  trayOpen: 'Открыть ragdesk',
  trayShow: 'Показать ragdesk',
  trayServerRunning: 'Сервер работает: {url}',
  trayServerStopped: 'Сервер остановлен: {error}',
  trayServerStarting: 'Сервер запускается…',
  trayServerOff: 'Сервер выключен (включите его в настройках)',
  trayCopyUrl: 'Скопировать адрес сервера',
  trayCopyMcpConfig: 'Скопировать конфигурацию MCP (Claude Desktop)',
  trayIndexing: {
    one: 'Индексируется {count} документ…',
    few: 'Индексируются {count} документа…',
    many: 'Индексируются {count} документов…',
    other: 'Индексируются {count} документа…',
  },
  trayPauseIndexing: 'Приостановить индексацию',
  trayResumeIndexing: 'Возобновить индексацию',
  trayQuit: 'Выйти из ragdesk',
  trayTooltipPaused: 'индексация приостановлена',
  dialogLoginItemFailed: 'Не удалось изменить автозапуск при входе в систему',
  dialogCannotStart: 'Не удаётся запустить ragdesk',
  dialogCannotStartBusy: 'Закройте другой запущенный ragdesk (например, `ragdesk serve`) и снова откройте приложение.',
};

const zhCN: MainCatalogue = {
  trayOpen: '打开 ragdesk',
  trayShow: '显示 ragdesk',
  trayServerRunning: '服务器运行中：{url}',
  trayServerStopped: '服务器已停止：{error}',
  trayServerStarting: '服务器正在启动…',
  trayServerOff: '服务器已关闭（可在“设置”中开启）',
  trayCopyUrl: '复制服务器地址',
  trayCopyMcpConfig: '复制 MCP 配置（Claude Desktop）',
  trayIndexing: { other: '正在索引 {count} 个文档…' },
  trayPauseIndexing: '暂停索引',
  trayResumeIndexing: '恢复索引',
  trayQuit: '退出 ragdesk',
  trayTooltipPaused: '索引已暂停',
  dialogLoginItemFailed: '无法更改登录时自动启动的设置',
  dialogCannotStart: 'ragdesk 无法启动',
  dialogCannotStartBusy: '请先退出另一个正在运行的 ragdesk（例如 `ragdesk serve`），然后重新启动应用。',
};

export const MAIN_CATALOGUES: Record<UiLanguage, MainCatalogue> = { en, ru, 'zh-CN': zhCN };
