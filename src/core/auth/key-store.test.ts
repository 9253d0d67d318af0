import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
