import path from 'node:path';
import type { Command } from 'commander';
import { checkLocal } from '../../core/embed/loader.js';
import { readImports } from '../../core/embed/model-import.js';
import { resolveModelSpec } from '../../core/embed/model-spec.js';
import type { ImportedModel, ModelPreset, ModelStatus } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { globals } from './common.js';
import { importOcrFolder, isOcrData, registerOcr } from './ocr.js';
import { dataPaths } from '../../core/config/data-dir.js';

/**
 * `ragdesk models …`: the models this data dir has, and importing a model folder for offline use. Each subcommand
 * registers itself on the `models` command (registerModels returns it, so more can be added beside these).
 */
export function registerModels(program: Command): Command {
  const models = program
    .command('models')
    .description('embedding and rerank models and OCR languages: what is on this machine, and importing them for offline use');
  registerList(models);
  registerImport(models);
  registerOcr(models);
  return models;
}

interface ModelRow {
  model: string;
  kind: string;
  id: string;
  on_disk: boolean;
  imported_at: string | null;
  state: string;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** Presets and imported models, with whether their files are in `<data>/models` and how they loaded here. */
function modelRows(dataDir: string, presets: ModelPreset[], status: ModelStatus[]): ModelRow[] {
  const modelsDir = dataPaths(dataDir).models;
  const imports = readImports(modelsDir);
  const state = (model: string) => status.find((s) => s.model === model)?.state ?? 'not loaded';
  const rows: ModelRow[] = presets.map((p) => ({
    model: p.name,
    kind: p.kind,
    id: p.model_id,
    on_disk: checkLocal(resolveModelSpec(p.name, p.kind), modelsDir).complete,
    imported_at: imports[p.model_id]?.imported_at ?? null,
    state: state(p.name),
  }));
  for (const [id, record] of Object.entries(imports)) {
    if (presets.some((p) => p.model_id === id)) continue;
    rows.push({
      model: record.model,
      kind: record.kind,
      id,
      on_disk: checkLocal(resolveModelSpec(record.model, record.kind), modelsDir).complete,
      imported_at: record.imported_at,
      state: state(record.model),
    });
  }
  return rows;
}

function registerList(models: Command): void {
  models
    .command('list')
    .description('presets and imported models: on disk (no download needed) or downloaded on first use')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client, dataDir }) => {
        const rows = modelRows(dataDir, await client.listModelPresets({}), await client.modelStatus({}));
        if (g.json) return printJson(rows);
        printTable(
          rows.map((r) => ({
            ...r,
            on_disk: r.on_disk ? (r.imported_at ? `imported ${r.imported_at.slice(0, 10)}` : 'yes') : 'no: downloads on first use',
          })),
          ['model', 'kind', 'id', 'on_disk', 'state'],
        );
      });
    });
}

function registerImport(models: Command): void {
  models
    .command('import <dir>')
    .description(
      'check a model folder (config.json, tokenizer, ONNX weights, dimension) and copy it into the data dir: it loads from ' +
        'there from then on, with no network. A folder of a preset’s model (e.g. multilingual-e5-small) serves that preset; ' +
        'any other becomes local/<folder name>',
    )
    .option('--as <name>', 'a preset to serve (multilingual, english, rerank) or a name for the model (local/<name>)')
    .option('--kind <kind>', 'embedding or rerank', 'embedding')
    .option('--replace', 'import over a model imported earlier under the same name')
    .option('--languages <list>', 'a folder of OCR language data (.traineddata): only these, e.g. ru,zh or rus,chi_sim')
    .action(async (dir: string, o: { as?: string; kind: string; replace?: boolean; languages?: string }, cmd: Command) => {
      const g = globals(cmd);
      // Tesseract's .traineddata files (Debian's tessdata, a copy from another machine): OCR languages, not a model.
      if (isOcrData(dir)) return withClient(g, ({ client }) => importOcrFolder(client, dir, o.languages, Boolean(g.json)));
      if (o.kind !== 'embedding' && o.kind !== 'rerank')
        throw new RagError('invalid_parameter', `--kind must be embedding or rerank, not ${o.kind}`);
      await withClient(g, async ({ client }) => {
        const imported = await client.importModel({
          path: path.resolve(dir),
          kind: o.kind as 'embedding' | 'rerank',
          ...(o.as ? { as: o.as } : {}),
          replace: Boolean(o.replace),
        });
        if (g.json) return printJson(imported);
        for (const line of describeImport(imported)) printLine(line);
      });
    });
}

/** What an import did, and how to use it, in a few lines. */
export function describeImport(m: ImportedModel): string[] {
  const what = [m.dim ? `${m.dim}-d` : null, m.dtype, `${m.files} files`, megabytes(m.bytes)].filter(Boolean).join(', ');
  const lines = [`${m.replaced ? 're-imported' : 'imported'} ${m.model} (${what}) into ${m.dir}; it loads from there, with no network`];
  if (m.preset) lines.push(`KBs on the ${m.preset} preset use it as they are; new KBs get it with --model ${m.preset}`);
  else if (m.kind === 'embedding')
    lines.push(`use it for a KB: ragdesk kb create <kb> --model ${m.model} (or ragdesk kb set-model <kb> ${m.model})`);
  else lines.push(`reranking uses the rerank preset: import the folder with --as rerank to rerank with it`);
  return lines;
}
