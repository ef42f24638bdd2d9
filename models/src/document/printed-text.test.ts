import { describe, expect, it } from 'vitest';
import { comparePrinted, findPrintedDates } from './printed-text';

const today = new Date('2026-11-26T12:00:00Z');
const mrz = { date_of_birth: '1990-03-14', expiry_date: '2031-05-02', surname: 'ERIKSSON' };

describe('findPrintedDates', () => {
  it('reads the formats documents print, with four-digit years only', () => {
    expect(
      findPrintedDates('Date of birth 14 MAR 1990  Expiry 02 MAY/MAI 2031 issued 03.05.2021 x 1990-03-14'),
    ).toEqual(['1990-03-14', '2031-05-02', '2021-05-03']);
    expect(findPrintedDates('14/03/1990 and 14-3-1990 and 14 03 1990')).toEqual(['1990-03-14']);
    expect(findPrintedDates('born 14 MAR 90, 31.02.1990, 99.99.2000')).toEqual([]);
    // OCR reads zeros as O inside numbers.
    expect(findPrintedDates('14.O3.199O')).toEqual(['1990-03-14']);
  });
});

describe('comparePrinted', () => {
  it('agrees when the MRZ dates and surname are printed', () => {
    const c = comparePrinted('PASSPORT ERIKSSON ANNA 14 MAR 1990 02 MAY 2031', mrz, today);
    expect(c).toMatchObject({
      date_of_birth: 'agrees',
      expiry_date: 'agrees',
      name: 'agrees',
      conflicts: [],
    });
  });

  it('flags a printed birth date that contradicts the MRZ', () => {
    const c = comparePrinted('ERIKSSON 14 MAR 1980 02 MAY 2031', mrz, today);
    expect(c.date_of_birth).toBe('conflicts');
    expect(c.conflicts[0]).toMatch(/printed birth date 1980-03-14 differs .*1990-03-14/);
    expect(c.expiry_date).toBe('agrees');
  });

  it('flags a printed expiry that contradicts the MRZ', () => {
    const c = comparePrinted('14 MAR 1990 02 MAY 2035', mrz, today);
    expect(c.expiry_date).toBe('conflicts');
    expect(c.date_of_birth).toBe('agrees');
  });

  it('gives no verdict on what it cannot read, and an issue date is not a birth date', () => {
    const c = comparePrinted('SPECIMEN  issued 03.05.2021', mrz, today);
    expect(c).toMatchObject({ date_of_birth: 'unreadable', expiry_date: 'unreadable', name: 'unreadable' });
    expect(c.conflicts).toEqual([]);
  });
});
