import assert from 'node:assert/strict';
import { ESG, YEAR, type AccountData, type V1 } from './dataset.js';
import { until } from './poll.js';
import { ok } from './system.js';

const SAVE = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };

export interface WrittenPages {
  /** The signed links getHtml*FromBlockchain hand out. */
  links: { framework: string; impacts: string };
  txHashes: { framework: string; impacts: string };
}

/** Writes the account's framework and position-impacts HTML documents, waits for them, and asks for their links. */
export async function writeHtmlDocuments(esg: V1, a: AccountData): Promise<WrittenPages> {
  const write = async (operation: string, parameters: Record<string, unknown>) => (await ok(esg(ESG, operation, { reporting_year: YEAR, ...SAVE, ...parameters }), operation)).job_id as string;
  const jobs = {
    framework: await write('writeHtmlFrameworkToBlockchain', { framework_identifier: a.framework, sdg_goals_included: 'yes', eu_objectives_included: 'yes' }),
    impacts: await write('writeHtmlPositionImpactsToBlockchain', { position_id: a.positionId }),
  };
  const out: WrittenPages = { links: { framework: '', impacts: '' }, txHashes: { framework: '', impacts: '' } };
  for (const [name, jobId] of Object.entries(jobs) as [keyof typeof jobs, string][]) {
    const done = await until(() => ok(esg(ESG, 'getJobStatusFromBlockchain', { job_id: jobId }), 'status'), (s) => ['completed', 'failed'].includes(s.info.status.Value), `job ${jobId}`);
    assert.equal(done.info.status.Value, 'completed', JSON.stringify(done));
    out.txHashes[name] = done.info.hash;
    const reader = name === 'framework' ? 'getHtmlFrameworkFromBlockchain' : 'getHtmlPositionImpactsFromBlockchain';
    out.links[name] = Object.values(await ok(esg(ESG, reader, { job_id: jobId }), reader))[0] as string;
  }
  return out;
}
