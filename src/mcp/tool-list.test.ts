import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_LIST } from './server.js';
import { TOOLS } from './tools/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** What tools/list answered when it converted the zod schemas itself (draft-7, input and output views). */
function liveToolList() {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input, { target: 'draft-7', io: 'input' }),
    outputSchema: z.toJSONSchema(t.output, { target: 'draft-7', io: 'output' }),
    annotations: t.annotations,
  }));
}

describe('tool-list.json', () => {
  // Fails when a tool's name, text, schema or hints changed and the file was not rewritten: `npx vitest run -u
  // src/mcp/tool-list.test.ts` writes it again (formatted as prettier would, so lint stays clean).
  it('is the tools/list the live zod schemas give', async () => {
    const file = path.join(here, 'tool-list.json');
    const options = (await prettier.resolveConfig(file)) ?? {};
    const text = await prettier.format(JSON.stringify(liveToolList()), { ...options, parser: 'json' });
    await expect(text).toMatchFileSnapshot(file);
  });

  it('is what the server lists, in the tools module order', () => {
    expect(TOOL_LIST.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
  });
});
