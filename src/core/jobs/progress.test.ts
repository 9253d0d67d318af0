import { describe, expect, it } from 'vitest';
import { progressOf, ProgressRegistry } from './progress.js';

describe('ProgressRegistry', () => {
  it('keeps the last report under a token until finished, and nothing without a token', () => {
    const r = new ProgressRegistry();
    const report = r.reporter('tok-12345678');
    expect(r.get('tok-12345678')).toBeNull();
    report('files', 1, 3, '/a/b.txt');
    report('files', 2, 3, '/a/c.txt');
    expect(r.get('tok-12345678')).toEqual({ stage: 'files', done: 2, total: 3, detail: '/a/c.txt', finished: false });
    report.finish();
    expect(r.get('tok-12345678')).toMatchObject({ done: 2, finished: true });
    const silent = r.reporter(undefined);
    silent('files', 1, 1);
    silent.finish();
    expect(r.get('undefined')).toBeNull();
  });

  it('is one registry per engine', () => {
    const a = {};
    expect(progressOf(a)).toBe(progressOf(a));
    expect(progressOf({})).not.toBe(progressOf(a));
  });
});
