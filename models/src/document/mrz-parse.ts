import { parse } from 'mrz';

/** ICAO 9303 part 3 §4.9 check digit: weights 7-3-1, '<' = 0, A–Z = 10–35. */
export function mrzCheckDigit(field: string): number {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const v = c === '<' ? 0 : /[0-9]/.test(c) ? Number(c) : /[A-Z]/.test(c) ? c.charCodeAt(0) - 55 : 0;
    sum += v * weights[i % 3]!;
  }
  return sum % 10;
}

/** The MRZ formats by lines and characters, with how far an OCR line may be off before its runs are counted. */
const MRZ_FORMATS = [
  { count: 2, length: 44, tolerance: 3 },
  { count: 2, length: 36, tolerance: 2 },
  { count: 3, length: 30, tolerance: 2 },
];

/**
 * Cleans OCR text into candidate MRZ lines: upper-case, filler look-alikes ('«', '‹', 'く', spaces inside a line,
 * 'K' runs after fillers) turned into '<', and anything outside A–Z 0–9 < dropped. Returns the last 2 or 3
 * lines whose lengths fit TD1 (3×30), TD2 (2×36) or TD3 (2×44).
 */
export function normaliseMrzText(text: string): string[] {
  const lines = text
    .toUpperCase()
    .replace(/[«‹〈<]/g, '<')
    .split(/\r?\n/)
    .map((l) =>
      l
        .replace(/\s+/g, '')
        .replace(/[^A-Z0-9<]/g, '')
        // Tesseract often reads a run of fillers as '<<K<<' or '<<<L'.
        .replace(/<[KLC](?=<)/g, '<<'),
    )
    .filter((l) => l.length >= 28);
  // Strictly first, in the order TD3, TD2, TD1; only when no format fits so, a TD3 whose long runs of fillers can
  // absorb the difference. Not TD2: two lines of a TD1 card whose third was lost would pass for TD2 lines of 36 that
  // lost six fillers.
  for (const strict of [true, false]) {
    for (const { count, length, tolerance } of MRZ_FORMATS) {
      if (!strict && length !== 44) continue;
      const tail = lines.slice(-count);
      if (tail.length < count || !tail.every((l) => fits(l, length, strict ? tolerance : null))) continue;
      return tail.map((l, i) =>
        fitLength(i === count - 1 && count === 2 ? dropStrayLetters(l, length) : l, length),
      );
    }
  }
  return lines.slice(-3);
}

/**
 * Whether an OCR line can be a line of `length` characters: within `tolerance`, or (tolerance null) off by as many as
 * a run of fillers can give or take, up to eight (Tesseract reads a run of twenty '<' as fifteen now and then).
 */
function fits(line: string, length: number, tolerance: number | null): boolean {
  const difference = Math.abs(line.length - length);
  if (tolerance !== null) return difference <= tolerance;
  const longestRun = Math.max(0, ...[...line.matchAll(/<{3,}/g)].map((m) => m[0].length));
  return difference <= 8 && longestRun >= 3 && (line.length < length || longestRun - difference >= 1);
}

/**
 * Tesseract's line model now and then writes a letter where a line changes from letters to digits (the lower line
 * of a TD2 or TD3 document read as 'GBRA9705021…' for 'GBR9705021…'). Where the line is too long and a letter
 * stands at the first character of the birth date or of the expiry date, followed by the six digits of a date, it
 * is dropped; the check digits then decide as for any other read.
 */
function dropStrayLetters(line: string, length: number): string {
  let out = line;
  for (const at of [13, 21]) {
    if (out.length > length && /[A-Z]/.test(out[at] ?? '') && /^\d{6}$/.test(out.slice(at + 1, at + 7)))
      out = out.slice(0, at) + out.slice(at + 1);
  }
  return out;
}

/**
 * Brings an OCR line to its format's length. Tesseract miscounts long runs of fillers far more often than anything
 * else, so the longest run of three or more gives or takes the difference; cutting or padding the end instead would push the
 * last field and its check digit out of place. A line without a run is cut or padded at the end.
 */
