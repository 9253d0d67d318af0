import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { readJsonFile, writeFileAtomic } from './json-file.js';

describe('json files', () => {
  it('are written whole through atomically, private (0600) in a private folder (0700), with no temp file left', () => {
    const dir = path.join(tempDir(), 'nested');
    const file = path.join(dir, 'state.json');
    writeFileAtomic(file, '{"a":1}\n');
    writeFileAtomic(file, '{"a":2}\n');
    expect(readJsonFile(file, {})).toEqual({ a: 2 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
    expect(readJsonFile(path.join(dir, 'none.json'), 'fallback')).toBe('fallback');
  });

  it('a file left readable by others becomes private at its next write', () => {
    const file = path.join(tempDir(), 'open.json');
    fs.writeFileSync(file, '{}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writeFileAtomic(file, '{"b":1}');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("leaves a process's own signal handling alone: SIGTERM stops it once, gracefully", async () => {
    const mod = pathToFileURL(path.join(import.meta.dirname, 'json-file.ts')).href;
    const out = path.join(tempDir(), 'out.json');
    const code = `
      const { writeFileAtomic } = await import(${JSON.stringify(mod)});
      writeFileAtomic(${JSON.stringify(out)}, '{}');
      // Like \`ragdesk serve\`: a second signal while stopping means "stop now".
      let stops = 0;
      const stop = () => {
        if (++stops > 1) process.exit(130);
        setTimeout(() => { process.stdout.write('graceful after ' + stops + ' signal(s)'); process.exit(0); }, 300);
      };
      process.on('SIGTERM', stop);
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.startsWith('ready\n') && !child.killed) child.kill('SIGTERM');
    });
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (c, s) => resolve({ code: c, signal: s })),
    );
    expect(exit).toEqual({ code: 0, signal: null });
    expect(stdout).toContain('graceful after 1 signal(s)');
  });
});
