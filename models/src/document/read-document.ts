import sharp, { type Sharp } from 'sharp';
import { VisionInputError } from '../errors';
import { rereadCells, score } from './mrz-cells';
import { doubtedFields, isClean, sameField } from './mrz-layout';
import { normaliseMrzText, parseMrzLines, type MrzReading } from './mrz-parse';
import { printedTesseract, tesseract } from './ocr-workers';
import { largestPdfJpeg, sniffDocument } from './pdf-image';
import { comparePrinted, type PrintedCheck } from './printed-text';

export { closeDocumentReader } from './ocr-workers';

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
