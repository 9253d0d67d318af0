import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildFixtureModel } from '../../core/embed/fixture-model.js';
import { decodeText } from '../../core/text/encoding.js';
import { round } from './stats.js';

/** The target: peak RSS of the process doing the work (workers included), whatever the input size. */
export const MEMORY_TARGET_MB = 600;

export interface MemoryRow {
  model: string;
  input: string;
  input_mb: number;
  files: number;
  chunks: number;
  seconds: number;
  cpu_s: number;
  mb_per_s: number;
  peak_rss_mb: number;
  target_mb: number;
  ok: boolean;
  exit_code: number | null;
  note?: string;
}

/** RSS (kB) of a process and every descendant, from /proc (0 off Linux or once it ended). */
function treeRssKb(pid: number): number {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      total += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        const kids = fs.readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (kids) stack.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** User + system CPU seconds of a process (from /proc/<pid>/stat; children it waited for included). */
export function cpuSeconds(pid: number): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // fields after "pid (comm) ": state=0 … utime=11 stime=12 cutime=13 cstime=14
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  peakMb: number;
  seconds: number;
  cpu: number;
}

/** Run the built CLI (bin/ragdesk.js) offline, sampling the RSS of its process tree and its CPU time every 25 ms. */
export function ragdesk(root: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [path.join(root, 'bin', 'ragdesk.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RAGDESK_OFFLINE: '1' },
    });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    let cpu = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-4000)));
    const poll = setInterval(() => {
      if (!child.pid) return;
      peak = Math.max(peak, treeRssKb(child.pid));
      cpu = Math.max(cpu, cpuSeconds(child.pid));
    }, 25);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({
        code,
        stdout,
        stderr,
        peakMb: round(peak / 1024, 0),
        seconds: round((performance.now() - start) / 1000, 1),
        cpu: round(cpu, 1),
      });
    });
  });
}

/** Text of the sample KB (rag_data) as lines, the material the big inputs are made of. */
export function sampleLines(root: string): string[] {
  const dir = path.join(root, 'rag_data');
  const lines: string[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!/\.(md|txt)$/.test(name)) continue;
    // Decoded as ragdesk decodes them: one of them is in Windows-1251, which read as UTF-8 is 7 % U+FFFD.
    lines.push(...decodeText(fs.readFileSync(path.join(dir, name))).text.split('\n'));
  }
  return lines;
}

/** One line of the sample with variation: every 7th word carries the copy number, so no two sections are equal. */
export function varied(line: string, copy: number): string {
  let k = 0;
  return line.replace(/\S+/g, (w) => (++k % 7 === copy % 7 ? `${w}${copy}` : w));
}