function fitLength(line: string, length: number): string {
  const difference = length - line.length;
  if (difference === 0) return line;
  let runStart = -1;
  let runLength = 0;
  for (const match of line.matchAll(/<{3,}/g)) {
    if (match[0].length > runLength) {
      runStart = match.index;
      runLength = match[0].length;
    }
  }
  if (runStart >= 0 && runLength + difference >= 1) {
    const run = '<'.repeat(runLength + difference);
    return line.slice(0, runStart) + run + line.slice(runStart + runLength);
  }
  return difference < 0 ? line.slice(0, length) : line.padEnd(length, '<');
}

/**
 * YYMMDD → ISO date. Birth dates take the latest century that is not in the future (and ≤ 120 years back);
 * expiry dates are at most 50 years ahead of today, which holds for every document in circulation.
 */
export function mrzDateToIso(
  yymmdd: string,
  kind: 'birth' | 'expiry',
  today: Date = new Date(),
): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  if (mm < 1 || mm > 12 || dd < 1 || dd > 31) return null;
  const thisYear = today.getUTCFullYear();
  const candidates = [1900 + yy, 2000 + yy, 2100 + yy];
  const iso = (y: number) => `${y}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`;
  const valid = (y: number) => {
    const dt = new Date(Date.UTC(y, mm - 1, dd));
    return dt.getUTCMonth() === mm - 1 ? dt : null;
  };
  if (kind === 'birth') {
    const pick = candidates
      .filter((y) => {
        const dt = valid(y);
        return dt !== null && dt.getTime() <= today.getTime() && thisYear - y <= 120;
      })
      .pop();
    return pick === undefined ? null : iso(pick);
  }
  const pick = candidates.find((y) => valid(y) !== null && y >= thisYear - 50 && y <= thisYear + 50);
  return pick === undefined ? null : iso(pick);
}

export function ageOn(isoBirth: string, today: Date = new Date()): number {
  const [y, m, d] = isoBirth.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday =
    today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age--;
  return age;
}

export interface MrzReading {
  format_valid: boolean;
  check_digits_valid: boolean;
  format: 'TD1' | 'TD2' | 'TD3' | null;
  document_type: string | null;
  document_number_last4: string | null;
  /** The whole document number: for a keyed hash only, never stored or shown (read-document.ts document_key). */
  document_number: string | null;
  issuing_state: string | null;
  nationality: string | null;
  date_of_birth: string | null;
  expiry_date: string | null;
  not_expired: boolean;
  calculated_age: number | null;
  sex: 'male' | 'female' | 'unspecified' | null;
  /** Holder's names as the MRZ spells them (A–Z and spaces). */
  surname: string | null;
  given_names: string | null;
  /** Field-level problems, e.g. 'birthDateCheckDigit: invalid check digit'. */
  problems: string[];
  lines: string[];
}

const CHECK_FIELDS = [
  'documentNumberCheckDigit',
  'birthDateCheckDigit',
  'expirationDateCheckDigit',
  'compositeCheckDigit',
];

