import sharp from 'sharp';
import type { Bbox, Line as OcrLine } from 'tesseract.js';
import { MRZ_ALPHABET, MRZ_LAYOUT } from './mrz-layout';
import { mrzCheckDigit, parseMrzLines, type MrzReading } from './mrz-parse';
import { cellTesseract, tesseract } from './ocr-workers';

// The second look at an MRZ whose line read left a check digit that does not agree: the line's characters placed on
// the fixed-pitch grid of OCR-B cells, and each doubtful cell read on its own (readDocument calls rereadCells).

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
export async function rereadCells(
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

/** How good a reading is: clean check digits first, then a valid format, then a format at all, less its problems. */
export function score(r: MrzReading): number {
  return (r.check_digits_valid ? 10 : 0) + (r.format_valid ? 5 : 0) + (r.format ? 2 : 0) - r.problems.length;
}
