import { describe, expect, it } from 'vitest';
import { currentWindow, WINDOW_MS } from '../../../src/core/fixedWindow.js';

const T = Date.UTC(2026, 10, 22, 12, 0, 0); // 12:00:00.000, aligned to a minute

describe('currentWindow', () => {
  it('uses one-minute windows', () => {
    expect(WINDOW_MS).toBe(60_000);
  });

  it.each([
    [0, T, 60],
    [1, T, 60],
    [999, T, 60],
    [1_000, T, 59],
    [1_001, T, 59],
    [30_500, T, 30],
    [58_999, T, 2],
    [59_000, T, 1],
    [59_001, T, 1],
    [59_999, T, 1],
    [60_000, T + 60_000, 60],
    [60_001, T + 60_000, 60],
    [-1, T - 60_000, 1],
    [-60_000, T - 60_000, 60],
  ])('at 12:00:00 + %i ms the window starts at %i with %i s to reset', (offset, start, secondsToReset) => {
    expect(currentWindow(new Date(T + offset))).toEqual({ start: new Date(start), secondsToReset });
  });

  it.each([
    [0, 0, 60],
    [-1, -60_000, 1],
    [-59_999, -60_000, 60],
    [-60_001, -120_000, 1],
    [-120_000, -120_000, 60],
  ])('floors times around the epoch (%i ms) to the window below', (ms, start, secondsToReset) => {
    expect(currentWindow(new Date(ms))).toEqual({ start: new Date(start), secondsToReset });
  });

  it('keeps the reset between 1 and 60 over a whole window', () => {
    for (let offset = 0; offset < 60_000; offset += 137) {
      const { start, secondsToReset } = currentWindow(new Date(T + offset));
      expect(start.getTime()).toBe(T);
      expect(secondsToReset).toBe(Math.ceil((60_000 - offset) / 1000));
      expect(secondsToReset).toBeGreaterThanOrEqual(1);
      expect(secondsToReset).toBeLessThanOrEqual(60);
    }
  });
});
