import { Command, CommanderError } from 'commander';
import { RAGDESK_VERSION } from '../shared/version.js';
import { registerAdd } from './commands/add.js';
import { registerBench } from './commands/bench.js';
import { registerDocs } from './commands/docs.js';
import { registerEval } from './commands/eval.js';
import { registerHealth } from './commands/health.js';
import { registerJobs } from './commands/jobs.js';
import { registerKb } from './commands/kb.js';
import { registerKeys } from './commands/keys.js';
import { registerMcp } from './commands/mcp.js';
import { registerModels } from './commands/models.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { registerSources } from './commands/sources.js';
import { EXIT, reportError } from './output.js';

/** The `ragdesk` command line. Each command file registers itself; run() maps errors to exit codes. */
export function buildProgram(): Command {
  const program = new Command('ragdesk')
    .description('Local knowledge bases for AI agents: ingest, search and serve over MCP')
    .version(RAGDESK_VERSION)
    .option('--data-dir <dir>', 'data directory (default: $RAGDESK_DATA_DIR or the OS app-data dir)')
    .option('--json', 'print machine-readable JSON')
    .option('--no-download', 'never download models (full-text search still works)')
    .showHelpAfterError()
    .exitOverride();
  registerKb(program);
  registerAdd(program);
  registerSearch(program);
  registerDocs(program);
  registerEval(program);
  registerBench(program);
  registerServe(program);
  registerMcp(program);
  registerKeys(program);
  registerSources(program);
  registerJobs(program);
  registerHealth(program);
  registerModels(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
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
