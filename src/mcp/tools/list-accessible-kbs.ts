import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-kit.js';

export const KbBrief = z.object({
  kb_id: z.string(),
  name: z.string(),
  description: z.string(),
  department: z.string(),
  enabled: z.boolean(),
  document_count: z.number().int(),
});

export const listAccessibleKbs = defineTool({
  name: 'list_accessible_kbs',
  title: 'List knowledge bases',
  description:
    'List the knowledge bases you can use, with their id, name, description, department, whether they are enabled and how many ' +
    'documents they hold. Start here: pass a kb_id from this list to search_kb, list_documents or get_kb_info. Disabled KBs are ' +
    'listed but skipped by search_all_accessible_kbs.',
  input: z.strictObject({}),
  output: z.object({ kbs: z.array(KbBrief) }),
  annotations: { title: 'List knowledge bases', ...READ_ONLY },
  async run(_args, { client }) {
    const kbs = await client.listKbs({});
    return {
      kbs: kbs.map((k) => ({
        kb_id: k.kb_id,
        name: k.name,
        description: k.description,
        department: k.department,
        enabled: k.enabled,
        document_count: k.document_count,
      })),
    };
  },
  count: (out) => out.kbs.length,
});
