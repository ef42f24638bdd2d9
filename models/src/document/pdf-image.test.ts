import { describe, expect, it } from 'vitest';
import { largestPdfJpeg, sniffDocument } from './pdf-image';

const jpeg = (n: number) => Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...Array(n).fill(7), 0xff, 0xd9]);

function pdfWith(streams: { filter: string; data: Uint8Array }[]): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from('%PDF-1.4\n')];
  streams.forEach((s, i) => {
    parts.push(
      Buffer.from(
        `${i + 1} 0 obj\n<< /Type /XObject /Subtype /Image /Filter ${s.filter} /Length ${s.data.length} >>\nstream\n`,
      ),
    );
    parts.push(s.data);
    parts.push(Buffer.from('\nendstream\nendobj\n'));
  });
  parts.push(Buffer.from('%%EOF\n'));
  return Buffer.concat(parts);
}

describe('largestPdfJpeg', () => {
  it('returns the largest DCTDecode stream byte for byte', () => {
    const big = jpeg(300);
    const found = largestPdfJpeg(
      pdfWith([
        { filter: '/DCTDecode', data: jpeg(20) },
        { filter: '/DCTDecode', data: big },
      ]),
    );
    expect(found && Buffer.from(found).equals(Buffer.from(big))).toBe(true);
  });

  it('returns null when the PDF has no JPEG image', () => {
    expect(
      largestPdfJpeg(pdfWith([{ filter: '/FlateDecode', data: Uint8Array.from([1, 2, 3]) }])),
    ).toBeNull();
  });
});

describe('sniffDocument', () => {
  it('recognises content regardless of the declared name', () => {
    expect(sniffDocument(Buffer.from('%PDF-1.7'))).toBe('pdf');
    expect(sniffDocument(jpeg(1))).toBe('jpeg');
    expect(sniffDocument(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBe('png');
    expect(sniffDocument(Buffer.from('RIFF1234WEBPVP8 '))).toBe('webp');
    expect(sniffDocument(Buffer.from('hello'))).toBeNull();
  });
});
