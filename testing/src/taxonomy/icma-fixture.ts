import assert from 'node:assert/strict';
import type { Caller } from '@green-impact/shared/caller';
import { loadExample } from '@green-impact/taxonomy/example/example-loader';
import { ICMA_TAXONOMY } from '@green-impact/taxonomy/example/icma-taxonomy';
import type { TaxonomyHarness } from './harness.js';

/** Test support for frameworks and projects: the ICMA example taxonomy of 2024 and a second issuer. */
export const Y = ICMA_TAXONOMY.reportingYear;

/** An account other than the harness's `user` (issuer A): sees only A's public items. */
export const ISSUER_B: Caller = { accountId: '33333333-3333-4333-8333-333333333333', role: 'user' };

export interface IcmaIds {
  solar: number;
  wind: number;
  hydro: number;
  smartGrids: number;
  ghg: number;
  generation: number;
  capacity: number;
  savings: number;
}

/** Loads the ICMA example (with its Swedish names and the SEK/EUR and USD/EUR rates of 2024); its ids. */
export async function loadIcma(h: TaxonomyHarness): Promise<IcmaIds> {
  await loadExample(h.client, h.operator, ICMA_TAXONOMY);
  const { rows } = await h.client.getTaxonomy({ reportingYear: Y }, { caller: h.operator });
  const sub = (name: string) => {
    const id = rows.find((r) => r.subCategoryName === name)?.subCategoryId;
    assert.ok(id, name);
    return id;
  };
  const indicator = (name: string) => {
    const id = rows.find((r) => r.indicatorName === name)?.indicatorId;
    assert.ok(id, name);
    return id;
  };
  return {
    solar: sub('Solar power'),
    wind: sub('Wind power'),
    hydro: sub('Hydropower'),
    smartGrids: sub('Smart grids and energy storage'),
    ghg: indicator('Annual GHG emissions reduced/avoided'),
    generation: indicator('Annual renewable energy generation'),
    capacity: indicator('Capacity of renewable energy plant(s) constructed or rehabilitated'),
    savings: indicator('Annual energy savings'),
  };
}

/** Equal within floating-point noise (amounts converted with FX rates). */
export function near(actual: number | undefined, expected: number, what = 'value'): void {
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= Math.abs(expected) * 1e-12, `${what}: ${actual} ≠ ${expected}`);
}
