import { describe, expect, it } from 'vitest';
import { describeLocation } from './location.js';

describe('describeLocation', () => {
  it('names a page, a page range, the heading path and the lines', () => {
    expect(describeLocation({ page: 2 })).toBe('p.2');
    expect(describeLocation({ page: 1, page_end: 3 })).toBe('pp.1-3');
    expect(describeLocation({ heading_path: ['Guide', 'Returns'], line_start: 10, line_end: 24 })).toBe('Guide › Returns  lines 10-24');
    expect(describeLocation({ line_start: 7, line_end: 7 })).toBe('line 7');
    expect(describeLocation({ char_start: 0, char_end: 5 })).toBe('');
  });
});
