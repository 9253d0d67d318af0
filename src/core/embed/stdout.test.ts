import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// stdout carries the MCP protocol in `ragdesk mcp`: loading, embedding, failing and crashing must print
// nothing there. Runs a separate Node process (through tsx) and captures its stdout.
describe('stdout stays clean', () => {
  it('prints nothing to stdout while models load, embed, fail and the worker crashes', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-stdout-'));
    const index = pathToFileURL(path.join(import.meta.dirname, 'index.ts')).href;
    const code = `
      const { buildFixtureModel, createModelManager } = await import(${JSON.stringify(index)});
      const fx = await buildFixtureModel(${JSON.stringify(path.join(root, 'fixture'))});
      const m = createModelManager({ dataDir: ${JSON.stringify(path.join(root, 'data'))}, allowDownload: false });
      const e = await m.getEmbedder(fx.dir);
      await e.embedPassages(['heart disease']);
      await m.getEmbedder('english').catch(() => {});
      await m.getTokenCounter(fx.dir);
      m.simulateWorkerCrash();
      await new Promise((r) => setTimeout(r, 200));
      await e.embedPassages(['heart disease']);
      await m.dispose();
      process.stderr.write('done');
    `;
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { timeout: 60_000 }, (err, out, errOut) =>
        err ? reject(Object.assign(err, { stderr: errOut })) : resolve({ stdout: out, stderr: errOut }),
      );
    });
    expect(stderr).toContain('done');
    expect(stdout).toBe('');
  });
});
