/**
 * Where the fields of an ICAO 9303 machine-readable zone stand (TD1, TD2, TD3), and how two OCR reads of one zone are
 * compared: read-document.ts repairs a read field by field with this layout and takes a clean read only when no
 * earlier read contradicts it.
 */
import type { MrzReading } from './mrz-parse';

/**
 * A field of the MRZ that carries its own check digit, as character positions on one line (ICAO 9303 parts 4–6).
 * `letters`: the body may hold letters (the document number), so its cells are read with the whole MRZ alphabet.
 */
export interface CheckedField {
  line: number;
  body: [number, number];
  check: number;
  letters?: boolean;
}

/** The composite check digit: what it covers, as [line, from, to) spans, and where it stands. */
interface Composite {
  spans: [number, number, number][];
  line: number;
  check: number;
}

type MrzLayout = { fields: CheckedField[]; composite: Composite; sex: { line: number; at: number } };

/** TD2 and TD3 share the lower line's layout up to the optional data; only its length differs. */
function twoLineLayout(length: 36 | 44): MrzLayout {
  return {
    fields: [
      { line: 1, body: [0, 9], check: 9, letters: true },
      { line: 1, body: [13, 19], check: 19 },
      { line: 1, body: [21, 27], check: 27 },
    ],
    composite: {
      spans: [
        [1, 0, 10],
        [1, 13, 20],
        [1, 21, length - 1],
      ],
      line: 1,
      check: length - 1,
    },
    sex: { line: 1, at: 20 },
  };
}

/** The characters of OCR-B's MRZ subset (ICAO 9303 part 3): capital letters, digits and the filler '<'. */
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

export const MRZ_LAYOUT: Record<'TD1' | 'TD2' | 'TD3', MrzLayout> = {
  TD3: twoLineLayout(44),
  TD2: twoLineLayout(36),
  TD1: {
    fields: [
      { line: 0, body: [5, 14], check: 14, letters: true },
      { line: 1, body: [0, 6], check: 6 },
      { line: 1, body: [8, 14], check: 14 },
    ],
    composite: {
      spans: [
        [0, 5, 30],
        [1, 0, 7],
        [1, 8, 15],
        [1, 18, 29],
      ],
      line: 1,
      check: 29,
    },
    sex: { line: 1, at: 7 },
  },
};

const isDigit = (c: string) => c >= '0' && c <= '9';

export const isClean = (r: MrzReading) => r.format !== null && r.format_valid && r.check_digits_valid;

/**
 * How many edits turn `line`'s span [from, to) into the same span of another read of the line (`other`): a digit read
 * as another digit, a character dropped or added, with `other` aligned to `line` first (a read that gains or loses a
 * character would otherwise differ at every later position). A letter read for a digit or the other way round (O for
 * 0, I for 1) is not counted: it is the confusion a read that failed its check digit makes all the time, not a
 * second reading of the digit.
 */
export function editsWithin(line: string, other: string, [from, to]: [number, number]): number {
  const n = line.length;
  const m = other.length;
  const cost = Array.from({ length: n + 1 }, (_, i) => Array.from({ length: m + 1 }, (_, j) => i + j));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      cost[i]![j] = Math.min(
        cost[i - 1]![j - 1]! + (line[i - 1] === other[j - 1] ? 0 : 1),
        cost[i - 1]![j]! + 1,
        cost[i]![j - 1]! + 1,
      );
    }
  }
  const inSpan = (at: number) => at >= from && at < to;
  let edits = 0;
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = cost[i]![j]!;
    if (i > 0 && j > 0 && here === cost[i - 1]![j - 1]! + (line[i - 1] === other[j - 1] ? 0 : 1)) {
      if (line[i - 1] !== other[j - 1] && inSpan(i - 1) && isDigit(line[i - 1]!) && isDigit(other[j - 1]!))
        edits++;
      i--;
      j--;
    } else if (i > 0 && here === cost[i - 1]![j]! + 1) {
      if (inSpan(i - 1)) edits++; // line[i - 1] has no counterpart in `other`
      i--;
    } else {
      if (inSpan(i) && i > from) edits++; // other[j - 1] stands between line[i - 1] and line[i]
      j--;
    }
  }
  return edits;
}

/**
 * The checked fields of a clean read that an earlier pass read differently in two or more places (digits read
 * otherwise, characters dropped or added). A check digit catches every single misread character but not every
 * double one (two 6s read as 0s where the weights are 7 and 3, or three where they sum to 10), so a clean read that
 * overrides an earlier read of a field in two or more places may be the wrong one of the two: it is taken only when
 * another pass reads that field the same way (`sameField`).
 */
/** A field's characters on its line, body and check digit. */
const fieldSpan = (f: CheckedField): [number, number] => [f.body[0], f.check + 1];

export function doubtedFields(clean: MrzReading, earlier: MrzReading[]): CheckedField[] {
  const layout = MRZ_LAYOUT[clean.format!];
  return layout.fields.filter((f) =>
    earlier.some(
      (e) =>
        e.format === clean.format &&
        editsWithin(clean.lines[f.line]!, e.lines[f.line] ?? '', fieldSpan(f)) >= 2,
    ),
  );
}

export const sameField = (a: MrzReading, b: MrzReading, f: CheckedField) =>
  a.format === b.format &&
  a.lines[f.line]?.slice(...fieldSpan(f)) === b.lines[f.line]?.slice(...fieldSpan(f));
