import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { ImportOcrLanguagesResult, OcrLanguage, RagClient } from '../../shared/contract/index.js';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { globals } from './common.js';

/**
 * OCR language data on the `models` command: `ragdesk models ocr` (what is here), `ragdesk models ocr download LANG…`,
 * and `ragdesk models import DIR` of a folder of Tesseract `.traineddata` files (e.g. Debian's tessdata), which
 * models.ts hands to importOcrFolder.
 */
const mb = (bytes: number | undefined) => (bytes === undefined ? '' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const COLUMNS = ['code', 'language', 'script', 'state', 'source', 'size'];

function rows(languages: OcrLanguage[]): Array<Record<string, unknown>> {
  return languages.map((l) => ({
    code: l.code,
    language: l.name,
    script: l.script,
    state: l.state === 'downloading' ? `downloading ${Math.round((l.progress ?? 0) * 100)}%` : l.state,
    source: l.source ?? '',
    size: mb(l.bytes),
  }));
}

/** A folder (or file) of Tesseract language data rather than a model folder. */
export function isOcrData(dir: string): boolean {
  const abs = path.resolve(dir);
  const stat = fs.statSync(abs, { throwIfNoEntry: false });
  if (!stat) return false;
  const names = stat.isDirectory() ? fs.readdirSync(abs) : [path.basename(abs)];
  return !names.includes('config.json') && names.some((n) => /\.traineddata(\.gz)?$/.test(n));
}

function listOf(value: string | undefined): string[] | undefined {
  const list = value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list?.length ? list : undefined;
}

/** Import OCR languages from a folder through the client, printing what happened. */
export async function importOcrFolder(client: RagClient, dir: string, languages: string | undefined, json: boolean): Promise<void> {
  const only = listOf(languages);
  const result: ImportOcrLanguagesResult = await client.importOcrLanguages({
    path: path.resolve(dir),
    ...(only ? { languages: only } : {}),
  });
  if (json) return printJson(result);
  for (const i of result.imported) printLine(`imported OCR language ${i.code} (${mb(i.bytes)}) from ${i.from}`);
  for (const r of result.rejected) printLine(`skipped ${r.file}: ${r.reason}`);
}

/** `ragdesk models ocr [status] | download LANG…` on the models command. */
export function registerOcr(models: Command): void {
  const ocr = models
    .command('ocr')
    .description('OCR language data for scans and images: English ships with ragdesk, others are fetched once or imported');

  ocr
    .command('status', { isDefault: true })
    .description('which OCR languages are on this machine')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const status = await client.ocrLanguages({});
        if (g.json) return printJson(status);
        printTable(rows(status.languages), COLUMNS);
        const missing = status.languages.filter((l) => l.state === 'missing').map((l) => l.code);
        if (missing.length) {
          printLine(
            status.allow_download
              ? `missing languages are downloaded when a scan needs them (or now: ragdesk models ocr download ${missing.join(' ')})`
              : 'downloads are off: import them with ragdesk models import <folder> (e.g. /usr/share/tesseract-ocr/5/tessdata)',
          );
        }
      });
    });

  ocr
    .command('download <languages...>')
    .description('download OCR languages now, for offline use (e.g. rus chi_sim, or ru zh)')
    .action(async (languages: string[], _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const status = await client.downloadOcrLanguages({ languages });
        if (g.json) return printJson(status);
        printTable(rows(status.languages), COLUMNS);
      });
    });
}
