import { describe, expect, it } from 'vitest';
import {
  ageOn,
  buildTd1,
  buildTd3,
  mrzCheckDigit,
  mrzDateToIso,
  normaliseMrzText,
  parseMrzLines,
} from './mrz-parse';

const today = new Date(Date.UTC(2025, 5, 15));
const td3 = buildTd3({
  state: 'NLD',
  surname: 'DE BRUIJN'.replace(' ', '<'),
  given: 'WILLEKE LISELOTTE',
  number: 'SPECI2014',
  nationality: 'NLD',
  birth: '650310',
  sex: 'F',
  expiry: '340309',
  personal: '999999990',
});

describe('mrzCheckDigit', () => {
  it('matches the ICAO 9303 worked examples', () => {
    expect(mrzCheckDigit('L898902C3')).toBe(6);
    expect(mrzCheckDigit('740812')).toBe(2);
    expect(mrzCheckDigit('120415')).toBe(9);
  });
});

describe('mrzDateToIso', () => {
  it('puts a birth date in the latest century that is not in the future', () => {
    expect(mrzDateToIso('650310', 'birth', today)).toBe('1965-03-10');
    expect(mrzDateToIso('100101', 'birth', today)).toBe('2010-01-01');
    expect(mrzDateToIso('250616', 'birth', today)).toBe('1925-06-16');
    expect(mrzDateToIso('250615', 'birth', today)).toBe('2025-06-15');
  });

  it('reads expiry dates in the near future or past', () => {
    expect(mrzDateToIso('340309', 'expiry', today)).toBe('2034-03-09');
    expect(mrzDateToIso('990101', 'expiry', today)).toBe('1999-01-01');
  });

  it('rejects impossible dates', () => {
    expect(mrzDateToIso('651310', 'birth', today)).toBeNull();
    expect(mrzDateToIso('650230', 'birth', today)).toBeNull();
    expect(mrzDateToIso('65O310', 'birth', today)).toBeNull();
  });

  it('computes age with the birthday not yet reached', () => {
    expect(ageOn('2007-06-16', today)).toBe(17);
    expect(ageOn('2007-06-15', today)).toBe(18);
  });
});

describe('parseMrzLines', () => {
  it('reads a valid TD3 passport MRZ', () => {
    const r = parseMrzLines([...td3], today);
    expect(r).toMatchObject({
      format: 'TD3',
      format_valid: true,
      check_digits_valid: true,
      document_type: 'P',
      document_number_last4: '2014',
      issuing_state: 'NLD',
      nationality: 'NLD',
      date_of_birth: '1965-03-10',
      expiry_date: '2034-03-09',
      not_expired: true,
      calculated_age: 60,
      sex: 'female',
    });
  });

  it('flags a broken check digit', () => {
    const line2 = td3[1].slice(0, 19) + String((Number(td3[1][19]) + 1) % 10) + td3[1].slice(20);
    const r = parseMrzLines([td3[0], line2], today);
    expect(r.check_digits_valid).toBe(false);
    expect(r.problems.join(' ')).toMatch(/birthDateCheckDigit/);
  });

  it('autocorrects an O read in place of 0 in a date', () => {
    const line2 = td3[1].replace('650310', '65O31O');
    const r = parseMrzLines([td3[0], line2], today);
    expect(r.check_digits_valid).toBe(true);
    expect(r.date_of_birth).toBe('1965-03-10');
  });

  it('reports an expired document', () => {
    expect(parseMrzLines([...td3], new Date(Date.UTC(2035, 0, 1))).not_expired).toBe(false);
  });
});

describe('normaliseMrzText', () => {
  it('keeps the two MRZ lines, removes spaces and maps filler look-alikes', () => {
    const noisy = `PASSPORT\nsome text\n${td3[0].replace(/<</, '«<').replace('<', ' <')}\n${td3[1].toLowerCase()}\n`;
    expect(normaliseMrzText(noisy)).toEqual([...td3]);
  });

  // A page without a personal number: the lower line ends in fifteen fillers and the composite digit.
  const plain = buildTd3({
    state: 'GBR',
    surname: 'HOLMES',
    given: 'SARAH JANE',
    number: 'GB2345678',
    nationality: 'GBR',
    birth: '961211',
    sex: 'F',
    expiry: '311221',
  });

  it('gives or takes a miscounted run of fillers inside the run, so the last check digit stays in its place', () => {
    expect(plain[1]).toMatch(/<{15}\d$/);
    const oneTooMany = plain[1].replace('<<<<', '<<<<<');
    const fiveShort = [plain[0].replace('<<<<<<', '<'), plain[1].replace('<<<<<<', '<')];
    expect(normaliseMrzText(`${plain[0]}\n${oneTooMany}`)).toEqual([...plain]);
    expect(normaliseMrzText(fiveShort.join('\n'))).toEqual([...plain]);
    expect(parseMrzLines(normaliseMrzText(`${plain[0]}\n${oneTooMany}`), today).check_digits_valid).toBe(
      true,
    );
  });

  it('takes three lines of about 30 for an identity card, never for two TD2 lines that lost fillers', () => {
    // The TD1 specimen of ICAO 9303 part 5 (Anna Maria Eriksson, Utopia), line for line.
    const card = buildTd1({
      state: 'UTO',
      surname: 'ERIKSSON',
      given: 'ANNA MARIA',
      number: 'D23145890',
      nationality: 'UTO',
      birth: '740812',
      sex: 'F',
      expiry: '120415',
    });
    expect(card).toEqual([
      'I<UTOD231458907<<<<<<<<<<<<<<<',
      '7408122F1204159UTO<<<<<<<<<<<6',
      'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
    ]);
    // Utopia is no state the parser knows, so only the format and the check digits are asked of it.
    expect(parseMrzLines(card, today)).toMatchObject({ format: 'TD1', check_digits_valid: true });
    const read = normaliseMrzText(`IDENTITY CARD\n${card[0]}<<\n${card[1]}\n${card[2]}\n`);
    expect(read).toEqual([...card]);
  });

  it('drops a letter written where the birth or expiry date begins when the line is too long, and only then', () => {
    const strayBirth = `${plain[1].slice(0, 13)}A${plain[1].slice(13)}`;
    const strayExpiry = `${plain[1].slice(0, 21)}O${plain[1].slice(21)}`;
    expect(normaliseMrzText(`${plain[0]}\n${strayBirth}`)).toEqual([...plain]);
    expect(normaliseMrzText(`${plain[0]}\n${strayExpiry}`)).toEqual([...plain]);
    // A line of the right length keeps what it read, and its check digits say it is wrong.
    const misread = `${plain[1].slice(0, 13)}A${plain[1].slice(14)}`;
    expect(normaliseMrzText(`${plain[0]}\n${misread}`)[1]).toBe(misread);
  });
});
