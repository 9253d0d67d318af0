import { Command, CommanderError } from 'commander';
import { RAGDESK_VERSION } from '../shared/version.js';
import { EXIT, reportError } from './output.js';

/**
 * Each command's module, loaded only when that command runs (or for help): `ragdesk mcp`, spawned by an MCP client
 * for every session, then reads none of the other commands' code (parsers, the HTTP server, benches), which is
 * most of the start-up time.
 */
const COMMANDS: Record<string, () => Promise<(program: Command) => void>> = {
  kb: async () => (await import('./commands/kb.js')).registerKb,
  add: async () => (await import('./commands/add.js')).registerAdd,
  search: async () => (await import('./commands/search.js')).registerSearch,
  docs: async () => (await import('./commands/docs.js')).registerDocs,
  eval: async () => (await import('./commands/eval.js')).registerEval,
  bench: async () => (await import('./commands/bench.js')).registerBench,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  mcp: async () => (await import('./commands/mcp.js')).registerMcp,
  keys: async () => (await import('./commands/keys.js')).registerKeys,
  sources: async () => (await import('./commands/sources.js')).registerSources,
  jobs: async () => (await import('./commands/jobs.js')).registerJobs,
  health: async () => (await import('./commands/health.js')).registerHealth,
  models: async () => (await import('./commands/models.js')).registerModels,
};

/** Global options that take a value: their value is never the command's name. */
const VALUE_OPTIONS = new Set(['--data-dir']);

/** The command named on a command line (the first word that is neither an option nor an option's value). */
export function commandOf(argv: string[]): string | undefined {
  const words = argv.slice(2);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (VALUE_OPTIONS.has(w)) {
      i++;
      continue;
    }
    if (w.startsWith('-')) continue;
    return w;
  }
  return undefined;
}

/**
 * The `ragdesk` command line. Each command file registers itself; run() maps errors to exit codes. With `argv`,
 * only the command it names is loaded (none for --version; all of them for help, no command or an unknown one).
 */
export async function buildProgram(argv?: string[]): Promise<Command> {
  const program = new Command('ragdesk')
    .description('Local knowledge bases for AI agents: ingest, search and serve over MCP')
    .version(RAGDESK_VERSION)
    .option('--data-dir <dir>', 'data directory (default: $RAGDESK_DATA_DIR or the OS app-data dir)')
    .option('--json', 'print machine-readable JSON')
    .option('--no-download', 'never download models (full-text search still works)')
    .showHelpAfterError()
    .exitOverride();
  const named = argv ? commandOf(argv) : undefined;
  const versionOnly = !named && (argv?.includes('--version') || argv?.includes('-V'));
  const wanted = named && named in COMMANDS ? [named] : versionOnly ? [] : Object.keys(COMMANDS);
  const registers = await Promise.all(wanted.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const command = argv.slice(2).find((a) => program.commands.some((c) => c.name() === a));
    return reportError(err, argv.includes('--json'), command ? `ragdesk ${command}` : 'ragdesk');
  }
}
