import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { FrameworkSummary, ProjectSummary } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startTaxonomyHarness, type TaxonomyHarness } from '@green-impact/testing/taxonomy/harness';
import { ISSUER_B } from '@green-impact/testing/taxonomy/icma-fixture';

const { VISIBILITY_PUBLIC: PUBLIC, VISIBILITY_PRIVATE: PRIVATE } = Visibility;
const Y = 2024;
const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const BAD_TOKEN = 'page_token must be a next_page_token of this listing.';

type Listing = 'frameworks' | 'projects';
type Summary = FrameworkSummary | ProjectSummary;
const idOf = (s: Summary) => ('projectId' in s ? s.projectId : s.frameworkId);
const identifierOf = (s: Summary) => ('projectId' in s ? s.projectIdentifier : s.frameworkIdentifier);
const byId = (list: Summary[]) => [...list].sort((a, b) => idOf(a) - idOf(b));

/**
 * GetFrameworks / GetProjects with page_size / page_token: keyset pages in id order with the whole
 * list's visibility rules and filter (own of either visibility, other accounts' public ones), counted.
 */
for (const db of testDatabases) {
  describe(`frameworks and projects paged by the service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: TaxonomyHarness;
    const a = (): { caller: Caller } => ({ caller: h.user });
    const b = { caller: ISSUER_B };
    const addFramework = (as: { caller: Caller }, frameworkIdentifier: string, frameworkVisibility: Visibility) =>
      h.client.addFramework({ frameworkIdentifier, frameworkName: `${frameworkIdentifier} name`, frameworkCurrencyCode: 'EUR', frameworkVisibility }, as);
    const addProject = (as: { caller: Caller }, projectIdentifier: string, frameworkIdentifier: string, projectVisibility: Visibility) =>
      h.client.addProject({ projectIdentifier, projectName: `${projectIdentifier} name`, projectCurrencyCode: 'EUR', frameworkIdentifier, projectVisibility }, as);

    const whole = async (listing: Listing, as: { caller: Caller }, visibility?: Visibility): Promise<Summary[]> =>
      listing === 'frameworks'
        ? (await h.client.getFrameworks({ reportingYear: Y, frameworkVisibility: visibility }, as)).frameworks
        : (await h.client.getProjects({ reportingYear: Y, projectVisibility: visibility }, as)).projects;
    const onePage = async (listing: Listing, as: { caller: Caller }, pageSize: number, pageToken?: string, visibility?: Visibility) => {
      const paging = { reportingYear: Y, pageSize, ...(pageToken ? { pageToken } : {}) };
      if (listing === 'frameworks') {
        const res = await h.client.getFrameworks({ ...paging, frameworkVisibility: visibility }, as);
        return { items: res.frameworks as Summary[], next: res.nextPageToken, total: res.totalCount };
      }
      const res = await h.client.getProjects({ ...paging, projectVisibility: visibility }, as);
      return { items: res.projects as Summary[], next: res.nextPageToken, total: res.totalCount };
    };
    const allPages = async (listing: Listing, as: { caller: Caller }, size: number, visibility?: Visibility, between?: (page: number) => Promise<void>) => {
      const pages: Summary[][] = [];
      const totals: (number | undefined)[] = [];
      let pageToken: string | undefined;
      for (;;) {
        const page = await onePage(listing, as, size, pageToken, visibility);
        pages.push(page.items);
        totals.push(page.total);
        if (!page.next) break;
        assert.equal(page.items.length, size, 'a page before the last is full');
        pageToken = page.next;
        await between?.(pages.length);
      }
      return { items: pages.flat(), pages: pages.length, totals };
    };

    before(async () => {
      h = await startTaxonomyHarness(db);
      // Interleaved ids: A's own of both visibilities, B's public (visible to A) and private (never).
      for (let n = 1; n <= 4; n++) {
        await addFramework(a(), `FA-${n}`, n % 2 ? PUBLIC : PRIVATE);
        await addFramework(b, `FB-PUB-${n}`, PUBLIC);
        await addFramework(b, `FB-PRIV-${n}`, PRIVATE);
      }
      await h.client.addYearSpecificsToFramework({ frameworkIdentifier: 'FB-PUB-2', valueOutstanding: 100, allocatedAmount: 40, valueOutstandingFramework: true, reportingYear: Y }, b);
      for (let n = 1; n <= 3; n++) {
        await addProject(a(), `PA-${n}`, 'FA-1', n % 2 ? PRIVATE : PUBLIC);
        await addProject(b, `PB-PUB-${n}`, 'FB-PUB-1', PUBLIC);
        await addProject(b, `PB-PRIV-${n}`, 'FB-PRIV-1', PRIVATE);
      }
    });
    after(async () => {
      await h?.stop();
    });

    for (const listing of ['frameworks', 'projects'] as const) {
      it(`${listing}: pages cover the visible list exactly once, in id order, counted; filters and visibility as the whole list`, async () => {
        for (const visibility of [undefined, PUBLIC, PRIVATE]) {
          const list = await whole(listing, a(), visibility);
          assert.ok(list.length > 0);
          for (const size of [1, 4, 1000]) {
            const paged = await allPages(listing, a(), size, visibility);
            assert.deepEqual(paged.items, byId(list), `${listing} ${visibility} size ${size}`);
            assert.ok(paged.totals.every((t) => t === list.length), 'every page counts the whole listing');
            assert.equal(paged.pages, Math.max(1, Math.ceil(list.length / size)));
          }
        }
        const seen = (await allPages(listing, a(), 2)).items.map(identifierOf);
        const prefix = listing === 'frameworks' ? 'F' : 'P';
        assert.ok(seen.some((i) => i.startsWith(`${prefix}B-PUB-`)), "other accounts' public items are listed");
        assert.ok(!seen.some((i) => i.startsWith(`${prefix}B-PRIV-`)), "other accounts' private items never are");
        // The other account sees its own private ones and A's public ones only.
        const theirs = await allPages(listing, b, 3);
        assert.deepEqual(theirs.items, byId(await whole(listing, b)));
      });
    }

    it('a page carries the year figures as the whole list does; absent page_size is the whole list unpaged', async () => {
      const res = await h.client.getFrameworks({ reportingYear: Y }, a());
      assert.deepEqual([res.nextPageToken, res.totalCount], ['', undefined]);
      const fb2 = (await allPages('frameworks', a(), 2)).items.find((f) => identifierOf(f) === 'FB-PUB-2') as FrameworkSummary;
      assert.deepEqual([fb2.frameworkValueOutstanding, fb2.frameworkAllocatedAmount, fb2.frameworkActivePercentage, fb2.owned], [100, 40, 40, false]);
    });

    it('inserts and removals between pages: each item present throughout is seen exactly once, in order', async () => {
      const before = (await allPages('frameworks', a(), 100)).items.map(idOf);
      const paged = await allPages('frameworks', a(), 3, undefined, async (page) => {
        if (page !== 1) return;
        await addFramework(a(), 'FA-late', PRIVATE);
        await h.client.removeFramework({ frameworkIdentifier: 'FA-4' }, a()); // on a later page
        await h.client.removeFramework({ frameworkIdentifier: 'FA-2' }, a()); // on the first page, already read
        await addFramework(b, 'FB-PRIV-4', PUBLIC); // made public: listed from now on
      });
      const ids = paged.items.map(idOf);
      const names = paged.items.map(identifierOf);
      assert.equal(new Set(ids).size, ids.length);
      assert.deepEqual([...ids].sort((x, y) => x - y), ids);
      assert.ok(names.includes('FA-2') && !names.includes('FA-4'));
      assert.ok(names.includes('FA-late') && names.includes('FB-PRIV-4'));
      assert.equal(ids.filter((id) => before.includes(id)).length, before.length - 1);

      const projectsBefore = (await allPages('projects', a(), 100)).items.map(idOf);
      const projects = await allPages('projects', a(), 2, undefined, async (page) => {
        if (page === 1) await h.client.removeProject({ projectIdentifier: 'PA-3' }, a());
      });
      const projectIds = projects.items.map(idOf);
      assert.deepEqual([...new Set(projectIds)].sort((x, y) => x - y), projectIds);
      assert.equal(projectIds.length, projectsBefore.length - 1);
      assert.ok(!projects.items.map(identifierOf).includes('PA-3'));
    });

    it('refuses a malformed or foreign page_token and a page_size out of 1..1000, as it refuses the rest', async () => {
      for (const listing of ['frameworks', 'projects'] as const) {
        for (const pageToken of ['not a token!', token([1, 'a1b2']), token([1, 0]), token([-1, '5']), token({})]) {
          await rejectsWith(onePage(listing, a(), 2, pageToken), 'INVALID_ARGUMENT', BAD_TOKEN);
        }
        for (const size of [0, -1, 1001]) {
          await rejectsWith(onePage(listing, a(), size), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${size}.`);
        }
        // A token past every id: an empty last page, still counted.
        const past = await onePage(listing, a(), 2, token([0, '999999999999999']));
        assert.deepEqual([past.items, past.next, past.total], [[], '', (await whole(listing, a())).length]);
      }
      await rejectsWith(h.client.getFrameworks({ reportingYear: 20245, pageSize: 2 }, a()), 'INVALID_ARGUMENT', 'reporting_year must be a 4-digit year from 1900 to 2200, got 20245.');
      await rejectsWith(h.client.getProjects({ reportingYear: Y, pageSize: 2, projectVisibility: 9 as Visibility }, a()), 'INVALID_ARGUMENT', 'project_visibility must be public or private.');
      await rejectsWith(h.client.getFrameworks({ reportingYear: Y, pageSize: 2 }), 'UNAUTHENTICATED');
    });
  });
}
