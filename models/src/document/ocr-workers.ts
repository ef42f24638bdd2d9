import path from 'node:path';
import { createWorker, OEM, PSM, type Worker as TesseractWorker } from 'tesseract.js';
import { packageDir } from '../model-files';
import { MRZ_ALPHABET } from './mrz-layout';

// The Tesseract workers of the document reader, one of each per process, made on first use: MRZ lines
// (tesseract), the printed fields above them (printedTesseract), and single MRZ character cells (cellTesseract).

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
export function tesseract(): Promise<TesseractWorker> {
  workerPromise ??= englishWorker({
    tessedit_char_whitelist: MRZ_ALPHABET,
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    preserve_interword_spaces: '0',
  });
  return workerPromise;
}

let printedWorkerPromise: Promise<TesseractWorker> | null = null;

/** A second worker for the printed fields: its own page layout and no character whitelist. */
export function printedTesseract(): Promise<TesseractWorker> {
  printedWorkerPromise ??= englishWorker({ tessedit_pageseg_mode: PSM.SPARSE_TEXT });
  return printedWorkerPromise;
}

let cellWorkerPromise: Promise<TesseractWorker> | null = null;

/** A third worker that reads one character cell of the MRZ at a time (digits, or a digit or a filler). */
export function cellTesseract(): Promise<TesseractWorker> {
  cellWorkerPromise ??= englishWorker({
    tessedit_char_whitelist: '0123456789<',
    tessedit_pageseg_mode: PSM.SINGLE_CHAR,
  });
  return cellWorkerPromise;
}

/** Ends the workers (the vision engine calls it when it closes). */
export async function closeDocumentReader(): Promise<void> {
  const workers = [workerPromise, printedWorkerPromise, cellWorkerPromise];
  workerPromise = null;
  printedWorkerPromise = null;
  cellWorkerPromise = null;
  for (const w of workers) if (w) await (await w).terminate();
}
