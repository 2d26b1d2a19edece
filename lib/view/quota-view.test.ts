import { describe, expect, it } from 'vitest';
import { buildQuotaRows, chartCarriesInformation, quotaUsageBands } from './quota-view';

const quota = (namespace: string, hard: string, computedUsed: string) => ({
  namespace,
  name: 'q',
  resource: 'count/resourceclaims.resource.k8s.io',
  hard,
  used: null,
  computedUsed,
});

describe('quota usage bands and the chart', () => {
  it('counts quotas per band by computed usage against the hard limit', () => {
    const rows = buildQuotaRows([
      quota('a', '4', '4'),
      quota('b', '10', '9'),
      quota('c', '4', '3'),
      quota('d', '4', '1'),
      quota('e', '0', '0'),
      quota('f', '4', '5'),
    ]);
    expect(quotaUsageBands(rows)).toEqual({ full: 2, near: 1, high: 1, below: 1, unknown: 1 });
  });

  it('a chart of bars of one length carries no information; different lengths do', () => {
    const same = buildQuotaRows(Array.from({ length: 25 }, (_, i) => quota(`ns-${i}`, '4', '1')));
    expect(chartCarriesInformation(same)).toBe(false);
    expect(chartCarriesInformation(buildQuotaRows([quota('a', '4', '1'), quota('b', '8', '2')]))).toBe(false);
    expect(chartCarriesInformation(buildQuotaRows([quota('a', '4', '1'), quota('b', '4', '2')]))).toBe(true);
    expect(chartCarriesInformation([])).toBe(false);
  });
});
