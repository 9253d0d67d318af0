import { z } from 'zod';

/** OCR language data on the machine that owns the data dir: English ships with the app, others are fetched once. */
export const OcrLanguageSchema = z.object({
  /** Tesseract's code: eng, rus, chi_sim… */
  code: z.string(),
  name: z.string(),
  /** Writing system: latin, cyrillic, cjk… */
  script: z.string(),
  state: z.enum(['ready', 'missing', 'downloading']),
  /** bundled: ships with the app; installed: in `<data>/models/tessdata` (downloaded or imported). */
  source: z.enum(['bundled', 'installed']).optional(),
  bytes: z.number().int().nonnegative().optional(),
  /** 0..1 while downloading. */
  progress: z.number().min(0).max(1).optional(),
});
export type OcrLanguage = z.infer<typeof OcrLanguageSchema>;

export const OcrLanguagesSchema = z.object({
  /** Whether missing languages are downloaded when a scan needs them. */
  allow_download: z.boolean(),
  languages: z.array(OcrLanguageSchema),
});
export type OcrLanguages = z.infer<typeof OcrLanguagesSchema>;

const LanguageNamesSchema = z.array(z.string().min(2).max(16)).max(64);

/** A folder (or one file) of `.traineddata` / `.traineddata.gz` files on the owner's machine, e.g. Debian's tessdata. */
export const ImportOcrLanguagesInputSchema = z.object({
  path: z.string().min(1).max(4096),
  /** Only these (Tesseract codes or en/ru/zh); all found when omitted. */
  languages: LanguageNamesSchema.optional(),
});

export const ImportOcrLanguagesResultSchema = z.object({
  imported: z.array(z.object({ code: z.string(), bytes: z.number().int().nonnegative(), from: z.string() })),
  rejected: z.array(z.object({ file: z.string(), reason: z.string() })),
});
export type ImportOcrLanguagesResult = z.infer<typeof ImportOcrLanguagesResultSchema>;

export const DownloadOcrLanguagesInputSchema = z.object({ languages: LanguageNamesSchema.min(1) });
