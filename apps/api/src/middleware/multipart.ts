import Busboy from 'busboy';
import type { Context } from 'koa';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../errors';

export interface UploadedFile {
  field: string;
  filename: string;
  bytes: Buffer;
  /** Detected from the content, never from the name or the declared type. */
  mime: string;
}

export interface MultipartResult {
  files: UploadedFile[];
  fields: Record<string, string>;
}

export interface MultipartOptions {
  /** Largest accepted file in bytes; beyond it → 413 with `tooLargeMessage`. */
  maxFileBytes: number;
  tooLargeMessage: string;
  fileFields: string[];
  /** Content types accepted after sniffing; anything else → 415 with `wrongTypeMessage`. */
  accept: string[];
  wrongTypeMessage: string;
  maxFields?: number;
}

/**
 * Reads a multipart/form-data request with hard limits: at most one file per named field, each streamed into
 * memory only up to the limit (the rest of an oversized upload is drained, never buffered), then sniffed by its
 * magic bytes. Nothing is written anywhere until the caller decides to keep it.
 */
export async function readMultipart(ctx: Context, options: MultipartOptions): Promise<MultipartResult> {
  if (!ctx.is('multipart/form-data')) {
    throw new AppError(415, 'request.unsupported_media_type', 'Send the file as multipart/form-data');
  }
  const declared = Number(ctx.get('Content-Length'));
  // Multipart framing adds a little; anything far beyond the file limit is refused before reading.
  if (Number.isFinite(declared) && declared > options.maxFileBytes * options.fileFields.length + 64 * 1024) {
    throw new AppError(413, 'upload.too_large', options.tooLargeMessage);
  }
  const result = await new Promise<MultipartResult>((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({
        headers: ctx.req.headers,
        // busboy reports 'limit' on reaching the limit, not on passing it: one byte more lets a file of exactly
        // maxFileBytes through while anything larger still trips it.
        limits: {
          fileSize: options.maxFileBytes + 1,
          files: options.fileFields.length,
          fields: options.maxFields ?? 20,
          fieldSize: 8 * 1024,
        },
      });
    } catch {
      reject(new AppError(400, 'request.malformed', 'Malformed multipart body'));
      return;
    }
    const files: UploadedFile[] = [];
    const fields: Record<string, string> = {};
    let failure: AppError | null = null;
    busboy.on('file', (field, stream, info) => {
      if (!options.fileFields.includes(field) || files.some((file) => file.field === field)) {
        failure ??= new AppError(400, 'upload.unexpected_field', `Unexpected file field '${field}'`);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure ??= new AppError(413, 'upload.too_large', options.tooLargeMessage);
      });
      stream.on('end', () => {
        files.push({ field, filename: info.filename ?? '', bytes: Buffer.concat(chunks), mime: '' });
      });
    });
    busboy.on('field', (name, value) => {
      fields[name] = value;
    });
    busboy.on('error', () => reject(new AppError(400, 'request.malformed', 'Malformed multipart body')));
    busboy.on('close', () => (failure ? reject(failure) : resolve({ files, fields })));
    ctx.req.pipe(busboy);
  });
  for (const file of result.files) {
    if (file.bytes.length === 0) throw new AppError(422, 'upload.empty', 'The uploaded file is empty');
    const type = await fileTypeFromBuffer(file.bytes);
    if (!type || !options.accept.includes(type.mime)) {
      throw new AppError(415, 'upload.unsupported_type', options.wrongTypeMessage);
    }
    file.mime = type.mime;
  }
  return result;
}
