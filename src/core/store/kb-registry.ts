import { z } from 'zod';
import { KbSchema, type Kb } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { readJsonFile, writeFileAtomic } from '../util/json-file.js';

const RegistryFileSchema = z.object({ version: z.literal(1), kbs: z.array(KbSchema) });

/** KB records (small, rarely written) in `<data>/kbs.json`, written atomically; chunk data lives in LanceDB. */
export class KbRegistry {
  private readonly kbs = new Map<string, Kb>();

  constructor(private readonly file: string) {
    const raw = readJsonFile<unknown>(file, { version: 1, kbs: [] });
    const parsed = RegistryFileSchema.safeParse(raw);
    if (!parsed.success) throw new RagError('internal', `the KB registry ${file} is unreadable`, { cause: parsed.error });
    for (const kb of parsed.data.kbs) this.kbs.set(kb.kb_id, kb);
  }

  list(): Kb[] {
    return [...this.kbs.values()].sort((a, b) => a.kb_id.localeCompare(b.kb_id));
  }

  find(kbId: string): Kb | undefined {
    return this.kbs.get(kbId);
  }

  get(kbId: string): Kb {
    const kb = this.kbs.get(kbId);
    if (!kb) throw new RagError('kb_not_found', `knowledge base "${kbId}" not found`, { details: { kb_id: kbId } });
    return kb;
  }

  put(kb: Kb): Kb {
    this.kbs.set(kb.kb_id, KbSchema.parse(kb));
    this.save();
    return kb;
  }

  remove(kbId: string): boolean {
    const had = this.kbs.delete(kbId);
    if (had) this.save();
    return had;
  }

  private save(): void {
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, kbs: this.list() }, null, 2)}\n`);
  }
}
