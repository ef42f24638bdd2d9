/**
 * The printed (visual inspection zone) fields of a document, compared with its MRZ. A forger who types a valid
 * MRZ under a different printed birth date, or edits the printed date of a genuine document, leaves the two
 * disagreeing. OCR of printed text is unreliable, so a field OCR cannot read is 'unreadable' (no verdict), and only
 * a date that is read cleanly and contradicts the MRZ counts as a conflict.
 */

export type FieldAgreement = 'agrees' | 'conflicts' | 'unreadable';

export interface PrintedCheck {
  /** Whole dates found in the printed text (ISO), in reading order. */
  dates: string[];
  date_of_birth: FieldAgreement;
  expiry_date: FieldAgreement;
  /** The MRZ surname appears in the printed text ('conflicts' is never claimed for names: OCR misreads them). */
  name: 'agrees' | 'unreadable';
  /** Human-readable conflicts, for the reviewer. */
  conflicts: string[];
}

const MONTHS: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  SEPT: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12,
};

function iso(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Dates with a four-digit year in the formats documents print: "14 MAR 1990", "14 MAR/MARS 1990", "14.03.1990",
 * "14/03/1990", "14-03-1990", "14 03 1990" and "1990-03-14". Two-digit years are ambiguous and ignored.
 */
export function findPrintedDates(text: string): string[] {
  const t = text.toUpperCase().replace(/[Oo](?=\d)|(?<=\d)[Oo]/g, '0');
  const found: { at: number; date: string }[] = [];
  const named = /\b(\d{1,2})\s*([A-Z]{3,4})(?:\s*\/\s*[A-Z]{3,5})?\s*(\d{4})\b/g;
  for (const m of t.matchAll(named)) {
    const month = MONTHS[m[2]!];
    const date = month ? iso(Number(m[3]), month, Number(m[1])) : null;
    if (date) found.push({ at: m.index!, date });
  }
  const dmy = /\b(\d{1,2})[./\- ](\d{1,2})[./\- ](\d{4})\b/g;
  for (const m of t.matchAll(dmy)) {
    const date = iso(Number(m[3]), Number(m[2]), Number(m[1]));
    if (date) found.push({ at: m.index!, date });
  }
  const ymd = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
  for (const m of t.matchAll(ymd)) {
    const date = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    if (date) found.push({ at: m.index!, date });
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.date))];
}

/**
 * Compares printed text with the MRZ. Birth date: 'agrees' when the MRZ birth date is printed; 'conflicts' when a
 * birth-like date (more than 11 years before today: older than any issue date of a document still in circulation)
 * is printed and none of them is the MRZ's. Expiry: 'agrees' when the MRZ expiry is printed; 'conflicts' when a
 * future date is printed and none is the MRZ expiry. Otherwise 'unreadable'.
 */
export function comparePrinted(
  text: string,
  mrz: { date_of_birth: string | null; expiry_date: string | null; surname: string | null },
  today: Date = new Date(),
): PrintedCheck {
  const dates = findPrintedDates(text);
  const todayIso = today.toISOString().slice(0, 10);
  const birthLimit = iso(today.getUTCFullYear() - 11, today.getUTCMonth() + 1, 1)!;
  const conflicts: string[] = [];
  let dob: FieldAgreement = 'unreadable';
  if (mrz.date_of_birth && dates.includes(mrz.date_of_birth)) dob = 'agrees';
  else if (mrz.date_of_birth) {
    const birthLike = dates.filter((d) => d < birthLimit && d !== mrz.expiry_date);
    if (birthLike.length) {
      dob = 'conflicts';
      conflicts.push(
        `printed birth date ${birthLike.join(' / ')} differs from the machine-readable zone (${mrz.date_of_birth})`,
      );
    }
  }
  let expiry: FieldAgreement = 'unreadable';
  if (mrz.expiry_date && dates.includes(mrz.expiry_date)) expiry = 'agrees';
  else if (mrz.expiry_date) {
    const future = dates.filter((d) => d > todayIso);
    if (future.length) {
      expiry = 'conflicts';
      conflicts.push(
        `printed expiry date ${future.join(' / ')} differs from the machine-readable zone (${mrz.expiry_date})`,
      );
    }
  }
  const letters = text.toUpperCase().replace(/[^A-Z]/g, '');
  const surname = (mrz.surname ?? '').replace(/[^A-Z]/g, '');
  const name = surname.length >= 2 && letters.includes(surname) ? 'agrees' : 'unreadable';
  return { dates, date_of_birth: dob, expiry_date: expiry, name, conflicts };
}
