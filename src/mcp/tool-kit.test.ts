import { describe, expect, it } from 'vitest';
import type { Hit } from '../shared/contract/index.js';
import { extractiveAnswer } from './extractive.js';
import { Metrics } from '../core/metrics/metrics.js';

const hit = (text: string, doc_id = 'd'): Hit => ({
  kb_id: 'k',
  doc_id,
  title: doc_id,
  text,
  score: 1,
  chunk_index: 0,
  location: {},
  source: '',
  metadata: {},
});

describe('extractive answer', () => {
  it('picks the sentences sharing the question words and cites them', () => {
    const answer = extractiveAnswer('What causes heart disease?', [
      hit('Cats sleep a lot. Heart disease is caused by high blood pressure.'),
      hit('Heart disease is common.', 'e'),
    ]);
    expect(answer.startsWith('Heart disease is caused by high blood pressure. [1]')).toBe(true);
    expect(answer).toContain('[2]');
    expect(answer).not.toContain('Cats');
  });

  it('works for Chinese and Russian text', () => {
    expect(extractiveAnswer('таможенные пошлины', [hit('Погода хорошая. Таможенные пошлины платят на границе.')])).toContain(
      'Таможенные пошлины платят на границе. [1]',
    );
    expect(extractiveAnswer('数据库', [hit('今天天气很好。数据库存储数据。')])).toContain('[1]');
  });
});

describe('metrics', () => {
  it('renders Prometheus text with counters and a histogram', () => {
    const m = new Metrics();
    m.tools.observe('search_kb', 0.004);
    m.tools.observe('search_kb', 0.2, 'kb_not_found');
    m.countHttp('/mcp', 200);
    m.gauge('ragdesk_mcp_sessions', 'Open sessions.', () => 2);
    const text = m.render();
    expect(text).toContain('ragdesk_tool_calls_total{tool="search_kb"} 2');
    expect(text).toContain('ragdesk_tool_errors_total{tool="search_kb",code="kb_not_found"} 1');
    expect(text).toContain('ragdesk_tool_latency_seconds_bucket{tool="search_kb",le="0.005"} 1');
    expect(text).toContain('ragdesk_tool_latency_seconds_bucket{tool="search_kb",le="+Inf"} 2');
    expect(text).toContain('ragdesk_tool_latency_seconds_count{tool="search_kb"} 2');
    expect(text).toContain('ragdesk_http_requests_total{route="/mcp",status="200"} 1');
    expect(text).toContain('ragdesk_mcp_sessions 2');
    expect(text.endsWith('\n')).toBe(true);
  });
});
