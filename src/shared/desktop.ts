import { z } from 'zod';
import { ChunkingConfigSchema, DEFAULT_CHUNKING, DocIdSchema, KbIdSchema } from './contract/common.js';
import type { ClientOf, OpSpec } from './contract/op.js';
import type { ErrorEnvelope } from './errors.js';
import { LANGUAGE_SETTINGS } from './ui-language.js';

/**
 * The desktop app's own operations (settings, server status), next to the contract: they travel over the same
 * single IPC channel, are validated in main with these schemas, and exist only inside Electron.
 */

/** The one IPC channel between the preload and main. */
export const IPC_CHANNEL = 'ragdesk:invoke';

export type IpcReply = { ok: true; result: unknown } | { ok: false; error: ErrorEnvelope };

/** What the preload puts on `window.ragdesk`: the method names it forwards and one `invoke`. Nothing else. */
export interface DesktopBridge {
  readonly methods: readonly string[];
  invoke(method: string, input: unknown): Promise<IpcReply>;
}

export const THEMES = ['system', 'light', 'dark'] as const;

/** The settings file (`<app data>/settings.json`): electron-store writes it, the CLI reads it through `conf`. */
export const AppSettingsSchema = z.object({
  /** Empty: the default data dir (RAGDESK_DATA_DIR or the OS app-data dir). */
  dataDir: z.string().max(4096).default(''),
  server: z
    .object({
      enabled: z.boolean().default(true),
      /** 0: any free port. */
      port: z.number().int().min(0).max(65535).default(7300),
    })
    .default({ enabled: true, port: 7300 }),
  /** Embedding model for new KBs: a preset name or a model folder. */
  embeddingModel: z.string().min(1).max(1024).default('multilingual'),
  chunking: ChunkingConfigSchema.default(DEFAULT_CHUNKING),
  closeToTray: z.boolean().default(true),
  launchAtLogin: z.boolean().default(false),
  /** Start hidden in the tray when launched at login. */
  startHidden: z.boolean().default(true),
  theme: z.enum(THEMES).default('system'),
  /** The interface language (app, tray, dialogs): `system` follows the OS's preferred languages. */
  language: z.enum(LANGUAGE_SETTINGS).default('system'),
});
export type AppSettings = z.output<typeof AppSettingsSchema>;
export const DEFAULT_APP_SETTINGS: AppSettings = AppSettingsSchema.parse({});

export const AppSettingsPatchSchema = z
  .object({
    dataDir: z.string().max(4096),
    server: z.object({ enabled: z.boolean(), port: z.number().int().min(0).max(65535) }),
    embeddingModel: z.string().min(1).max(1024),
    chunking: ChunkingConfigSchema,
    closeToTray: z.boolean(),
    launchAtLogin: z.boolean(),
    startHidden: z.boolean(),
    theme: z.enum(THEMES),
    language: z.enum(LANGUAGE_SETTINGS),
  })
  .partial()
  .strict();
export type AppSettingsPatch = z.input<typeof AppSettingsPatchSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  platform: z.string(),
  data_dir: z.string(),
  server: z.object({
    running: z.boolean(),
    url: z.string().nullable(),
    error: z.string().nullable(),
  }),
  /** Bearer token for the local HTTP server and `/mcp` (the owner's token). */
  token: z.string().nullable(),
  /** How an MCP client starts the bundled stdio server. */
  mcp_stdio: z.object({ command: z.string(), args: z.array(z.string()), env: z.record(z.string(), z.string()) }),
  indexing_paused: z.boolean(),
  /** Whether a data dir / server change needs a restart to take effect. */
  restart_needed: z.boolean(),
  /**
   * The OS's preferred languages, most preferred first (Electron's app.getPreferredSystemLanguages): the UI follows
   * them while the language setting is `system`. Absent: the window's own (Chromium's) languages stand in.
   */
  system_languages: z.array(z.string().max(64)).max(32).optional(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

const Empty = z.object({}).strict();

/** The window is the owner: every desktop operation is `admin` (it never reaches a key). */
const desktopOp = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string): OpSpec<I, O> => ({
  input,
  output,
  kind: 'admin',
  summary,
});

export const desktopContract = {
  appInfo: desktopOp(Empty, AppInfoSchema, 'Version, data dir, server URL and token, MCP launcher, pause state'),
  getSettings: desktopOp(Empty, AppSettingsSchema, 'The settings'),
  updateSettings: desktopOp(AppSettingsPatchSchema, AppSettingsSchema, 'Change settings (applied at once where possible)'),
  setIndexingPaused: desktopOp(z.object({ paused: z.boolean() }).strict(), AppInfoSchema, 'Pause or resume indexing'),
  openDocumentFile: desktopOp(
    z.object({ kb_id: KbIdSchema, doc_id: DocIdSchema, page: z.number().int().positive().optional() }).strict(),
    z.object({ path: z.string(), opened: z.boolean() }),
    "Open the file a document came from with the OS (PDFs at the hit's page where the viewer supports it)",
  ),
} as const;
export type DesktopContract = typeof desktopContract;
export type DesktopMethodName = keyof DesktopContract;
export const DESKTOP_METHOD_NAMES = Object.keys(desktopContract) as DesktopMethodName[];

/** The desktop-only client (inside Electron). */
export type DesktopClient = ClientOf<DesktopContract>;
