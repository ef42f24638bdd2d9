import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTd1, buildTd3 } from '../src/document/mrz-parse';
import { closeDocumentReader, readDocument } from '../src/document/read-document';
import { VisionInputError } from '../src/errors';
import { adultFemale30s, fixture, idCardPage, passportPage } from './media';

const today = new Date(Date.UTC(2025, 5, 15));
const mrz = buildTd3({
  state: 'NLD',
  surname: 'DE<BRUIJN',
  given: 'WILLEKE LISELOTTE',
  number: 'SPECI2014',
  nationality: 'NLD',
  birth: '650310',
  sex: 'F',
  expiry: '340309',
  personal: '999999990',
});

/** A passport data page: grey card, a photo box, some text, and the two-line MRZ in a monospace font. */
async function passportImage(lines: readonly string[]): Promise<Buffer> {
  const esc = (s: string) => s.replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1250" height="880">
    <rect width="1250" height="880" fill="#f2efe6"/>
    <rect x="60" y="120" width="300" height="390" fill="#c8c2b5"/>
    <text x="420" y="170" font-family="DejaVu Sans" font-size="34" fill="#333">PASPOORT / PASSPORT</text>
    <text x="420" y="240" font-family="DejaVu Sans" font-size="28" fill="#333">DE BRUIJN</text>
    <text x="420" y="290" font-family="DejaVu Sans" font-size="28" fill="#333">Willeke Liselotte</text>
    ${lines.map((l, i) => `<text x="40" y="${740 + i * 62}" font-family="DejaVu Sans Mono" font-size="44" fill="#111">${esc(l)}</text>`).join('')}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

afterAll(async () => {
  await closeDocumentReader();
});

describe('readDocument', () => {
  it('reads back a rendered TD3 passport MRZ with valid check digits', async () => {
    const r = await readDocument(await passportImage(mrz), 'image/jpeg', today);
    expect(r).toMatchObject({
      mrz_format: 'TD3',
      check_digits_valid: true,
      format_valid: true,
      document_type: 'P',
      document_number_last4: '2014',
      issuing_state: 'NLD',
      nationality: 'NLD',
      date_of_birth: '1965-03-10',
      expiry_date: '2034-03-09',
      not_expired: true,
      calculated_age: 60,
      sex: 'female',
      needs_manual_review: false,
    });
    expect(r.confidence).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it('reads the same page from a PDF that embeds it as a JPEG', async () => {
    const jpeg = await passportImage(mrz);
    const pdf = Buffer.concat([
      Buffer.from(
        `%PDF-1.4\n1 0 obj\n<< /Type /XObject /Subtype /Image /Width 1250 /Height 880 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
      ),
      jpeg,
      Buffer.from('\nendstream\nendobj\n%%EOF\n'),
    ]);
    const r = await readDocument(pdf, 'application/pdf', today);
    expect(r.check_digits_valid).toBe(true);
    expect(r.calculated_age).toBe(60);
  }, 60_000);

  /** The holder page of the API's tests (portrait, printed fields, no personal number), read on `day`. */
  const holderPage = (day: Date, change?: (lines: [string, string]) => [string, string]) => {
    const at = (years: number, days = 0) =>
      new Date(Date.UTC(day.getUTCFullYear() + years, day.getUTCMonth(), day.getUTCDate() + days));
    const yymmdd = (d: Date) => d.toISOString().slice(2, 10).replace(/-/g, '');
    const lines = buildTd3({
      state: 'GBR',
      surname: 'HOLMES',
      given: 'SARAH JANE',
      number: 'GB2345678',
      nationality: 'GBR',
      birth: yymmdd(at(-30, -10)),
      sex: 'F',
      expiry: yymmdd(at(5)),
    });
    const birth = at(-30, -10).toISOString().slice(0, 10).split('-').reverse().join('.');
    return passportPage(change ? change(lines) : lines, {
      portrait: fixture(adultFemale30s),
      printed: ['HOLMES', 'SARAH JANE', `Date of birth ${birth}`],
    });
  };

  // Pages that differ only in their dates: Tesseract's line model miscounts runs of fillers, drops or misreads the
  // digit after the last run and writes stray letters where letters turn to digits. With this number, one page every
  // third day for a year, the line reads alone read 73.0 % cleanly; these 20 are a stretch of that grid where they
  // read 12 (January and February 2027). models/MODEL_CARD.md, "Reading the MRZ", has the figures.
  it('reads the holder page cleanly whatever its dates, reading doubtful characters again cell by cell', async () => {
    const days = Array.from({ length: 20 }, (_, i) => new Date(Date.UTC(2027, 0, 3 + 3 * i, 10)));
    const readings = [];
    for (const day of days) readings.push(await readDocument(await holderPage(day), 'image/jpeg', day));
    const clean = readings.filter((r) => r.check_digits_valid && r.format_valid && !r.needs_manual_review);
    expect(clean.length).toBeGreaterThanOrEqual(19);
    // A clean read is a right read.
    for (const r of clean)
      expect(r).toMatchObject({ calculated_age: 30, sex: 'female', document_number_last4: '5678' });
  }, 120_000);

  // Identity cards (TD1: three lines of 30) with the number GB2345678 read cleanly on none of 122 dates before the
  // glyphs were placed on the fixed-pitch grid: Tesseract wrote a '0' into the number, which follows the issuing
  // state; L01X00T47 needed its letters read again cell by cell.
  it('reads an identity card (TD1) with the same checks', async () => {
    for (const [i, number] of ['GB2345678', 'L01X00T47', 'X4RTBPFW4'].entries()) {
      const day = new Date(Date.UTC(2027, 2 + 4 * i, 11, 10));
      const card = buildTd1({
        state: 'GBR',
        surname: 'HOLMES',
        given: 'SARAH JANE',
        number,
        nationality: 'GBR',
        birth: `${String(day.getUTCFullYear() - 30).slice(2)}${day.toISOString().slice(5, 7)}01`,
        sex: 'F',
        expiry: '320101',
      });
      const page = await idCardPage(card, {
        portrait: fixture(adultFemale30s),
        printed: ['HOLMES', 'SARAH JANE'],
      });
      const r = await readDocument(page, 'image/jpeg', day);
      expect(r).toMatchObject({
        mrz_format: 'TD1',
        check_digits_valid: true,
        format_valid: true,
        needs_manual_review: false,
        document_type: 'I',
        document_number_last4: number.slice(-4),
        calculated_age: 30,
        sex: 'female',
        expiry_date: '2032-01-01',
      });
    }
  }, 120_000);

  it('never makes a check digit agree that the page prints wrong', async () => {
    const day = new Date(Date.UTC(2026, 10, 28, 10));
    const wrongDigit = (digit: string) => String((Number(digit) + 5) % 10);
    const wrongComposite = await holderPage(day, ([a, b]) => [a, b.slice(0, 43) + wrongDigit(b[43]!)]);
    const wrongBirth = await holderPage(day, ([a, b]) => [
      a,
      b.slice(0, 19) + wrongDigit(b[19]!) + b.slice(20),
    ]);
    for (const page of [wrongComposite, wrongBirth]) {
      const r = await readDocument(page, 'image/jpeg', day);
      expect(r).toMatchObject({ check_digits_valid: false, needs_manual_review: true, document_key: null });
      expect(r.reasons).toContain('check digits do not agree');
    }
  }, 120_000);

  // The binarised second pass read this card's number GB3776566 as GB3770500: three 6s read as 0s change the sum
  // by 30, which neither the number's check digit nor the composite can see. The first pass had read the number
  // otherwise in more than one place, so the clean read must be confirmed by another pass (none reads it so).
  it('does not accept a read that rewrites an earlier read of a field in several places unconfirmed', async () => {
    const day = new Date(Date.UTC(2027, 8, 18, 10));
    const card = buildTd1({
      state: 'GBR',
      surname: 'HOLMES',
      given: 'SARAH JANE',
      number: 'GB3776566',
      nationality: 'GBR',
      birth: '970908',
      sex: 'F',
      expiry: '320918',
    });
    const page = await idCardPage(card, {
      portrait: fixture(adultFemale30s),
      printed: ['HOLMES', 'SARAH JANE', 'Date of birth 08.09.1997'],
    });
    const r = await readDocument(page, 'image/jpeg', day);
    if (r.needs_manual_review) {
      expect(r.document_key).toBeNull();
      expect(r.reasons).toContain('the OCR passes read the machine-readable zone differently');
    } else expect(r.document_number_last4).toBe('6566');
    expect(r.ocr_passes).toBeGreaterThan(1); // the first pass alone does not read this card
  }, 120_000);

  it('sends a page without an MRZ to manual review', async () => {
    const blank = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#eeeeee' } })
      .png()
      .toBuffer();
    const r = await readDocument(blank, 'image/png', today);
    expect(r.needs_manual_review).toBe(true);
    expect(r.check_digits_valid).toBe(false);
    expect(r.reasons).toContain('no machine-readable zone found');
  }, 60_000);

  it('refuses a PDF with no scannable image and content that is no document format', async () => {
    await expect(readDocument(Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf')).rejects.toThrow(
      /no scanned image/,
    );
    await expect(readDocument(Buffer.from('hello'), 'image/jpeg')).rejects.toBeInstanceOf(VisionInputError);
  });
});
