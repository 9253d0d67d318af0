import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ApiKeyInfo, CreatedKey, KbRights } from '../../shared/contract/keys.js';
import type { ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { readJsonFile, writeFileAtomic } from '../util/json-file.js';
import type { Principal } from './scope.js';

/** What keys.json holds for each key: its sha256, never the key. */
export interface StoredKey {
  id: string;
  name: string;
  hash: string;
  prefix: string;
  read: KbRights;
  write: KbRights;
  created_at: string;
  last_used_at: string | null;
}

interface KeysFile {
  version: 1;
  keys: StoredKey[];
}

export const KEY_PREFIX = 'rdk_';
const LAST_USED_EVERY_MS = 60_000;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two secrets of any length (hashing both first). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** A listed key: the stored record without its hash. */
function info(k: StoredKey): ApiKeyInfo {
  const { hash: _h, ...rest } = k;
  return rest;
}

/**
 * API keys in `<data>/keys.json` (mode 0600): sha256 hashes, names and per-KB rights. Several processes may
 * use the file (the server verifies, `ragdesk keys` edits): every change is a locked read-modify-write with an
 * atomic rename, and readers reload when the file changes.
 */
export class KeyStore {
  private cache: { stamp: string; byHash: Map<string, StoredKey> } | undefined;
  private readonly lastTouched = new Map<string, number>();

  constructor(readonly file: string) {}

  private read(): KeysFile {
    const data = readJsonFile<KeysFile>(this.file, { version: 1, keys: [] });
    return { version: 1, keys: Array.isArray(data.keys) ? data.keys : [] };
  }

  private stamp(): string {
    try {
      const st = fs.statSync(this.file);
      return `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      return 'none';
    }
  }

  private byHash(): Map<string, StoredKey> {
    const stamp = this.stamp();
    if (this.cache?.stamp !== stamp) {
      this.cache = { stamp, byHash: new Map(this.read().keys.map((k) => [k.hash, k])) };
    }
    return this.cache.byHash;
  }

  /** Run a read-modify-write of keys.json under a lock file shared by every process. */
  private mutate<T>(fn: (data: KeysFile) => T): T {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const lockFile = `${this.file}.lock`;
    const deadline = Date.now() + 5000;
    for (;;) {
      try {
        fs.closeSync(fs.openSync(lockFile, 'wx', 0o600));
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const age = Date.now() - (fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
        if (age > 10_000) fs.rmSync(lockFile, { force: true });
        else if (Date.now() > deadline) throw new RagError('busy', 'keys.json is locked by another process');
        else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      }
    }
    try {
      const data = this.read();
      const out = fn(data);
      writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`, 0o600);
      this.cache = undefined;
      return out;
    } finally {
      fs.rmSync(lockFile, { force: true });
    }
  }

  list(): ApiKeyInfo[] {
    return this.read().keys.map(info);
  }

  /** Create a key; the returned `key` is the only time it is ever shown. */
  create(input: ParsedInput<'createKey'>): CreatedKey {
    const read: KbRights = input.read ?? (input.write === undefined ? '*' : []);
    const write: KbRights = input.write ?? [];
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: StoredKey = {
      id: `key_${randomBytes(6).toString('hex')}`,
      name: input.name,
      hash: hashKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      read: Array.isArray(read) ? [...new Set(read)] : read,
      write: Array.isArray(write) ? [...new Set(write)] : write,
      created_at: new Date().toISOString(),
      last_used_at: null,
    };
    this.mutate((data) => {
      if (data.keys.some((k) => k.name === record.name)) {
        throw new RagError('invalid_parameter', `a key named "${record.name}" already exists`, { details: { name: record.name } });
      }
      data.keys.push(record);
    });
    return { ...info(record), key };
  }

  /** Revoke by id or name; it stops working at once in every process using this data dir. */
  revoke(idOrName: string): { id: string; name: string; revoked: boolean } {
    return this.mutate((data) => {
      const i = data.keys.findIndex((k) => k.id === idOrName || k.name === idOrName);
      if (i < 0) throw new RagError('invalid_parameter', `no key with id or name "${idOrName}"`, { details: { key: idOrName } });
      const [gone] = data.keys.splice(i, 1);
      return { id: gone!.id, name: gone!.name, revoked: true };
    });
  }

  /** The principal for a presented key, or undefined when it is unknown or revoked. */
  verify(presented: string): Principal | undefined {
    if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return undefined;
    const record = this.byHash().get(hashKey(presented));
    if (!record) return undefined;
    this.touch(record);
    return { kind: 'key', id: record.id, name: record.name, read: record.read, write: record.write };
  }

  /** Record last use, at most once a minute per key, best effort. */
  private touch(record: StoredKey): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(record.id) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastTouched.set(record.id, now);
    try {
      this.mutate((data) => {
        const k = data.keys.find((x) => x.id === record.id);
        if (k) k.last_used_at = new Date(now).toISOString();
      });
    } catch {
      // A busy keys.json only delays the timestamp.
    }
  }
}

const stores = new Map<string, KeyStore>();

/** One KeyStore per keys.json in this process (the server, the contract handlers and the CLI share it). */
export function keyStoreFor(file: string): KeyStore {
  const abs = path.resolve(file);
  let store = stores.get(abs);
  if (!store) {
    store = new KeyStore(abs);
    stores.set(abs, store);
  }
  return store;
}
