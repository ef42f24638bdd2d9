import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import {
  createWorker,
  OEM,
  PSM,
  type Bbox,
  type Line as OcrLine,
  type Worker as TesseractWorker,
} from 'tesseract.js';
import { VisionInputError } from '../errors';
import { packageDir } from '../model-files';
import { doubtedFields, isClean, MRZ_LAYOUT, sameField } from './mrz-layout';
import { mrzCheckDigit, normaliseMrzText, parseMrzLines, type MrzReading } from './mrz-parse';
import { largestPdfJpeg, sniffDocument } from './pdf-image';
import { comparePrinted, type PrintedCheck } from './printed-text';

/** What the MRZ reading passes on as it is (mrz-parse.ts); the whole document number only as `document_key`. */
type MrzFields = Omit<MrzReading, 'format' | 'document_number' | 'problems' | 'lines'>;

export interface DocumentReading extends MrzFields {
  mrz_format: MrzReading['format'];
  confidence: number;
  needs_manual_review: boolean;
  reasons: string[];
  ocr_passes: number;
  /**
   * `issuing state:document code:number` from the MRZ, for the API to turn into a keyed hash at once (to see the same
   * document on two accounts). Never store or show it; null when the MRZ did not read cleanly.
   */
  document_key: string | null;
  /** The printed dates and name compared with the MRZ (null when the MRZ did not read cleanly). */
  printed: PrintedCheck | null;
}

export type { PrintedCheck } from './printed-text';

const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

let workerPromise: Promise<TesseractWorker> | null = null;

/** A Tesseract worker for English text set up with `parameters`; its language model is read from npm, never fetched. */
async function englishWorker(parameters: Parameters<TesseractWorker['setParameters']>[0]) {
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: path.join(packageDir('@tesseract.js-data/eng'), '4.0.0'),
    cacheMethod: 'none',
    gzip: true,
  });
  await worker.setParameters(parameters);
  return worker;
}

/** One Tesseract worker for the process, created on first use. */
function tesseract(): Promise<TesseractWorker> {
  workerPromise ??= englishWorker({
    tessedit_char_whitelist: MRZ_ALPHABET,
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    preserve_interword_spaces: '0',
  });
  return workerPromise;
}

let printedWorkerPromise: Promise<TesseractWorker> | null = null;

