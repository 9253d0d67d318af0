import { run } from './program.js';

/** Entry point of the `ragdesk` binary. */
const code = await run(process.argv);
process.exitCode = code;
