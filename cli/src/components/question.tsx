import { useRef, useState } from 'react';
import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';

/** One question with a text field (masked for secrets); Enter submits. Used by prompts and the setup wizard. */
export function Question({
  label,
  mask,
  placeholder,
  error,
  onSubmit,
}: {
  label: string;
  mask?: boolean | undefined;
  placeholder?: string | undefined;
  error?: string | null | undefined;
  onSubmit: (value: string) => void;
}) {
  const [value, setValue] = useState('');
  // What was typed, read at Enter: the field's own callback can hold an earlier render's value.
  const typed = useRef('');
  return (
    <Box flexDirection="column">
      <Box gap={1}>
        <Text color="cyan">?</Text>
        <Text bold>{label}</Text>
        <TextInput
          value={value}
          onChange={(next) => {
            typed.current = next;
            setValue(next);
          }}
          onSubmit={() => {
            const submitted = typed.current;
            typed.current = '';
            setValue('');
            onSubmit(submitted);
          }}
          {...(mask ? { mask: '*' } : {})}
          {...(placeholder ? { placeholder } : {})}
        />
      </Box>
      {error ? <Text color="red">{`  ${error}`}</Text> : null}
    </Box>
  );
}
