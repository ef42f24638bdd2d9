import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MAX_SKIP, optionalText, paging, personName, requiredText } from './fields';

const messages = (result: v.SafeParseResult<v.GenericSchema>) =>
  result.issues?.map((issue) => issue.message) ?? [];

describe('paging', () => {
  it('turns skip and limit into numbers with their defaults', () => {
    expect(v.parse(paging, {})).toEqual({ skip: 0, limit: 100 });
    expect(v.parse(paging, { skip: '20', limit: '5' })).toEqual({ skip: 20, limit: 5 });
  });

  it('refuses a skip beyond what any list serves instead of passing 1e20 to the database', () => {
    expect(messages(v.safeParse(paging, { skip: '100000000000000000000' }))).toEqual([
      'skip must be a whole number',
    ]);
    expect(messages(v.safeParse(paging, { skip: String(MAX_SKIP + 1) }))).toEqual([
      `skip must be at most ${MAX_SKIP}`,
    ]);
    expect(v.parse(paging, { skip: String(MAX_SKIP) }).skip).toBe(MAX_SKIP);
  });

  it('refuses limits outside 1..500 and non-numbers', () => {
    expect(messages(v.safeParse(paging, { limit: '0' }))).toEqual(['limit must be at least 1']);
    expect(messages(v.safeParse(paging, { limit: '501' }))).toEqual(['limit must be at most 500']);
    expect(messages(v.safeParse(paging, { limit: '-1' }))).toEqual(['limit must be a whole number']);
  });
});

describe('text fields', () => {
  it('refuse NUL and other control characters on both required and optional text', () => {
    const required = requiredText('Required');
    const optional = optionalText();
    for (const bad of ['a\u0000b', 'bell\u0007', 'esc\u001b[31m', 'del\u007f', 'c1\u0085']) {
      expect(messages(v.safeParse(required, bad))).toContain('Must not contain control characters');
      expect(messages(v.safeParse(optional, bad))).toContain('Must not contain control characters');
    }
  });

  it('keep ordinary text, tabs and line breaks in free text', () => {
    expect(v.parse(requiredText('Required', 1000), 'line one\nline two\ttabbed')).toBe(
      'line one\nline two\ttabbed',
    );
  });
});

describe('person names', () => {
  const name = personName('Full name is required');

  it('accept names in any script with apostrophes, hyphens and dots', () => {
    for (const good of [
      'Jane Doe',
      "Seán O'Brien",
      'Anne-Marie Dupont',
      'J. R. R. Tolkien',
      'Zoë Ångström',
      '李小龍',
      'Ngô Bảo Châu',
    ]) {
      expect(v.parse(name, good)).toBe(good);
    }
  });

  it('refuse line breaks, header injection, links and addresses', () => {
    for (const bad of [
      'Jane\r\nBcc: victim@example.com',
      'Jane\nDoe',
      'Visit https://evil.example',
      'evil.example/login',
      'me@example.com',
      '1234',
      '<script>',
    ]) {
      expect(messages(v.safeParse(name, bad)).length, bad).toBeGreaterThan(0);
    }
  });

  it('keep the required message for a missing name', () => {
    expect(messages(v.safeParse(name, ''))).toEqual(['Full name is required']);
  });
});
