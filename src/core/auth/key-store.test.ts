import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CreateKeyInputSchema } from '../../shared/contract/keys.js';
import { hashKey, KeyStore } from './key-store.js';
import { OWNER, scopeOf } from './scope.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-keys-'));
const file = path.join(dir, 'keys.json');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('KeyStore', () => {
  it('stores only a hash, shows the key once, and verifies it', () => {
    const store = new KeyStore(file);
    const created = store.create({ name: 'agent one', read: ['alpha'], write: ['beta'] });
    expect(created.key).toMatch(/^rdk_[A-Za-z0-9_-]{43}$/);
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).not.toContain(created.key);
    expect(raw).toContain(hashKey(created.key));
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(store.list()[0]).not.toHaveProperty('hash');
    expect(store.list()[0]).toMatchObject({ name: 'agent one', prefix: created.key.slice(0, 8), read: ['alpha'], write: ['beta'] });
    expect(store.verify(created.key)).toMatchObject({ kind: 'key', name: 'agent one' });
    expect(store.verify(`${created.key}x`)).toBeUndefined();
    expect(store.verify('not-a-key')).toBeUndefined();
  });

  it('defaults to read-all, refuses duplicate names, revokes by id or name', () => {
    const store = new KeyStore(file);
    const a = store.create({ name: 'defaults' });
    expect(a).toMatchObject({ read: '*', write: [] });
    expect(() => store.create({ name: 'defaults' })).toThrow(/already exists/);
    // Names are checked at the boundary (the dispatcher parses every createKey with this schema).
    expect(CreateKeyInputSchema.safeParse({ name: '' }).success).toBe(false);
    expect(store.revoke('defaults')).toMatchObject({ revoked: true });
    expect(store.verify(a.key)).toBeUndefined();
    expect(() => store.revoke('defaults')).toThrow(/no key/);
  });

  it('sees changes made by another process (another KeyStore on the same file)', () => {
    const server = new KeyStore(file);
    const cli = new KeyStore(file);
    const made = cli.create({ name: 'from-cli', read: '*' });
    expect(server.verify(made.key)).toBeDefined();
    cli.revoke(made.id);
    expect(server.verify(made.key)).toBeUndefined();
  });

  it('resolves rights into a scope: write implies read, * covers every KB', () => {
    expect(scopeOf(OWNER, () => [])).toEqual({ owner: true });
    const scope = scopeOf({ kind: 'key', id: 'k', name: 'n', read: ['a'], write: ['b'] }, () => ['a', 'b', 'c']);
    if (scope.owner) throw new Error('a key is never the owner');
    expect([...scope.read].sort()).toEqual(['a', 'b']);
    expect([...scope.write]).toEqual(['b']);
    const all = scopeOf({ kind: 'key', id: 'k', name: 'n', read: '*', write: [] }, () => ['a', 'b', 'c']);
    if (all.owner) throw new Error('a key is never the owner');
    expect([...all.read].sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('keys.json.lock', () => {
  it('never blocks a request: verify() answers at once while another process holds the lock', async () => {
    const own = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-keys-busy-')), 'keys.json');
    const store = new KeyStore(own);
    const made = store.create({ name: 'agent' });
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      fs.writeFileSync(`${own}.lock`, JSON.stringify({ pid: holder.pid, nonce: 'x', at: new Date().toISOString() }));
      const started = Date.now();
      expect(store.verify(made.key)).toMatchObject({ name: 'agent' });
      // The last-use stamp is written after the request, with one try at the lock: the event loop stays free.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 20));
      expect(Date.now() - started).toBeLessThan(1000);
      expect(store.list()[0]!.last_used_at).toBeNull();
      // The lock is left to its holder.
      expect(JSON.parse(fs.readFileSync(`${own}.lock`, 'utf8')).pid).toBe(holder.pid);
    } finally {
      holder.kill();
    }
  });

  it('loses no change when two processes edit keys at once over a lock a dead process left', async () => {
    const own = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-keys-race-')), 'keys.json');
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('exit', r));
    fs.writeFileSync(`${own}.lock`, JSON.stringify({ pid: dead.pid, nonce: 'x', at: '' }));
    fs.utimesSync(`${own}.lock`, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const mod = pathToFileURL(path.join(import.meta.dirname, 'key-store.ts')).href;
    const at = Date.now() + 1500;
    const child = (tag: string) =>
      new Promise<void>((resolve, reject) => {
        const code = `
          const { KeyStore } = await import(${JSON.stringify(mod)});
          const store = new KeyStore(${JSON.stringify(own)});
          while (Date.now() < ${at}) {}
          for (let i = 0; i < 15; i++) store.create({ name: '${tag}-' + i });
        `;
        execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { timeout: 60_000 }, (err, _o, errOut) =>
          err ? reject(new Error(errOut)) : resolve(),
        );
      });
    await Promise.all([child('a'), child('b')]);
    const names = new KeyStore(own)
      .list()
      .map((k) => k.name)
      .sort();
    expect(names).toHaveLength(30);
    expect(fs.existsSync(`${own}.lock`)).toBe(false);
  });
});
