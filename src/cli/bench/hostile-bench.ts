import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostileFiles } from '../../core/parse/hostile-files.js';
import { round } from './stats.js';

/** Resident memory of a process from /proc: current and peak (VmHWM) in MB; undefined off Linux or once it ended. */
function rssOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

function run(root: string, args: string[]): Promise<{ code: number | null; stdout: string; peakMb: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [path.join(root, 'bin', 'ragdesk.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let peak = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.resume();
    const poll = setInterval(() => {
      const m = child.pid ? rssOf(child.pid) : undefined;
      if (m) peak = Math.max(peak, m.rss, m.hwm);
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, stdout, peakMb: round(peak, 0), seconds: round((performance.now() - start) / 1000, 1) });
    });
  });
}

/**
 * `ragdesk add` of a folder holding every kind of bad file of issue 9 (zip bomb, lying ZIP header, 25k entries,
 * 600k-deep HTML, a 1.2 MB table of <div> cells, a 12 MB single-line text, pathological Markdown emphasis, corrupt and
 * encrypted PDFs, binary data named .txt) plus a good file, in a child process whose peak RSS (workers included) is
 * sampled from /proc every 20 ms. Reports each file's outcome and the peak.
 */
export async function benchHostile(root: string, work: string): Promise<Record<string, unknown>> {
  const folder = path.join(work, 'hostile');
  const dataDir = path.join(work, 'hostile-data');
  fs.mkdirSync(folder, { recursive: true });
  const encryptedPdf = fs.readFileSync(path.join(root, 'src', 'core', 'parse', '__fixtures__', 'encrypted.pdf'));
  const files = hostileFiles({ encryptedPdf });
  let bytes = 0;
  for (const f of files) {
    fs.writeFileSync(path.join(folder, f.name), f.data);
    bytes += f.data.byteLength;
  }
  const base = ['--data-dir', dataDir, '--no-download'];
  await run(root, [...base, 'kb', 'create', 'hostile']);
  const add = await run(root, [...base, '--json', 'add', folder, '--kb', 'hostile']);
  let results: Array<{ file?: string; status?: string; error?: { code: string; details?: Record<string, unknown> } }> = [];
  try {
    results = (JSON.parse(add.stdout) as { results: typeof results }).results;
  } catch {
    // reported below as no outcomes
  }
  const outcomes = files.map((f) => {
    const r = results.find((x) => x.file && path.basename(x.file) === f.name);
    const got = r?.error
      ? `${r.error.code}${r.error.details?.limit ? ` (${String(r.error.details.limit)})` : ''}`
      : (r?.status ?? 'missing');
    return { file: f.name, mb: round(f.data.byteLength / 1024 / 1024, 2), outcome: got };
  });
  return {
    files: files.length,
    input_mb: round(bytes / 1024 / 1024, 1),
    exit_code: add.code,
    seconds: add.seconds,
    peak_rss_mb: add.peakMb,
    outcomes,
  };
}
