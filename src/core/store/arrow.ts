import { createRequire } from 'node:module';
import type * as ArrowModule from 'apache-arrow';

/**
 * The apache-arrow classes LanceDB itself uses. LanceDB checks `instanceof` against the CommonJS build; an ESM
 * `import` of apache-arrow is a second copy of every class (the dual-package hazard) and its tables get
 * converted or rejected. Every schema and column ragdesk builds comes from this one instance.
 */
export const arrow = createRequire(import.meta.url)('apache-arrow') as typeof ArrowModule;
