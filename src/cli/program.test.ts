import { describe, expect, it } from 'vitest';
import { buildProgram, commandOf } from './program.js';

const argv = (...words: string[]) => ['node', 'ragdesk', ...words];

describe('the command line loads only the command it runs', () => {
  it('finds the command past global options and their values', () => {
    expect(commandOf(argv('mcp'))).toBe('mcp');
    expect(commandOf(argv('--data-dir', 'mcp', '--json', 'kb', 'list'))).toBe('kb');
    expect(commandOf(argv('--no-download', 'search', 'q'))).toBe('search');
    expect(commandOf(argv('--version'))).toBeUndefined();
  });

  it('registers the named command alone, none for --version, every one for help or an unknown word', async () => {
    const names = async (...words: string[]) => (await buildProgram(argv(...words))).commands.map((c) => c.name());
    expect(await names('mcp')).toEqual(['mcp']);
    expect(await names('--data-dir', '/tmp/x', 'kb', 'list')).toEqual(['kb']);
    expect(await names('--version')).toEqual([]);
    const all = await names('--help');
    expect(all).toEqual(
      expect.arrayContaining([
        'kb',
        'add',
        'search',
        'docs',
        'eval',
        'bench',
        'serve',
        'mcp',
        'keys',
        'sources',
        'jobs',
        'health',
        'models',
      ]),
    );
    expect(await names('nonsense')).toEqual(all);
  });
});
