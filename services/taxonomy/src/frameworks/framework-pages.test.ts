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

    it('page_order orders the pages by a field, then id, both ways, forward and backward; tokens resume only their order', async () => {
      // An account of its own, read with the private filter: only these items. Ids in the order C, A, B, D;
      // ties (two names, equal amounts) go by id; missing year figures and countries sort as NULLs.
      const c = { caller: { accountId: '44444444-4444-4444-8444-444444444444', role: 'user' } as Caller };
      const frameworks = [
        { id: 'ORD-C', name: 'Beta', currency: 'SEK', year: { valueOutstanding: 300, allocatedAmount: 10 } },
        { id: 'ORD-A', name: 'Alpha', currency: 'USD', year: undefined },
        { id: 'ORD-B', name: 'Beta', currency: 'EUR', year: { valueOutstanding: 100.5, allocatedAmount: 10 } },
        { id: 'ORD-D', name: 'Alpha', currency: 'EUR', year: { valueOutstanding: 7, allocatedAmount: 7 } },
      ];
      for (const f of frameworks) {
        await h.client.addFramework({ frameworkIdentifier: f.id, frameworkName: f.name, frameworkCurrencyCode: f.currency, frameworkVisibility: PRIVATE }, c);
        if (f.year) await h.client.addYearSpecificsToFramework({ frameworkIdentifier: f.id, ...f.year, valueOutstandingFramework: true, reportingYear: Y }, c);
      }
      // Another year's figures are no figures of Y.
      await h.client.addYearSpecificsToFramework({ frameworkIdentifier: 'ORD-A', valueOutstanding: 1, allocatedAmount: 1, valueOutstandingFramework: true, reportingYear: Y - 1 }, c);
      const projects = [
        { id: 'PORD-C', name: 'Beta', framework: 'ORD-B', country: 'SE', allocated: 300 },
        { id: 'PORD-A', name: 'Alpha', framework: 'ORD-D', country: undefined, allocated: undefined },
        { id: 'PORD-B', name: 'Beta', framework: 'ORD-A', country: 'SE', allocated: undefined },
        { id: 'PORD-D', name: 'Alpha', framework: 'ORD-B', country: 'DE', allocated: 7 },
      ];
      for (const p of projects) {
        const project = { projectIdentifier: p.id, projectName: p.name, projectCurrencyCode: 'EUR', frameworkIdentifier: p.framework, projectVisibility: PRIVATE };
        await h.client.addProject({ ...project, projectCountryCode: p.country }, c);
        if (p.allocated !== undefined) await h.client.addYearSpecificsToProject({ projectIdentifier: p.id, allocatedAmount: p.allocated, reportingYear: Y }, c);
      }
      const expected: Record<Listing, Record<string, string[]>> = {
        frameworks: {
          id: ['ORD-C', 'ORD-A', 'ORD-B', 'ORD-D'],
          identifier: ['ORD-A', 'ORD-B', 'ORD-C', 'ORD-D'],
          name: ['ORD-A', 'ORD-D', 'ORD-C', 'ORD-B'],
          currency_code: ['ORD-B', 'ORD-D', 'ORD-C', 'ORD-A'],
          value_outstanding: ['ORD-D', 'ORD-B', 'ORD-C', 'ORD-A'],
          allocated_amount: ['ORD-D', 'ORD-C', 'ORD-B', 'ORD-A'],
        },
        projects: {
          id: ['PORD-C', 'PORD-A', 'PORD-B', 'PORD-D'],
          identifier: ['PORD-A', 'PORD-B', 'PORD-C', 'PORD-D'],
          name: ['PORD-A', 'PORD-D', 'PORD-C', 'PORD-B'],
          framework_identifier: ['PORD-B', 'PORD-C', 'PORD-D', 'PORD-A'],
          country_code: ['PORD-D', 'PORD-C', 'PORD-B', 'PORD-A'],
          allocated_amount: ['PORD-D', 'PORD-C', 'PORD-A', 'PORD-B'],
        },
      };
      for (const listing of ['frameworks', 'projects'] as const) {
        const read = async (field: string, descending: boolean, pageSize: number, between: { pageToken?: string; pageBefore?: string } = {}) => {
          const req = { reportingYear: Y, pageSize, pageOrder: { field, descending }, ...between };
          if (listing === 'frameworks') {
            const res = await h.client.getFrameworks({ ...req, frameworkVisibility: PRIVATE }, c);
            return { ...res, identifiers: res.frameworks.map(identifierOf) };
          }
          const res = await h.client.getProjects({ ...req, projectVisibility: PRIVATE }, c);
          return { ...res, identifiers: res.projects.map(identifierOf) };
        };
        const walk = async (field: string, descending: boolean) => {
          const seen: string[] = [];
          let pageToken: string | undefined;
          do {
            const res = await read(field, descending, 1, pageToken ? { pageToken } : {});
            seen.push(...res.identifiers);
            if (res.nextPageToken) assert.equal(res.itemPageTokens.at(-1), res.nextPageToken, "next_page_token is the last item's token");
            pageToken = res.nextPageToken;
          } while (pageToken);
          return seen;
        };
        for (const [field, up] of Object.entries(expected[listing])) {
          const what = `${listing} by ${field}`;
          assert.deepEqual((await read(field, false, 100)).identifiers, up, `${what} ascending`);
          assert.deepEqual(await walk(field, false), up, `${what} ascending, a page at a time`);
          // Descending reverses the whole order, the id tie-break too.
          assert.deepEqual(await walk(field, true), [...up].reverse(), `${what} descending, a page at a time`);
          // Backward from the end, and from an item's token, in the same order.
          const last = await read(field, true, 3, { pageBefore: token([Number.MAX_SAFE_INTEGER, '999999999999999']) });
          assert.deepEqual([last.identifiers, last.hasPreviousPage], [[...up].reverse().slice(1), true], `${what} descending, last 3`);
          const before = await read(field, true, 5, { pageBefore: last.itemPageTokens[0]! });
          assert.deepEqual([before.identifiers, before.hasPreviousPage, before.totalCount], [[up.at(-1)], false, 4], `${what} before the last 3`);
          // An item's token from a backward page resumes forward after it.
          assert.deepEqual((await read(field, true, 5, { pageToken: last.itemPageTokens[1]! })).identifiers, [...up].reverse().slice(3), `${what} resumed`);
        }
        // The default order's tokens are today's: [offset, "id"], nothing more.
        const byId = await read('id', false, 1);
        assert.deepEqual(JSON.parse(Buffer.from(byId.nextPageToken, 'base64url').toString()), [1, String(idOf((await onePage(listing, c, 100, undefined, PRIVATE)).items[0]!))]);
        const byName = await read('name', false, 1);
        const sameOrder = 'page_token must be a next_page_token of this listing in the same order.';
        await rejectsWith(read('identifier', false, 1, { pageToken: byName.nextPageToken }), 'INVALID_ARGUMENT', sameOrder);
        await rejectsWith(read('name', true, 1, { pageToken: byName.nextPageToken }), 'INVALID_ARGUMENT', sameOrder);
        await rejectsWith(read('id', false, 1, { pageToken: byName.nextPageToken }), 'INVALID_ARGUMENT', sameOrder);
        await rejectsWith(read('id', false, 1, { pageBefore: byName.nextPageToken }), 'INVALID_ARGUMENT', 'page_before must be a next_page_token of this listing in the same order.');
        await rejectsWith(read('name', false, 1, { pageToken: byName.nextPageToken, pageBefore: byName.nextPageToken }), 'INVALID_ARGUMENT', 'page_token and page_before cannot be given together: a page is read forward or backward.');
        const fields = Object.keys(expected[listing]).join(', ');
        await rejectsWith(read('visibility', false, 1), 'INVALID_ARGUMENT', `page_order.field must be one of ${fields}, got "visibility".`);
      }
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
