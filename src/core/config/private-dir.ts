import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const GROUP_OTHER = 0o077;

/**
 * Keep everything ragdesk writes to the user alone: the data dir is 0700, and the process umask takes group and
 * other bits off every file and folder created from now on (LanceDB's files, job journals, logs, models), so they
 * are 0600/0700 whatever the user's umask says. A data dir an older ragdesk left readable by others is tightened
 * once, with everything in it. Nothing to do on Windows (ACLs of the profile folder apply).
 */
export function makeDataDirPrivate(root: string, platform: NodeJS.Platform = process.platform): void {
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  if (platform === 'win32') return;
  restrictUmask();
  const st = fs.statSync(root);
  if ((st.mode & GROUP_OTHER) === 0) return;
  fs.chmodSync(root, 0o700);
  tighten(root);
}

/** New files and folders of this process: no group or other bits (only the main thread may set the umask). */
export function restrictUmask(): void {
  if (!isMainThread) return;
  const current = process.umask();
  if ((current & GROUP_OTHER) !== GROUP_OTHER) process.umask(current | GROUP_OTHER);
}

function tighten(dir: string): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    // Links are left as they are (chmod would change what they point to).
    if (e.isSymbolicLink()) continue;
    try {
      const mode = fs.lstatSync(p).mode & 0o777;
      if (mode & GROUP_OTHER) fs.chmodSync(p, mode & ~GROUP_OTHER);
    } catch {
      continue;
    }
    if (e.isDirectory()) tighten(p);
  }
}
