import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { kbDiagnostic } from './kb-diagnostic.js';

describe('kb_diagnostic', () => {
  it("reports the contract's diagnostic (no paths for keys), jobs, ingestion problems and vector search state", async () => {
    const { client } = memoryClient({ alpha: [] }, { readable: ['alpha'] });
    const out = await runTool(kbDiagnostic, {}, client);
    expect(out).toMatchObject({ data_dir: null, store_path: null, vector_search: 'on', jobs: [], ingestion: [] });
    const owner = memoryClient({ alpha: [] }).client;
    expect(await runTool(kbDiagnostic, {}, owner)).toMatchObject({ data_dir: '/data' });
  });
});
