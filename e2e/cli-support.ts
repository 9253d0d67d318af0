import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEST_CONFIG_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-config-'));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI from source (`node --import tsx src/cli/index.ts ...`) the way a user runs `ragdesk`. */
export function ragdesk(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/index.ts'), ...args], {
      cwd: ROOT,
      // A private config home: the desktop app's settings on this machine (if any) must not change test defaults.
      env: { ...process.env, RAGDESK_OFFLINE: '1', XDG_CONFIG_HOME: TEST_CONFIG_HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Decoded as a stream: a character split between two pipe reads stays one character.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (stdout += d));
    child.stderr.on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export function json<T = Record<string, unknown>>(r: RunResult): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
  }
}