/** Parses MRZ lines with `mrz` (autocorrecting O/0-style confusions in typed fields) and derives the answer fields. */
export function parseMrzLines(lines: string[], today: Date = new Date()): MrzReading {
  const empty: MrzReading = {
    format_valid: false,
    check_digits_valid: false,
    format: null,
    document_type: null,
    document_number_last4: null,
    document_number: null,
    issuing_state: null,
    nationality: null,
    date_of_birth: null,
    expiry_date: null,
    not_expired: false,
    calculated_age: null,
    sex: null,
    surname: null,
    given_names: null,
    problems: [],
    lines,
  };
  let result: ReturnType<typeof parse>;
  try {
    result = parse(lines, { autocorrect: true });
  } catch (error) {
    return { ...empty, problems: [error instanceof Error ? error.message : String(error)] };
  }
  const f = result.fields as Record<string, string | null>;
  const details = result.details as { field: string | null; valid: boolean; error?: string }[];
  const problems = details.filter((d) => !d.valid).map((d) => `${d.field}: ${d.error ?? 'invalid'}`);
  const checkOk = details.filter((d) => d.field && CHECK_FIELDS.includes(d.field)).every((d) => d.valid);
  const birth = f.birthDate ? mrzDateToIso(f.birthDate, 'birth', today) : null;
  const expiry = f.expirationDate ? mrzDateToIso(f.expirationDate, 'expiry', today) : null;
  const todayIso = today.toISOString().slice(0, 10);
  const docNo = (f.documentNumber ?? '').replace(/</g, '');
  const format = ['TD1', 'TD2', 'TD3'].includes(result.format)
    ? (result.format as 'TD1' | 'TD2' | 'TD3')
    : null;
  const sex =
    f.sex === 'male' || f.sex === 'female'
      ? f.sex
      : f.sex === 'nonspecified' || f.sex === 'unspecified'
        ? 'unspecified'
        : null;
  return {
    ...empty,
    format,
    format_valid: format !== null && result.valid,
    check_digits_valid: checkOk,
    document_type: f.documentCode ?? null,
    document_number_last4: docNo ? docNo.slice(-4) : null,
    document_number: docNo || null,
    issuing_state: f.issuingState ?? null,
    nationality: f.nationality ?? null,
    date_of_birth: birth,
    expiry_date: expiry,
    not_expired: expiry !== null && expiry >= todayIso,
    calculated_age: birth ? ageOn(birth, today) : null,
    sex,
    surname: cleanName(f.lastName),
    given_names: cleanName(f.firstName),
    problems,
  };
}

function cleanName(name: string | null | undefined): string | null {
  const v = (name ?? '')
    .replace(/[^A-Za-z ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
  return v || null;
}

/** What a specimen MRZ says about its holder and document. Dates are YYMMDD. */
export interface MrzSpecimen {
  state: string;
  surname: string;
  given: string;
  number: string;
  nationality: string;
  birth: string;
  sex: 'M' | 'F' | '<';
  expiry: string;
}

/** Builds a valid TD3 (passport) MRZ — used by tests and the document bench to render specimen documents. */
export function buildTd3(p: MrzSpecimen & { personal?: string }): [string, string] {
  const name = `${p.surname}<<${p.given.replace(/ /g, '<')}`;
  const line1 = `P<${p.state}${name}`.padEnd(44, '<').slice(0, 44);
  const num = p.number.padEnd(9, '<');
  const personal = (p.personal ?? '').padEnd(14, '<');
  const pcd = p.personal ? String(mrzCheckDigit(personal)) : '<';
  const body = `${num}${mrzCheckDigit(num)}${p.nationality}${p.birth}${mrzCheckDigit(p.birth)}${p.sex}${p.expiry}${mrzCheckDigit(p.expiry)}${personal}${pcd}`;
  const composite = mrzCheckDigit(
    `${num}${mrzCheckDigit(num)}${p.birth}${mrzCheckDigit(p.birth)}${p.expiry}${mrzCheckDigit(p.expiry)}${personal}${pcd}`,
  );
  return [line1, `${body}${composite}`];
}

/** Builds a valid TD1 (identity card, three lines of 30) MRZ, ICAO 9303 part 5 — for tests and the document eval. */
export function buildTd1(p: MrzSpecimen): [string, string, string] {
  const num = p.number.padEnd(9, '<');
  const upper = `I<${p.state.padEnd(3, '<')}${num}${mrzCheckDigit(num)}`.padEnd(30, '<');
  const middle =
    `${p.birth}${mrzCheckDigit(p.birth)}${p.sex}${p.expiry}${mrzCheckDigit(p.expiry)}${p.nationality.padEnd(3, '<')}`.padEnd(
      29,
      '<',
    );
  const composite = mrzCheckDigit(
    `${upper.slice(5, 30)}${middle.slice(0, 7)}${middle.slice(8, 15)}${middle.slice(18, 29)}`,
  );
  const name = `${p.surname}<<${p.given.replace(/ /g, '<')}`.padEnd(30, '<').slice(0, 30);
  return [upper, `${middle}${composite}`, name];
}
