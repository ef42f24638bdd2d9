import { describe, expect, it } from 'vitest';
import { doubtedFields, editsWithin } from './mrz-layout';
import { buildTd1, parseMrzLines } from './mrz-parse';

const today = new Date(Date.UTC(2027, 8, 18));
const card = (number: string) =>
  buildTd1({
    state: 'GBR',
    surname: 'HOLMES',
    given: 'SARAH JANE',
    number,
    nationality: 'GBR',
    birth: '970908',
    sex: 'F',
    expiry: '320918',
  });

describe('editsWithin', () => {
  it('counts characters read otherwise inside the span only', () => {
    expect(editsWithin('I<GBRGB37765663<<<', 'I<GBRGB37705003<<<', [5, 15])).toBe(3);
    expect(editsWithin('I<GBRGB37765663<<<', 'I<GBRGB37765663<<<', [5, 15])).toBe(0);
    expect(editsWithin('I<GBRGB37765663<<<', 'X<GBRGB37765663<<X', [5, 15])).toBe(0);
  });

  it('does not count a letter read for a digit or a digit for a letter', () => {
    // The API test's card L01X00T47: the first pass read O for 0 twice and one O more.
    expect(editsWithin('I<GBRL01X00T471<<<', 'I<GBRLO1X0OOT471<<', [5, 15])).toBe(1);
    expect(editsWithin('I<GBRL01X00T471<<<', 'I<GBRLO1X0OT471<<<', [5, 15])).toBe(0);
  });

  it('aligns a read that gained or lost a character before comparing', () => {
    // One character more inside the span, and the rest shifted: one edit, not one per later position.
    expect(editsWithin('I<GBRGB37765663<<<', 'I<GBRGB377656663<<', [5, 15])).toBe(1);
    // A character dropped inside the span.
    expect(editsWithin('I<GBRGB37765663<<<', 'I<GBRGB3776663<<<<', [5, 15])).toBe(1);
    // The first pass of the card in read-document.test.ts: an extra character and a 6 read as 0.
    expect(editsWithin('I<GBRGB37705003<<<', 'I<GBRGB377656003<<', [5, 15])).toBe(2);
  });
});

describe('doubtedFields', () => {
  it('doubts a clean field that an earlier read of the same format had otherwise in two or more places', () => {
    const [right] = card('GB3776566');
    const [, second, third] = card('GB3776566');
    const clean = parseMrzLines(['I<GBRGB37705003<<<<<<<<<<<<<<<', second, third], today);
    expect(clean.check_digits_valid).toBe(true); // the misread that check digits cannot see
    const earlier = parseMrzLines([right.replace('GB3776566', 'GB3776560'), second, third], today);
    const oneOff = parseMrzLines([right.replace('GB3776566', 'GB3770506'), second, third], today);
    expect(doubtedFields(clean, [oneOff])).toEqual([]);
    expect(doubtedFields(clean, [earlier]).map((f) => [f.line, f.body])).toEqual([[0, [5, 14]]]);
    // Reads of another format say nothing about this one.
    expect(doubtedFields(clean, [{ ...earlier, format: 'TD3' }])).toEqual([]);
  });
});
