import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../../core/embed/fixture-model.js';
import { tempDir } from '../../core/test-support.js';

/** `ragdesk models import DIR` and `ragdesk models list`, run as the command a user types (from the sources). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let dir: string;
let dataDir: string;
let model: string;

function ragdesk(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/index.ts'), '--data-dir', dataDir, ...args], {
      cwd: ROOT,
      // No network, and a private config home (the app's settings on this machine must not change defaults).
      env: { ...process.env, RAGDESK_OFFLINE: '1', HF_HUB_OFFLINE: '1', XDG_CONFIG_HOME: path.join(dir, 'config'), RAGDESK_DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = tempDir('ragdesk-models-cli-');
  dataDir = path.join(dir, 'data');
  model = (await buildFixtureModel(path.join(dir, 'downloads', 'team-embedder'))).dir;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('ragdesk models', () => {
  it('imports a model folder, and KBs search with it from then on, offline', async () => {
    const imported = await ragdesk('models', 'import', model);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(
      /^imported local\/team-embedder \(64-d, fp32, 4 files, [\d.]+ MB\) into .*team-embedder; it loads from there, with no network\n/,
    );
    expect(imported.stdout).toContain('ragdesk kb create <kb> --model local/team-embedder');

    expect((await ragdesk('kb', 'create', 'notes', '--model', 'local/team-embedder')).code).toBe(0);
    const doc = path.join(dir, 'tea.md');
    fs.writeFileSync(doc, '# Tea\n\nGreen tea and black tea from the harbor market.\n');
    expect((await ragdesk('add', doc, '--kb', 'notes')).code).toBe(0);
    const found = await ragdesk('search', 'tea market', '--kb', 'notes', '--mode', 'vector', '--json');
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ mode: 'vector', hits: [{ title: 'Tea' }] });
  });

  it('lists presets and imports: on disk or downloaded on first use', async () => {
    const listed = await ragdesk('models', 'list', '--json');
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { model: string; on_disk: boolean; imported_at: string | null }[];
    expect(rows.map((r) => r.model)).toEqual(['multilingual', 'english', 'rerank', 'local/team-embedder']);
    expect(rows.find((r) => r.model === 'multilingual')).toMatchObject({ on_disk: false, imported_at: null });
    expect(rows.find((r) => r.model === 'local/team-embedder')).toMatchObject({ on_disk: true, imported_at: expect.any(String) });
    const table = await ragdesk('models', 'list');
    expect(table.stdout).toMatch(/multilingual\s+embedding\s+Xenova\/multilingual-e5-small\s+no: downloads on first use/);
    expect(table.stdout).toMatch(/local\/team-embedder\s+embedding\s+local\/team-embedder\s+imported \d{4}-\d\d-\d\d/);
  });

  it('says everything wrong with a folder that is not a model, and imports nothing', async () => {
    const notAModel = path.join(dir, 'photos');
    fs.mkdirSync(notAModel);
    fs.writeFileSync(path.join(notAModel, 'config.json'), '{}');
    const res = await ragdesk('models', 'import', notAModel);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `error [invalid_parameter]: ${notAModel} is not a usable embedding model folder: tokenizer.json is missing; tokenizer_config.json is missing; ` +
        'the ONNX weights onnx/model.onnx are missing (no onnx/ folder with .onnx files); config.json names no vector dimension (hidden_size)\n',
    );
    expect(fs.existsSync(path.join(dataDir, 'models', 'local', 'photos'))).toBe(false);
  });
});
