import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Reader, type Response } from 'mmdb-lib';
// The package's entry exports only the Reader; its Decoder reads the data section record by record (below). A
// CommonJS module: Node's ESM loader hands its `exports` over as the default, where `default` is the class.
import decoderModule from 'mmdb-lib/lib/decoder.js';

const Decoder = ((decoderModule as unknown as { default?: typeof decoderModule }).default ??
  decoderModule) as typeof decoderModule;

/** MaxMind DB format 2.0: the metadata section starts after this marker, at the end of the file. */
const METADATA_MARKER = Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1');
/** Records decoded between two yields to the event loop, so the one-time walk never stalls requests. */
const BATCH = 4000;

/**
 * The subdivisions (`state1`) each country has in the on-box GeoLite2 City data, by country code. The location
 * check compares the declared state with exactly these English names (regions.ts), so the profile offers them
 * (issue 25 item 3) instead of a hand-kept list that would drift from the data. The data section of an MMDB file
 * is a run of records after the search tree (MaxMind DB spec, "Data Section Separator"): decoding it in order
 * visits every record once (~1 s for the IPv4 and IPv6 files together), far cheaper than walking the tree.
 */
export async function readSubdivisions(files: Buffer[]): Promise<Map<string, string[]>> {
  const found = new Map<string, Set<string>>();
  for (const file of files) {
    const { searchTreeSize } = new Reader<Response>(file).metadata;
    const start = searchTreeSize + 16;
    const end = file.lastIndexOf(METADATA_MARKER);
    const decoder = new Decoder(file, start);
    let offset = start;
    let decoded = 0;
    while (offset < end) {
      const cursor = decoder.decode(offset);
      offset = cursor.offset;
      const record = cursor.value as { country_code?: unknown; state1?: unknown } | null;
      if (
        record &&
        typeof record.country_code === 'string' &&
        typeof record.state1 === 'string' &&
        record.state1
      ) {
        let names = found.get(record.country_code);
        if (!names) found.set(record.country_code, (names = new Set()));
        names.add(record.state1);
      }
      if (++decoded % BATCH === 0) await yieldToEventLoop();
    }
  }
  return new Map(
    [...found].map(([country, names]) => [country, [...names].sort((a, b) => a.localeCompare(b, 'en'))]),
  );
}
