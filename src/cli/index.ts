import { configureHeapGrowth } from '../core/util/heap-growth.js';
import { run } from './program.js';

configureHeapGrowth();

/** Entry point of the `ragdesk` binary. */
// `ragdesk docs list | head`: a reader that stops early is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const code = await run(process.argv);
process.exitCode = code;
