import type { Command } from 'commander';
import type { ModelChange, RagClient } from '../../shared/contract/index.js';
import { withClient } from '../open-core.js';
import { printJson, printLine } from '../output.js';
import { createProgress } from '../progress.js';
import { globals } from './common.js';

const FINISHED = new Set(['done', 'failed', 'cancelled']);

function seconds(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  return s >= 120 ? `ETA ${Math.round(s / 60)} min` : `ETA ${s} s`;
}

/** One line about a model change, for `kb set-model` and `kb show`. */
export function describeModelChange(m: ModelChange): string {
  const what = `${m.from_model} → ${m.to_model} (${m.to_dim}-d)`;
  const counts = `${m.chunks_done}/${m.chunks_total} chunks`;
  switch (m.state) {
    case 'running':
      return `re-embedding ${what}: ${counts}${m.eta_ms !== null ? `, ${seconds(m.eta_ms)}` : ''}`;
    case 'indexing':
      return `building indexes for ${what}: ${counts}`;
    case 'interrupted':
      return `interrupted ${what} at ${counts}: it resumes when ragdesk serve, ragdesk mcp or the app starts, or with kb set-model --wait`;
    case 'failed':
      return `failed ${what} at ${counts}: ${m.error ?? 'unknown error'} (retry with the same model, or --cancel)`;
    case 'done':
      return `now using ${m.to_model} (${m.to_dim}-d): ${m.chunks_total} chunks re-embedded`;
    case 'cancelled':
      return `cancelled ${what}; the KB keeps ${m.from_model}`;
  }
}

async function waitWithBar(client: RagClient, kbId: string, first: ModelChange, showBar: boolean): Promise<ModelChange> {
  const bar = createProgress(showBar);
  let m = first;
  let started = false;
  try {
    while (!FINISHED.has(m.state)) {
      if (m.state === 'interrupted') throw new Error('the model change stopped');
      if (!started && m.chunks_total > 0) {
        bar.start(m.chunks_total, `re-embedding with ${m.to_model}`);
        started = true;
      }
      if (started) bar.update(m.chunks_done, m.state === 'indexing' ? 'building indexes' : seconds(m.eta_ms));
      await new Promise((r) => setTimeout(r, 250));
      m = (await client.modelChangeStatus({ kb_id: kbId })).migration ?? m;
    }
  } finally {
    bar.stop();
  }
  return m;
}

export function registerKbModel(kb: Command): void {
  kb.command('set-model <kb_id> [model]')
    .description(
      "change a KB's embedding model: its chunks are re-embedded into a new table while search keeps using the old one, then swapped in",
    )
    .option('--wait', 'run the change to the end in this process, with a progress bar')
    .option('--cancel', 'cancel the change in progress (the KB keeps its model and index)')
    .action(async (kbId: string, model: string | undefined, o: { wait?: boolean; cancel?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      if (!o.cancel && !model) cmd.error('name the new model (a preset or a model folder), or pass --cancel');
      await withClient(g, async ({ client, via, ownerPid }) => {
        if (o.cancel) {
          const r = await client.cancelModelChange({ kb_id: kbId });
          if (g.json) return printJson(r);
          return printLine(
            r.cancelled ? `cancelled; ${kbId} keeps ${r.migration?.from_model ?? 'its model'}` : `nothing to cancel for ${kbId}`,
          );
        }
        let m = await client.changeKbModel({ kb_id: kbId, model: model! });
        if (o.wait) m = await waitWithBar(client, kbId, m, !g.json);
        if (m.state === 'failed') process.exitCode = 1;
        if (g.json) printJson(m);
        else printLine(describeModelChange(m));
        if (!FINISHED.has(m.state) && via === 'owner') {
          process.stderr.write(
            `note: the change runs on in the ragdesk process that owns the data dir (pid ${ownerPid}); follow it with ragdesk kb show ${kbId}, ` +
              `or wait for it: ragdesk kb set-model ${kbId} ${model!} --wait\n`,
          );
        } else if (!FINISHED.has(m.state)) {
          process.stderr.write(
            'note: this command does not stay running; the change continues in ragdesk serve, ragdesk mcp or the desktop app ' +
              `(resumed at their start), or run: ragdesk kb set-model ${kbId} ${model!} --wait\n`,
          );
        }
      });
    });
}
