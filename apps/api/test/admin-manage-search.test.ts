import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createAdmin } from './admin-helpers';
import { createTestApp, signUp, type TestApp } from './helpers';

// The back office's user search and paging; the rest of user management is in admin-manage.test.ts.
let t: TestApp;
let admin: Awaited<ReturnType<typeof createAdmin>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t);
});
afterAll(async () => {
  await t.close();
});

const as = adminApi(
  () => t,
  () => admin.token,
);

describe('users', () => {
  it('pages searches and lists by key without gaps or overlaps, with the total of every match', async () => {
    // Letters only (sign-up accepts names of letters); unique to this test.
    const marker = [...randomBytes(6)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('');
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      // Distinct creation times, newest last.
      t.clock.advance(1000);
      const user = await signUp(t, { full_name: `Pager ${marker} ${'abcdefg'[i]}` });
      // Sign-up refuses such names; an edit in the database gives one holding LIKE's wildcard characters.
      if (i === 3) {
        await t.db.models.User.update(
          { full_name: `Pager ${marker} 100%_done` },
          { where: { id: user.user.id } },
        );
      }
      made.push(user.user.id);
    }
    const newestFirst = [...made].reverse();
    const ids = (body: { users: Array<{ id: string }> }) => body.users.map((row) => row.id);
    const pages: string[] = [];
    for (const skip of [0, 3, 6]) {
      // Upper case: the search stays case-insensitive.
      const page = await as(`/users?search=PAGER%20${marker.toUpperCase()}&limit=3&skip=${skip}`)
        .get()
        .expect(200);
      expect(page.body.total_count).toBe(7);
      pages.push(...ids(page.body));
    }
    expect(pages).toEqual(newestFirst);
    // Past the last match: no rows, still the total.
    expect((await as(`/users?search=pager%20${marker}&skip=50`).get()).body).toEqual({
      users: [],
      total_count: 7,
    });
    // % and _ in a term are literal characters, not wildcards.
    const literal = await as(`/users?search=${marker}%20100%25_d`).get().expect(200);
    expect(ids(literal.body)).toEqual([made[3]]);
    expect((await as(`/users?search=${marker}%20100%25%25`).get()).body.total_count).toBe(0);
    // Short terms (under three characters) go the plain way and still find substrings.
    const short = await as(`/users?search=%25_`).get().expect(200);
    expect(ids(short.body)).toContain(made[3]);
    // The unfiltered list pages over the same key order as its total.
    const all = await as('/users?limit=100').get().expect(200);
    const total = all.body.total_count as number;
    expect(total).toBeLessThanOrEqual(100);
    const second = await as(`/users?limit=2&skip=${total - 3}`)
      .get()
      .expect(200);
    expect(ids(second.body)).toEqual(ids(all.body).slice(total - 3, total - 1));
    expect(second.body.total_count).toBe(total);
  });

  it('finds every user for 1- and 2-character searches, ignoring case, with the exact total', async () => {
    // Values the short-term forms of PostgreSQL (common.ts containsTerm) must all get right: mixed ASCII case,
    // digits and punctuation, LIKE's wildcard characters, and non-ASCII values (the LOWER() branch).
    const values: Array<{ full_name: string; email: string }> = [
      { full_name: 'Zq Mixed', email: 'QZ.Short@Example.COM' },
      { full_name: 'Lower zq', email: 'nothing.here@example.com' },
      { full_name: 'Number 4242', email: 'n42x@example.com' },
      { full_name: 'Émile Zqé', email: 'emile@example.com' },
      { full_name: 'Straße ÉZ', email: 'strasse@example.com' },
      { full_name: 'Wild 100%_x', email: 'wild_card@example.com' },
      { full_name: 'KELVIN \u212Aq', email: 'kelvin@example.com' },
      { full_name: 'Plain', email: 'plain@example.net' },
    ];
    for (const value of values) {
      const user = await signUp(t);
      await t.db.models.User.update(value, { where: { id: user.user.id } });
    }
    const ids = (body: { users: Array<{ id: string }> }) => body.users.map((row) => row.id);
    // The term is lowered (likePattern); SQLite's LIKE then ignores the case of ASCII letters only, PostgreSQL
    // lowers every letter of the value (LOWER()).
    const fold = (text: string) =>
      t.db.dialect === 'postgres' ? text.toLowerCase() : text.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const everyone = (
      await t.db.models.User.findAll({
        order: [
          ['created_at', 'DESC'],
          ['id', 'DESC'],
        ],
      })
    ).filter((row) => row.deleted_at === null);
    const checked: Record<string, number> = {};
    for (const term of [
      'zq',
      'QZ',
      'z',
      'Q',
      '42',
      '4',
      '.',
      '@e',
      'é',
      'É',
      'ée',
      '%',
      '_',
      '%_',
      'k',
      'x',
      'y9',
    ]) {
      const expected = everyone
        .filter((row) =>
          [row.email, row.full_name ?? ''].some((text) => fold(text).includes(term.toLowerCase())),
        )
        .map((row) => row.id);
      const found: string[] = [];
      let total = -1;
      for (let skip = 0; total < 0 || skip < total; skip += 100) {
        const page = await as(`/users?search=${encodeURIComponent(term)}&limit=100&skip=${skip}`)
          .get()
          .expect(200);
        total = page.body.total_count as number;
        found.push(...ids(page.body));
        if (page.body.users.length === 0) break;
      }
      expect({ term, found, total }).toEqual({ term, found: expected, total: expected.length });
      // A small page inside the matches (read from the newest users first, see page's probe).
      const small = await as(`/users?search=${encodeURIComponent(term)}&limit=2&skip=1`)
        .get()
        .expect(200);
      expect({ term, found: ids(small.body), total: small.body.total_count }).toEqual({
        term,
        found: expected.slice(1, 3),
        total: expected.length,
      });
      checked[term] = total;
    }
    // The cases above are real: each term that should find several users does.
    // (Other tests' users have random names and e-mails, hence the lower bounds.)
    expect(checked.zq).toBeGreaterThanOrEqual(3);
    expect(checked.QZ).toBeGreaterThanOrEqual(1);
    expect(checked['42']).toBeGreaterThanOrEqual(1);
    expect(checked['%_']).toBeGreaterThanOrEqual(1);
    expect(checked.y9).toBe(0);
    expect(checked['é']).toBe(t.db.dialect === 'postgres' ? 2 : 1);
  });
});
