import type { Logger } from 'pino';
import { summarizeArgs, type ActivityLog } from '../core/activity/activity-log.js';
import type { ActivityEntry } from '../shared/contract/keys.js';
import type { Metrics } from '../core/metrics/metrics.js';
import { errorCodeOf, type CallRecord } from './server.js';

export interface RecorderOptions {
  metrics?: Metrics;
  activity?: ActivityLog;
  logger?: Logger;
  transport: ActivityEntry['transport'];
  /** The caller's key name (`owner` for the owner), read per call. */
  keyName: () => string;
}

/** What the owner process does after each tool call: count it, keep it in the activity log, log it. */
export function callRecorder(options: RecorderOptions): (record: CallRecord) => void {
  return (record) => {
    const errorCode = record.protocolError ?? (record.result ? errorCodeOf(record.result) : null);
    options.metrics?.tools.observe(record.tool, record.latencyMs / 1000, errorCode);
    const args = summarizeArgs(record.args);
    const keyName = options.keyName();
    options.activity?.append({
      time: new Date().toISOString(),
      key_name: keyName,
      client: record.clientName,
      transport: options.transport,
      tool: record.tool,
      args,
      hits: record.count ?? null,
      latency_ms: Math.round(record.latencyMs * 100) / 100,
      error_code: errorCode,
    });
    options.logger?.info(
      {
        tool: record.tool,
        key_name: keyName,
        client: record.clientName,
        transport: options.transport,
        args,
        hits: record.count ?? null,
        ms: Math.round(record.latencyMs),
        error_code: errorCode,
      },
      'tool call',
    );
  };
}
