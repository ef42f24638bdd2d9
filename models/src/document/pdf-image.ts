/**
 * Finds the largest JPEG (DCTDecode) image stream in a PDF. Scanned documents embed the scan as one such
 * stream, verbatim, so no PDF renderer is needed; PDFs without one are refused with a clear message.
 */
export function largestPdfJpeg(pdf: Uint8Array): Uint8Array | null {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  let best: Uint8Array | null = null;
  const streamRe = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streamRe.exec(text))) {
    if (text.slice(Math.max(0, m.index - 3), m.index) === 'end') continue;
    const dictStart = text.lastIndexOf('obj', m.index);
    const dict = text.slice(Math.max(dictStart, m.index - 2000), m.index);
    if (!dict.includes('/DCTDecode') || /\/FlateDecode/.test(dict)) continue;
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    let stop = end;
    // Drop the EOL before `endstream`; the JPEG itself ends with FFD9.
    while (stop > start && (text[stop - 1] === '\n' || text[stop - 1] === '\r')) stop--;
    const bytes = pdf.subarray(start, stop);
    if (bytes[0] === 0xff && bytes[1] === 0xd8 && (!best || bytes.length > best.length)) best = bytes;
    streamRe.lastIndex = end;
  }
  return best;
}

export function sniffDocument(bytes: Uint8Array): 'pdf' | 'jpeg' | 'png' | 'webp' | null {
  const b = bytes;
  if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46) return 'pdf';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (
    String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...b.subarray(8, 12)) === 'WEBP'
  )
    return 'webp';
  return null;
}
