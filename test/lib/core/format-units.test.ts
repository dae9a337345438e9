import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatCost,
  formatCostFixed,
  formatCostNarrow,
  formatDuration,
  formatTokens,
  formatTokensGrouped,
  type DurationStyle,
} from '../../../lib/core/format-units.js';

const durations = (style: DurationStyle, values: number[]): string[] => values.map((ms) => formatDuration(ms, style));

describe('formatDuration', () => {
  test('unit boundaries are taken after rounding: never 1000ms, 60.0s or 1m60s', () => {
    const values = [999, 999.6, 1000, 9_995, 59_949, 59_950, 59_999, 119_600, 3_599_400, 3_599_600, 3_600_000];
    assert.deepEqual(durations('compact', values), ['999ms', '1.00s', '1.00s', '10.0s', '59.9s', '1m00s', '1m00s', '2m00s', '59m59s', '1h00m', '1h00m']);
    assert.deepEqual(durations('tenths', values), ['999ms', '1.0s', '1.0s', '10.0s', '59.9s', '1m 00s', '1m 00s', '2m 00s', '59m 59s', '1h 00m', '1h 00m']);
    assert.deepEqual(durations('spaced', values), ['999 ms', '1.0 s', '1.0 s', '10.0 s', '59.9 s', '1m 00s', '1m 00s', '2m 00s', '59m 59s', '1h 00m', '1h 00m']);
  });

  test('the three styles of the callers (trace views, chat, run and doctor)', () => {
    assert.deepEqual(durations('compact', [0, 850, 1250, 12_500, 125_000]), ['0ms', '850ms', '1.25s', '12.5s', '2m05s']);
    assert.equal(formatDuration(125_000), '2m05s', 'compact is the default');
    assert.deepEqual(durations('tenths', [850, 1250, 125_000]), ['850ms', '1.3s', '2m 05s']);
    assert.deepEqual(durations('spaced', [12, 1234, 75_000]), ['12 ms', '1.2 s', '1m 15s']);
  });

  test('negative and non-finite durations are a dash', () => {
    assert.deepEqual([-1, Number.NaN, Infinity].map((ms) => formatDuration(ms)), ['-', '-', '-']);
  });
});

describe('formatTokens and formatTokensGrouped', () => {
  test('compact counts switch unit after rounding (no 10.0k, no 1000k)', () => {
    assert.deepEqual([0, 950, 999.6, 1234, 9_949, 9_950, 12_345, 999_499, 999_500, 3_400_000].map(formatTokens), ['0', '950', '1.0k', '1.2k', '9.9k', '10k', '12k', '999k', '1.0M', '3.4M']);
  });

  test('grouped counts keep every digit below a million', () => {
    assert.deepEqual([875, 12_400, 1_234_567].map(formatTokensGrouped), ['875', '12,400', '1.2M']);
  });
});

describe('formatCost, formatCostNarrow and formatCostFixed', () => {
  test('precise: small per-call costs keep two significant digits', () => {
    assert.deepEqual([0, 0.000027, 0.0123, 0.99996, 1.5, -0.5].map(formatCost), ['$0', '$0.000027', '$0.0123', '$1.00', '$1.50', '-$0.5000']);
  });

  test('precise: rounding to two significant digits comes first; a tiny cost is never zero', () => {
    assert.deepEqual([0.0000999, 0.0099996, 4e-11].map(formatCost), ['$0.00010', '$0.0100', '<$0.0000000001']);
  });

  test('narrow: blank for none, two significant digits below a cent, at most 8 columns by default', () => {
    assert.deepEqual([undefined, 0, 0.0012, 0.00049, 0.5, 12.5].map((usd) => formatCostNarrow(usd)), ['', '', '$0.0012', '$0.00049', '$0.50', '$12.50']);
  });

  test('narrow: a non-zero cost too small for the column is an upper bound, never $0.0000', () => {
    assert.equal(formatCostNarrow(0.000049), '<$0.0001');
    assert.equal(formatCostNarrow(0.00002), '<$0.0001');
    assert.equal(formatCostNarrow(0.000049, 9), '$0.000049');
    assert.equal(formatCostNarrow(0.000049, Infinity), '$0.000049');
    assert.equal(formatCostNarrow(0.000049, 7), '<$0.001');
    for (const usd of [1e-12, 0.00002, 0.000049, 0.0004]) assert.ok(formatCostNarrow(usd).length <= 8, formatCostNarrow(usd));
  });

  test('fixed: $0.0000 for none, two significant digits below a cent, four decimals below a dollar, two from a dollar', () => {
    assert.deepEqual([0, 0.000049, 0.0012, 0.0123, 0.99996, 1.234].map(formatCostFixed), ['$0.0000', '$0.000049', '$0.0012', '$0.0123', '$1.00', '$1.23']);
  });
});
