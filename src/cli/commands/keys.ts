import type { Command } from 'commander';
import type { KbRights } from '../../shared/contract/index.js';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { globals } from './common.js';

/** `--read a b`, `--read a,b` and `--read '*'` all work. */
function rights(values: string[] | undefined): KbRights | undefined {
  if (!values) return undefined;
  const ids = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return ids.includes('*') ? '*' : ids;
}

const show = (r: KbRights) => (r === '*' ? 'all' : r.length ? r.join(',') : '-');

/**
 * `ragdesk keys`: API keys for MCP/HTTP clients, through the contract like every command (so through the app or
 * `ragdesk serve` while one runs); changes apply to it at once.
 */
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('create, list and revoke API keys for MCP and HTTP clients');

  keys
    .command('create <name>')
    .description('create a key (shown once); default rights: read every KB')
    .option('--read <kb...>', "KBs it may read ('*' for all)")
    .option('--write <kb...>', "KBs it may add to and delete from ('*' for all); write implies read")
    .action(async (name: string, o: { read?: string[]; write?: string[] }, cmd: Command) => {
      const g = globals(cmd);
      const read = rights(o.read);
      const write = rights(o.write);
      const created = await withClient(g, ({ client }) =>
        client.createKey({ name, ...(read !== undefined ? { read } : {}), ...(write !== undefined ? { write } : {}) }),
      );
      if (g.json) return printJson(created);
      printLine(`created key "${created.name}" (${created.id}): read ${show(created.read)}, write ${show(created.write)}`);
      printLine('');
      printLine(`  ${created.key}`);
      printLine('');
      printLine('This is the only time the key is shown: store it now. Clients send it as "Authorization: Bearer <key>" (HTTP)');
      printLine('or in RAGDESK_API_KEY (ragdesk mcp).');
    });

  keys
    .command('list')
    .description('list keys (never the keys themselves)')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const list = await withClient(g, ({ client }) => client.listKeys({}));
      if (g.json) return printJson(list);
      if (list.length === 0) return printLine('no keys yet: ragdesk keys create <name> [--read kb...] [--write kb...]');
      printTable(
        list.map((k) => ({ ...k, read: show(k.read), write: show(k.write), last_used_at: k.last_used_at ?? 'never' })),
        ['id', 'name', 'prefix', 'read', 'write', 'created_at', 'last_used_at'],
      );
    });

  keys
    .command('revoke <key>')
    .description('revoke a key by id or name; it stops working at once')
    .action(async (key: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const res = await withClient(g, ({ client }) => client.revokeKey({ key }));
      if (g.json) printJson(res);
      else printLine(`revoked key "${res.name}" (${res.id})`);
    });
}
