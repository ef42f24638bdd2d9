import { Box, Text } from 'ink';

/** A plain column-aligned table (admin list, partner list, keys list). */
export function Table({ columns, rows, empty }: { columns: string[]; rows: string[][]; empty?: string }) {
  if (rows.length === 0) return <Text dimColor>{empty ?? 'Nothing to show.'}</Text>;
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ');
  return (
    <Box flexDirection="column">
      <Text bold>{line(columns)}</Text>
      {rows.map((row, index) => (
        <Text key={index}>{line(row)}</Text>
      ))}
    </Box>
  );
}

/** `key: value` lines for one record (partner show, site show, backup manifest). */
export function Details({
  entries,
}: {
  entries: Array<[string, string | number | boolean | null | undefined]>;
}) {
  const width = Math.max(...entries.map(([key]) => key.length));
  return (
    <Box flexDirection="column">
      {entries.map(([key, value]) => (
        <Text key={key}>
          <Text bold>{`${key.padEnd(width)}  `}</Text>
          <Text>{value === null || value === undefined ? '—' : String(value)}</Text>
        </Text>
      ))}
    </Box>
  );
}

/** A check line for doctor: ✔ / ! / ✘ with a hint under failures. */
export function CheckLine({
  status,
  name,
  detail,
  hint,
}: {
  status: 'pass' | 'warn' | 'fail';
  name: string;
  detail: string;
  hint?: string | undefined;
}) {
  const mark = status === 'pass' ? '✔' : status === 'warn' ? '!' : '✘';
  const color = status === 'pass' ? 'green' : status === 'warn' ? 'yellow' : 'red';
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={color}>{`${mark} `}</Text>
        <Text bold>{name}</Text>
        <Text>{`: ${detail}`}</Text>
      </Text>
      {hint && status !== 'pass' ? <Text dimColor>{`    → ${hint}`}</Text> : null}
    </Box>
  );
}
