import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureModels, openTestCore, tempDir } from '../test-support.js';

/** Every file and folder under `root` whose mode lets group or others in (symbolic links aside). */
function openToOthers(root: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) out.push(`${path.relative(root, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(root);
  return out;
}

describe.skipIf(process.platform === 'win32')('the data dir is private', () => {
  it('0700 folders and 0600 files: the store, job journals, keys, sources, health records', async () => {
    const { model } = await fixtureModels();
    process.umask(0o022);
    const dataDir = path.join(tempDir(), 'data');
    const core = await openTestCore({ dataDir });
    try {
      await core.client.createKb({ kb_id: 'k', embedding_model: model });
      await core.client.addDocument({ kb_id: 'k', doc_id: 'a', content: 'Private notes about the harbour.' });
      const folder = tempDir();
      fs.writeFileSync(path.join(folder, 'b.md'), '# B\n\nMore private notes.\n');
      await core.client.addSource({ kb_id: 'k', path: folder });
      await core.client.createKey({ name: 'agent' });
    } finally {
      await core.close();
    }
    expect(fs.readdirSync(dataDir)).toEqual(expect.arrayContaining(['lance', 'jobs', 'keys.json', 'sources.json']));
    expect(fs.readdirSync(path.join(dataDir, 'lance')).length).toBeGreaterThan(0);
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it('a data dir an older version left open is closed up, with everything in it', async () => {
    const { model } = await fixtureModels();
    const dataDir = path.join(tempDir(), 'old');
    const first = await openTestCore({ dataDir });
    await first.client.createKb({ kb_id: 'k', embedding_model: model });
    await first.client.addDocument({ kb_id: 'k', doc_id: 'a', content: 'Notes written before the upgrade.' });
    await first.close();
    const open = (p: string) => {
      const st = fs.lstatSync(p);
      fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
      if (st.isDirectory()) for (const name of fs.readdirSync(p)) open(path.join(p, name));
    };
    open(dataDir);
    expect(openToOthers(dataDir).length).toBeGreaterThan(5);
    const core = await openTestCore({ dataDir });
    await core.close();
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