/** A Markdown file of `bytes` bytes, written in pieces (never held whole): sections of the sample, varied. */
async function writeBigMarkdown(root: string, file: string, bytes: number): Promise<void> {
  const lines = sampleLines(root);
  const out = fs.createWriteStream(file);
  let written = 0;
  for (let copy = 0; written < bytes; copy++) {
    const part = `\n# Part ${copy}\n\n${lines.map((l) => varied(l, copy)).join('\n')}\n`;
    written += Buffer.byteLength(part);
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

/** A PDF of `pages` pages of English text (ghostscript renders a PostScript program); false without gs. */
function writePdf(root: string, file: string, pages: number): boolean {
  if (spawnSync('gs', ['--version'], { stdio: 'ignore' }).status !== 0) return false;
  const lines = sampleLines(root)
    .filter((l) => l.trim() && /^[\x20-\x7e]*$/.test(l))
    .flatMap((l) => l.match(/.{1,90}(\s|$)/g) ?? []);
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const ps = path.join(path.dirname(file), 'pages.ps');
  const out: string[] = ['%!PS', '/Helvetica findfont 10 scalefont setfont'];
  let at = 0;
  for (let p = 0; p < pages; p++) {
    out.push(`50 770 moveto (Page ${p + 1}) show`);
    for (let y = 750; y > 60; y -= 13) out.push(`50 ${y} moveto (${esc(varied(lines[at++ % lines.length]!, p))}) show`);
    out.push('showpage');
  }
  fs.writeFileSync(ps, out.join('\n'));
  const r = spawnSync('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-sDEVICE=pdfwrite', `-sOutputFile=${file}`, ps], { stdio: 'ignore' });
  fs.rmSync(ps, { force: true });
  return r.status === 0;
}

/** `count` small Markdown files (about 1–2 kB each) in folders of 1,000. */
function writeSmallFiles(root: string, dir: string, count: number): number {
  const lines = sampleLines(root).filter((l) => l.trim());
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const sub = path.join(dir, `d${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) fs.mkdirSync(sub, { recursive: true });
    const body = `# Note ${i}\n\n${Array.from({ length: 8 }, (_, k) => varied(lines[(i * 8 + k) % lines.length]!, i)).join('\n\n')}\n`;
    fs.writeFileSync(path.join(sub, `note-${i}.md`), body);
    bytes += Buffer.byteLength(body);
  }
  return bytes;
}

function mbOf(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size / 1024 / 1024;
  let total = 0;
  for (const e of fs.readdirSync(p)) total += mbOf(path.join(p, e));
  return total;
}

/**
 * Flat memory (issue 10, target 3): generate a big Markdown file (200 MB × scale), a PDF (500 pages × scale) and a
 * folder of small files (50,000 × scale) and `ragdesk add` each (the built CLI, spawned) into a fresh data dir,
 * sampling the RSS of its process tree every 25 ms. Into a full-text only KB, with the fixture model (what CI has)
 * and, when present, the potion model. Reports peak RSS against the 600 MB target, MB/s and chunks.
 */
export async function benchMemory(
  root: string,
  work: string,
  opts: { scale: number; log: (s: string) => void; potion?: boolean },
): Promise<{ scale: number; target_mb: number; rows: MemoryRow[]; notes: string[] }> {
  const inputs = path.join(work, 'memory-inputs');
  fs.mkdirSync(inputs, { recursive: true });
  const notes: string[] = [];
  const cases: Array<{ input: string; target: string; files: number }> = [];

  const mdBytes = Math.round(200 * 1024 * 1024 * opts.scale);
  const md = path.join(inputs, 'big.md');
  opts.log(`  generating ${round(mdBytes / 1024 / 1024, 0)} MB of Markdown…`);
  await writeBigMarkdown(root, md, mdBytes);
  cases.push({ input: `markdown ${round(mbOf(md), 0)} MB`, target: md, files: 1 });

  const pages = Math.max(1, Math.round(500 * opts.scale));
  const pdf = path.join(inputs, 'book.pdf');
  opts.log(`  generating a ${pages}-page PDF…`);
  if (writePdf(root, pdf, pages)) cases.push({ input: `pdf ${pages} pages`, target: pdf, files: 1 });
  else notes.push(`pdf ${pages} pages: skipped, ghostscript (gs) is not installed here`);

  const count = Math.max(1, Math.round(50_000 * opts.scale));
  const folder = path.join(inputs, 'folder');
  opts.log(`  generating ${count} small files…`);
  writeSmallFiles(root, folder, count);
  cases.push({ input: `folder ${count} files`, target: folder, files: count });

  const shared = process.env.RAGDESK_SHARED ?? path.resolve(root, '..', 'shared');
  const POTION = path.join(shared, 'models', 'potion-base-4M-int8');
  // A full-text only KB too: no embedding, but its tables are compacted before their first index at any size.
  const models: Array<{ name: string; dir: string }> = [
    { name: 'none (full-text only)', dir: 'none' },
    { name: 'fixture', dir: (await buildFixtureModel(path.join(work, 'memory-model'))).dir },
  ];
  if (opts.potion !== false && fs.existsSync(POTION)) models.push({ name: 'potion-base-4M', dir: POTION });
  else if (opts.potion !== false) notes.push(`potion: ${POTION} not present, fixture model only`);

  const rows: MemoryRow[] = [];
  let n = 0;
  for (const model of models) {
    for (const c of cases) {
      const dataDir = path.join(work, `memory-data-${n++}`);
      const base = ['--data-dir', dataDir, '--no-download'];
      const created = await ragdesk(root, [...base, 'kb', 'create', 'mem', '--model', model.dir]);
      if (created.code !== 0) throw new Error(`kb create failed: ${created.stderr}`);
      opts.log(`  ${model.name}: ragdesk add ${c.input}…`);
      const add = await ragdesk(root, [...base, '--json', 'add', c.target, '--kb', 'mem']);
      let chunks = 0;
      let failed = 0;
      try {
        const res = JSON.parse(add.stdout) as { failed: number; results: Array<{ chunks?: number }> };
        chunks = res.results.reduce((s, r) => s + (r.chunks ?? 0), 0);
        failed = res.failed;
      } catch {
        failed = -1;
      }
      const inputMb = mbOf(c.target);
      rows.push({
        model: model.name,
        input: c.input,
        input_mb: round(inputMb, 1),
        files: c.files,
        chunks,
        seconds: add.seconds,
        cpu_s: add.cpu,
        mb_per_s: round(inputMb / Math.max(add.seconds, 0.001), 2),
        peak_rss_mb: add.peakMb,
        target_mb: MEMORY_TARGET_MB,
        ok: add.code === 0 && failed === 0 && add.peakMb <= MEMORY_TARGET_MB,
        exit_code: add.code,
        ...(add.code !== 0 || failed !== 0
          ? { note: `exit ${add.code}, ${failed} failed: ${add.stderr.trim().split('\n').slice(-2).join(' ')}` }
          : {}),
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { scale: opts.scale, target_mb: MEMORY_TARGET_MB, rows, notes };
}
