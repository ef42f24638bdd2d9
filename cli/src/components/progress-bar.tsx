import { Box, Text } from 'ink';

const WIDTH = 30;

/** `label [██████░░░░] 60% 600/1000` — used by backup, restore and audit verify. */
export function ProgressBar({ label, done, total }: { label: string; done: number; total: number }) {
  const ratio = total > 0 ? Math.min(1, done / total) : done > 0 ? 1 : 0;
  const filled = Math.round(ratio * WIDTH);
  return (
    <Box gap={1}>
      <Text>{label}</Text>
      <Text color="green">{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(WIDTH - filled)}</Text>
      <Text>{`${Math.floor(ratio * 100)}%`}</Text>
      <Text dimColor>{`${done}/${total}`}</Text>
    </Box>
  );
}
