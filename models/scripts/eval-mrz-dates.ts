/**
 * How often the on-box MRZ reader reads a document cleanly, over pages that differ only in their dates:
 * `npx tsx models/scripts/eval-mrz-dates.ts [--from 2026-11-01] [--days 120] [--step 3] [--card td3|td1] [--degrade]`.
 *
 * `--degrade` makes each page look more like a phone photo: turned by up to ±1.5°, softened (Gaussian blur of
 * σ 0.8–1.6), scaled to 70–90 % and saved as a JPEG of quality 60–80, each drawn from the page's offset.
 *
 * Each page is the test suite's holder page (models/test/media.ts: a FairFace portrait, printed fields, the MRZ in
 * DejaVu Sans Mono): a passport data page (TD3, the default) or an identity card (TD1, three lines of 30), for a
 * holder who turned 30 ten days before the page's day, with a document valid five more years and a number of its own,
 * read on that day. A read counts as clean when every check digit agrees, the age reads 30 and nothing sends
 * it to review. The dates change only digits, so this measures how the reader copes with digit strings it has not
 * been tuned on (the document tests once passed or failed with the calendar).
 */
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { clopperPearson } from '../src/calibration';
import { buildTd1, buildTd3 } from '../src/document/mrz-parse';
import { closeDocumentReader, readDocument } from '../src/document/read-document';
import { adultFemale30s, fixture, idCardPage, passportPage } from '../test/media';

const { values } = parseArgs({
  options: {
    from: { type: 'string', default: '2026-11-01' },
    days: { type: 'string', default: '120' },
    step: { type: 'string', default: '3' },
    card: { type: 'string', default: 'td3' },
    degrade: { type: 'boolean', default: false },
  },
});
const from = new Date(`${values.from}T10:00:00Z`);
const days = Number(values.days);
const step = Number(values.step);
const portrait = fixture(adultFemale30s);

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const yymmdd = (d: Date) => d.toISOString().slice(2, 10).replace(/-/g, '');
const ddmmyyyy = (d: Date) => d.toISOString().slice(0, 10).split('-').reverse().join('.');
const shifted = (d: Date, years: number, extraDays = 0) =>
  new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate() + extraDays, 10));

/** A page as a phone might take it, the same for the same offset (a fixed sequence, not Math.random). */
async function degrade(page: Buffer, offset: number): Promise<Buffer> {
  const draw = (k: number) => (Math.sin(offset * 12.9898 + k * 78.233) * 43758.5453) % 1;
  const unit = (k: number) => Math.abs(draw(k));
  const { width = 0 } = await sharp(page).metadata();
  return sharp(page)
    .rotate((unit(1) * 2 - 1) * 1.5, { background: '#ffffff' })
    .blur(0.8 + unit(2) * 0.8)
    .resize({ width: Math.round(width * (0.7 + unit(3) * 0.2)) })
    .jpeg({ quality: Math.round(60 + unit(4) * 20) })
    .toBuffer();
}

let clean = 0;
let wrong = 0;
let pages = 0;
const passes = new Map<number, number>();
const printedBirth = new Map<string, number>();
const times: number[] = [];
for (let offset = 0; offset < days; offset += step) {
  const today = new Date(from.getTime() + offset * 86_400_000);
  const birth = shifted(today, -30, -10);
  const holder = {
    surname: 'HOLMES',
    given: 'SARAH JANE',
    // A document number of its own per page, so the pages differ in more than their dates.
    number: `GB${String(1_234_567 + offset * 7_919).slice(-7)}`,
    birth: yymmdd(birth),
    sex: 'F' as const,
    expiry: yymmdd(shifted(today, 5)),
  };
  const printed = ['HOLMES', 'SARAH JANE', `Date of birth ${ddmmyyyy(birth)}`];
  const page =
    values.card === 'td1'
      ? await idCardPage(buildTd1({ ...holder, state: 'GBR', nationality: 'GBR' }), { portrait, printed })
      : await passportPage(buildTd3({ ...holder, state: 'GBR', nationality: 'GBR' }), { portrait, printed });
  const input = values.degrade ? await degrade(page, offset) : page;
  const started = performance.now();
  const reading = await readDocument(input, 'image/jpeg', today);
  times.push(performance.now() - started);
  // A clean read that says something else than the page: the reader's worst failure, counted on its own.
  const accepted = reading.check_digits_valid && !reading.needs_manual_review;
  const right =
    reading.calculated_age === 30 &&
    reading.document_number_last4 === holder.number.slice(-4) &&
    reading.expiry_date === isoDate(shifted(today, 5)) &&
    reading.sex === 'female';
  const ok = accepted && right;
  pages++;
  if (ok) clean++;
  if (accepted && !right) {
    wrong++;
    console.log(`${today.toISOString().slice(0, 10)}  ACCEPTED BUT WRONG: ${JSON.stringify(reading)}`);
  }
  passes.set(reading.ocr_passes, (passes.get(reading.ocr_passes) ?? 0) + 1);
  if (!ok) console.log(`${today.toISOString().slice(0, 10)}  not clean: ${reading.reasons.join('; ')}`);
  // The printed date of birth beside the portrait, compared with the MRZ (the API sends a conflict to review).
  if (ok)
    printedBirth.set(
      reading.printed?.date_of_birth ?? 'unread',
      (printedBirth.get(reading.printed?.date_of_birth ?? 'unread') ?? 0) + 1,
    );
}
await closeDocumentReader();
const [low, high] = clopperPearson(clean, pages);
times.sort((a, b) => a - b);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
console.log(
  `accepted but wrong ${wrong}; clean reads ${clean}/${pages} = ${pct(clean / pages)} [${pct(low)}, ${pct(high)}]; ` +
    `OCR passes ${[...passes.entries()]
      .sort(([a], [b]) => a - b)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ')}; ` +
    `median ${Math.round(times[Math.floor(times.length / 2)]!)} ms (first read includes starting the workers); ` +
    `printed date of birth on the clean reads: ${[...printedBirth.entries()].map(([k, n]) => `${k} ${n}`).join(', ')}`,
);
