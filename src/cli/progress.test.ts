import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core/core.js';
import { errorCode, fixtureModels, openTestCore, tempDir } from '../core/test-support.js';
import type { Progress } from '../shared/contract/index.js';
import { progressToken, whileProgress } from './progress.js';

let core: Core;

beforeAll(async () => {
  const { model } = await fixtureModels();
  core = await openTestCore();
  await core.client.createKb({ kb_id: 'p', embedding_model: model });
}, 120_000);

afterAll(async () => {
  await core?.close();
});

describe('addFiles with a progress token', () => {
  it('reports each file while it runs, and the poller sees it', async () => {
    const dir = tempDir('ragdesk-progress-');
    for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(dir, `n${i}.txt`), `Note ${i} about customs and shipping. `.repeat(30));
    fs.writeFileSync(path.join(dir, '.hidden.txt'), 'left out');
    const token = progressToken();
    const seen: Array<NonNullable<Progress>> = [];
    const res = await whileProgress(
      core.client,
      token,
      core.client.addFiles({ kb_id: 'p', paths: [dir], progress_token: token }),
      (p) => seen.push(p),
      5,
    );
    expect(res).toMatchObject({ kb_id: 'p', files: 40, added: 40, failed: 0 });
    expect(res.job_id).toMatch(/^job-/);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p) => p.stage === 'files' && p.total === 40 && p.done <= 40)).toBe(true);
    expect(await core.client.getProgress({ token })).toMatchObject({ done: 40, total: 40, finished: true });
    const jobs = await core.client.listJobs({});
    expect(jobs.jobs.find((j) => j.job_id === res.job_id)).toMatchObject({ kind: 'files', state: 'done' });
  });

  it('wants absolute paths (the owner reads them) and an existing KB', async () => {
    expect(await errorCode(core.client.addFiles({ kb_id: 'p', paths: ['relative/file.txt'] }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.addFiles({ kb_id: 'nope', paths: ['/tmp'] }))).toBe('kb_not_found');
    expect(await errorCode(core.client.addFiles({ kb_id: 'p', paths: ['/no/such/file.txt'] }))).toBe('invalid_parameter');
  });

  it('a key may not read files by path through the contract', async () => {
    const scoped = core.clientFor(core.scopeOf({ kind: 'key', id: 'k', name: 'k', read: '*', write: '*' }));
    expect(await errorCode(scoped.addFiles({ kb_id: 'p', paths: ['/etc/hostname'] }))).toBe('permission_denied');
    expect(await errorCode(scoped.getProgress({ token: progressToken() }))).toBe('permission_denied');
  });
});
