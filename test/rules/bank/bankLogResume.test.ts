import { describe, expect, it } from 'vitest';
import { linesAfter } from '../../../src/bank/bankLogResume.js';

const lines = [{ id: 'evt_1' }, { id: 'evt_2' }, { id: 'evt_3' }];

describe('the bank log lines a try still posts', () => {
  it('are those after the last line an earlier try heartbeated', () => {
    expect(linesAfter(lines, 'evt_1')).toEqual([{ id: 'evt_2' }, { id: 'evt_3' }]);
    expect(linesAfter(lines, 'evt_3')).toEqual([]);
  });

  it.each([
    ['a first try (no heartbeat)', undefined],
    ['a heartbeat naming no line of the batch', 'evt_9'],
    ['a heartbeat of another shape', { line: 2 }],
  ])('are all of them for %s: a line posted twice is a no-op, a skipped one is lost', (_, details) => {
    expect(linesAfter(lines, details)).toEqual(lines);
  });
});