/** A second worker for the printed fields: its own page layout and no character whitelist. */
function printedTesseract(): Promise<TesseractWorker> {
  printedWorkerPromise ??= englishWorker({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
  return printedWorkerPromise;
}

let cellWorkerPromise: Promise<TesseractWorker> | null = null;

/** A third worker that reads one character cell of the MRZ at a time (digits, or a digit or a filler). */
function cellTesseract(): Promise<TesseractWorker> {
  cellWorkerPromise ??= englishWorker({
    tessedit_char_whitelist: '0123456789<',
    tessedit_pageseg_mode: PSM.SINGLE_CHAR,
  });
  return cellWorkerPromise;
}

export async function closeDocumentReader(): Promise<void> {
  const workers = [workerPromise, printedWorkerPromise, cellWorkerPromise];
  workerPromise = null;
  printedWorkerPromise = null;
  cellWorkerPromise = null;
  for (const w of workers) if (w) await (await w).terminate();
}

/** The image inside a document upload: the upload itself, or the largest scanned JPEG of a PDF; null if none. */
export function documentImageBytes(bytes: Uint8Array): Uint8Array | null {
  const kind = sniffDocument(bytes);
  if (!kind) return null;
  return kind === 'pdf' ? largestPdfJpeg(bytes) : bytes;
}

type Pass = { name: string; render: (img: Sharp, meta: { width: number; height: number }) => Sharp };

/**
 * OCR passes from cheapest to most aggressive; reading stops at the first whose check digits all agree.
 * The MRZ is the bottom band of every ICAO 9303 document, so most passes crop to it.
 */
const passes: Pass[] = [
  { name: 'bottom-band', render: (img, m) => band(img, m, 0.62).resize({ width: 1400 }).normalise() },
  {
    name: 'bottom-band-binarised',
    render: (img, m) => band(img, m, 0.62).resize({ width: 1400 }).normalise().threshold(140),
  },
  { name: 'full-page', render: (img) => img.resize({ width: 1600, withoutEnlargement: false }).normalise() },
  {
    name: 'bottom-band-sharpened',
    render: (img, m) => band(img, m, 0.7).resize({ width: 2000 }).sharpen().normalise().threshold(120),
  },
];

function band(img: Sharp, m: { width: number; height: number }, from: number): Sharp {
  const top = Math.floor(m.height * from);
  return img.extract({ left: 0, top, width: m.width, height: m.height - top });
}

const verifies = (text: string, check: string) => /^\d$/.test(check) && mrzCheckDigit(text) === Number(check);

/** A greyscale image as rows of bytes, for finding where the ink of a line begins and ends. */
interface GreyPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1;
}

/**
 * Where each character of an MRZ line lies on the image. MRZ type is fixed-pitch (OCR-B), and every character,
 * fillers included, leaves ink, so the first and last inked columns of the line's row mark the outer edges of its
 * first and last cells, and the pitch is their distance over the number of characters: right even where Tesseract
 * merged or split a run of fillers or dropped the last characters. The search runs two typical glyph spacings
 * beyond the box Tesseract gave the line. Null when that pitch does not match the spacing of the glyphs Tesseract
 * found (not an MRZ line, or something else inked on the row).
 */
function cellBoxes(line: OcrLine, length: number, grey: GreyPixels): Bbox[] | null {
  const symbols = line.words.flatMap((word) => word.symbols);
  if (symbols.length < length / 2) return null;
  const centre = (b: Bbox) => (b.x0 + b.x1) / 2;
  const gaps = symbols
    .slice(1)
    .map((symbol, i) => centre(symbol.bbox) - centre(symbols[i]!.bbox))
    .sort((a, b) => a - b);
  const typical = gaps[Math.floor(gaps.length / 2)]!;
  if (!(typical > 0)) return null;
  const y0 = Math.max(0, line.bbox.y0);
  const y1 = Math.min(grey.height - 1, line.bbox.y1);
  const inked = (x: number) => {
    let dark = 0;
    for (let y = y0; y <= y1; y++) if (grey.data[y * grey.width + x]! < 110) dark++;
    return dark >= 2;
  };
  const from = Math.max(0, Math.floor(line.bbox.x0 - 2 * typical));
  const to = Math.min(grey.width - 1, Math.ceil(line.bbox.x1 + 2 * typical));
  let left = from;
  while (left < to && !inked(left)) left++;
  let right = to;
  while (right > left && !inked(right)) right--;
  const pitch = (right + 1 - left) / length;
  if (Math.abs(pitch - typical) > 0.1 * typical) return null;
  const height = line.bbox.y1 - line.bbox.y0;
  return Array.from({ length }, (_, i) => ({
    x0: Math.round(left + i * pitch),
    x1: Math.round(left + (i + 1) * pitch),
    y0: Math.round(line.bbox.y0 - 0.15 * height),
    y1: Math.round(line.bbox.y1 + 0.15 * height),
  }));
}

/**
 * Reads the digits of the MRZ again one character cell at a time, where the line read left a check digit that does
 * not agree. Tesseract reads a whole line with a language model that expects a run of fillers to go on, so the
 * digit after a long run is the one it gets wrong most ('6' read as 'B' or 'H', '0' swallowed as '<'); a cell on its
 * own has no such context. A cell alone reads worse than a line (about 85 % of digits right on rendered pages), so
 * nothing is taken from the cells on its own word: a field takes the cells' body or check digit only where its own
 * check digit then agrees and the composite digit agrees too, and parseMrzLines checks every digit again.
 */
async function rereadCells(
  png: Buffer,
  ocrLines: OcrLine[],
  reading: MrzReading,
  today: Date,
): Promise<MrzReading | null> {
  const format = reading.format;
  if (!format) return null;
  const layout = MRZ_LAYOUT[format];
  const length = reading.lines[0]!.length;
  const mrzLines = ocrLines
    .filter((line) => line.text.replace(/[^A-Za-z0-9<]/g, '').length >= 28)
    .slice(-reading.lines.length);
  if (mrzLines.length !== reading.lines.length) return null;
  // Decoded once: cellBoxes scans its rows and every cell is cut from it.
  const { data, info } = await sharp(png)
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey = { data, width: info.width, height: info.height, channels: 1 as const };
  const boxes = mrzLines.map((line) => cellBoxes(line, length, grey));
  const { width, height } = grey;
  const digitReader = await cellTesseract();
  const letterReader = await tesseract();
  const cache = new Map<string, string | null>();
  /** The character in one cell: a digit or '<', or with `letters` any MRZ character; null when none reads. */
  const cell = async (line: number, position: number, letters = false): Promise<string | null> => {
    const key = `${line}:${position}:${letters}`;
    if (cache.has(key)) return cache.get(key)!;
    const box = boxes[line]?.[position];
    let read: string | null = null;
    if (box && box.x0 >= 0 && box.y0 >= 0 && box.x1 <= width && box.y1 <= height) {
      const crop = await sharp(grey.data, { raw: { width, height, channels: grey.channels } })
        .extract({ left: box.x0, top: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 })
        .extend({ left: 16, right: 16, top: 16, bottom: 16, background: '#ffffff' })
        .png()
        .toBuffer();
      const text = (await (letters ? letterReader : digitReader).recognize(crop)).data.text.trim();
      read = text.length === 1 ? text : null;
    }
    cache.set(key, read);
    return read;
  };
  /** One set of lines with every check-digit field and the sex made to agree from the cells where they can. */
  const repair = async (read: readonly string[]): Promise<string[]> => {
    const lines = read.map((line) => [...line]);
    const span = (line: number, from: number, to: number) => lines[line]!.slice(from, to).join('');
    let changedFields = 0;
    for (const field of layout.fields) {
      const [from, to] = field.body;
      const row = lines[field.line]!;
      if (verifies(span(field.line, from, to), row[field.check]!)) continue;
      const check = await cell(field.line, field.check);
      const body = await Promise.all(range(from, to).map((i) => cell(field.line, i, field.letters)));
      // A document number may end in fillers; a date may not.
      const readBody = body.every((c) => c !== null && (field.letters || c !== '<')) ? body.join('') : null;
      const lineBody = span(field.line, from, to);
      // Each way pairs two reads made apart. Check digits cannot see every double misread (two 6s read as 0s where
      // the weights are 7 and 3 change the sum by 60), so a body is never taken from a read that no other confirms:
      // the line's body with the cell's check digit only when the cells read the same body, or the cells' body with
      // the check digit as the line read it.
      const options: [string, string | null][] = [
        [readBody === lineBody ? lineBody : '', check],
        [readBody ?? '', row[field.check]!],
      ];
      const chosen = options.find(
        ([text, digit]) => text.length === to - from && digit && verifies(text, digit),
      );
      if (!chosen) continue;
      row.splice(from, to - from, ...chosen[0]);
      row[field.check] = chosen[1]!;
      changedFields += 1;
    }
    // A field taken from the cells must also agree with the composite digit: two check digits read apart, so a
    // misread cell that happens to satisfy its field's digit (1 in 10) is still caught. The composite digit may
    // itself come from its cell only while at most one field did: with two, two misreads could pair up.
    const composite = layout.composite;
    const covered = composite.spans.map(([line, from, to]) => span(line, from, to)).join('');
    const compositeRow = lines[composite.line]!;
    if (changedFields <= 1 && !verifies(covered, compositeRow[composite.check]!)) {
      const digit = await cell(composite.line, composite.check);
      if (digit && verifies(covered, digit)) compositeRow[composite.check] = digit;
    }
    // The holder's sex has no check digit: a letter that is not M, F or '<' is read again in its cell, and only one
    // of those three is taken.
    const sexRow = lines[layout.sex.line]!;
    if (!'MF<'.includes(sexRow[layout.sex.at]!)) {
      const sex = await cell(layout.sex.line, layout.sex.at, true);
      if (sex && 'MF<'.includes(sex)) sexRow[layout.sex.at] = sex;
    }
    return lines.map((line) => line.join(''));
  };

  // The lines as read (their filler runs fitted), then the same glyphs placed on the grid (gridLine), which undoes
  // a character Tesseract wrote twice or out of thin air, wherever in the line it stands.
  const candidates: string[][] = [[...reading.lines]];
  const grid = boxes.every((b) => b !== null)
    ? await Promise.all(mrzLines.map((line, i) => gridLine(line, boxes[i]!, (at) => cell(i, at, true))))
    : null;
  if (grid && grid.some((line, i) => line !== reading.lines[i])) candidates.push(grid);
  let best: MrzReading | null = null;
  for (const candidate of candidates) {
    const repaired = await repair(candidate);
    if (repaired.every((line, i) => line === reading.lines[i])) continue;
    const parsed = parseMrzLines(repaired, today);
    if (!best || score(parsed) > score(best)) best = parsed;
    if (parsed.check_digits_valid && parsed.format_valid) break;
  }
  return best;
}

/**
 * An MRZ line rebuilt from the glyphs Tesseract found, each put into the cell of the fixed-pitch grid that its
 * centre falls in; where two land in one cell the more confident stays, and an empty cell is read on its own
 * (`readCell`, '<' when nothing reads). Tesseract's line text can hold a character it wrote twice, or invented at a
 * change from letters to digits; on the grid such a glyph shares a cell with a real one.
 */
async function gridLine(
  line: OcrLine,
  boxes: Bbox[],
  readCell: (at: number) => Promise<string | null>,
): Promise<string> {
  const cells: ({ char: string; confidence: number } | null)[] = boxes.map(() => null);
  for (const symbol of line.words.flatMap((word) => word.symbols)) {
    const char = symbol.text.toUpperCase().replace(/[«‹]/g, '<');
    if (char.length !== 1 || !MRZ_ALPHABET.includes(char)) continue;
    const x = (symbol.bbox.x0 + symbol.bbox.x1) / 2;
    const at = boxes.findIndex((box) => x >= box.x0 && x < box.x1);
    if (at < 0) continue;
    const held = cells[at];
    if (!held || symbol.confidence > held.confidence) cells[at] = { char, confidence: symbol.confidence };
  }
  const chars = await Promise.all(cells.map(async (c, at) => c?.char ?? (await readCell(at)) ?? '<'));
  return chars.join('');
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

function score(r: MrzReading): number {
  return (r.check_digits_valid ? 10 : 0) + (r.format_valid ? 5 : 0) + (r.format ? 2 : 0) - r.problems.length;
}

/** Reads the ICAO 9303 machine-readable zone of a passport or ID card image (JPEG/PNG/WebP) or scanned PDF. */
export async function readDocument(
  bytes: Uint8Array,
  mime: string,
  today: Date = new Date(),
): Promise<DocumentReading> {
  const kind = sniffDocument(bytes);
  if (!kind) throw new VisionInputError('unreadable_document');
  let imageBytes: Uint8Array = bytes;
  if (kind === 'pdf') {
    const jpeg = largestPdfJpeg(bytes);
    if (!jpeg) {
      throw new VisionInputError(
        'unreadable_document',
        'The PDF has no scanned image to read. Please upload a photo or a scan of the document (JPEG, PNG or WebP).',
      );
    }
    imageBytes = jpeg;
  }
  const reasons: string[] = [];
  if (mime && !mime.includes(kind === 'jpeg' ? 'jp' : kind))
    reasons.push(`declared type ${mime} differs from content (${kind})`);
  let grey: Buffer;
  let meta: { width: number; height: number };
  try {
    const { data, info } = await sharp(imageBytes, { failOn: 'truncated' })
      .rotate()
      .resize({ width: 2400, height: 2400, fit: 'inside', withoutEnlargement: true })
      .greyscale()
      .png()
      .toBuffer({ resolveWithObject: true });
    grey = data;
    meta = { width: info.width, height: info.height };
  } catch {
    throw new VisionInputError('unreadable_document');
  }
  const worker = await tesseract();
  const reads: MrzReading[] = [];
  const readPass = async (pass: Pass) => {
    const png = await pass.render(sharp(grey), meta).png().toBuffer();
    const { data } = await worker.recognize(png, {}, { text: true, blocks: true });
    let reading = parseMrzLines(normaliseMrzText(data.text), today);
    if (reading.format && !(reading.check_digits_valid && reading.format_valid)) {
      const lines = (data.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
      const repaired = await rereadCells(png, lines, reading, today);
      if (repaired && score(repaired) > score(reading)) reading = repaired;
    }
    reads.push(reading);
    return reading;
  };
  let best: MrzReading | null = null;
  for (const pass of passes) {
    const reading = await readPass(pass);
    if (!best || score(reading) > score(best)) best = reading;
    if (reading.check_digits_valid && reading.format) break;
  }
  const r = best!;
  // A clean read after a failed one must not rewrite a field of it in two or more places unless another pass reads
  // that field the same way; the remaining passes are read for that, and a person decides where none does.
  let unconfirmed = isClean(r) ? doubtedFields(r, reads.slice(0, reads.indexOf(r))) : [];
  for (const pass of passes.slice(reads.length)) {
    if (!unconfirmed.length) break;
    const other = await readPass(pass);
    unconfirmed = unconfirmed.filter((f) => !sameField(r, other, f));
  }
  if (!r.format) reasons.push('no machine-readable zone found');
  else if (!r.check_digits_valid) reasons.push('check digits do not agree');
  else if (unconfirmed.length) reasons.push('the OCR passes read the machine-readable zone differently');
  reasons.push(...r.problems.filter((p) => !/CheckDigit/.test(p)));
  if (r.format && !r.not_expired) reasons.push('document expired');
  if (r.format && r.calculated_age === null) reasons.push('date of birth unreadable');
  const clean = isClean(r) && !unconfirmed.length;
  const used = reads.length;
  // The printed fields above the MRZ band, read only when the MRZ itself read cleanly (otherwise a person reviews).
  let printed: PrintedCheck | null = null;
  if (clean) {
    const top = Math.max(1, Math.floor(meta.height * 0.72));
    const png = await sharp(grey)
      .extract({ left: 0, top: 0, width: meta.width, height: top })
      .resize({ width: 1600 })
      .normalise()
      .png()
      .toBuffer();
    const { data } = await (await printedTesseract()).recognize(png);
    printed = comparePrinted(data.text, r, today);
    reasons.push(...printed.conflicts);
  }
  const confidence = clean ? (used === 1 ? 0.95 : 0.9) : r.check_digits_valid ? 0.7 : r.format ? 0.3 : 0;
  return {
    format_valid: r.format_valid,
    check_digits_valid: r.check_digits_valid,
    document_type: r.document_type,
    document_number_last4: r.document_number_last4,
    issuing_state: r.issuing_state,
    nationality: r.nationality,
    date_of_birth: r.date_of_birth,
    expiry_date: r.expiry_date,
    not_expired: r.not_expired,
    calculated_age: r.calculated_age,
    sex: r.sex,
    mrz_format: r.format,
    confidence,
    // Anything short of a clean, consistent read goes to a person (DESIGN.md §5).
    needs_manual_review: !clean || r.calculated_age === null,
    reasons,
    ocr_passes: used,
    document_key:
      clean && r.document_number
        ? `${r.issuing_state ?? ''}:${(r.document_type ?? '').slice(0, 1)}:${r.document_number}`
        : null,
    surname: r.surname,
    given_names: r.given_names,
    printed,
  };
}
