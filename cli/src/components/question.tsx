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
  const submit = (answer: string) => {
    typed.current = '';
    setValue('');
    onSubmit(answer);
  };
  return (
    <Box flexDirection="column">
      <Box gap={1}>
        <Text color="cyan">?</Text>
        <Text bold>{label}</Text>
        <TextInput
          value={value}
          onChange={(next) => {
            // A paste arrives as one chunk, Enter included ("secret\r"), and the field would keep the line break as
            // a character of the answer (issue 25 item 9): the line ends there and is submitted, as typed Enter does.
            const end = next.search(/[\r\n]/);
            if (end >= 0) {
              submit(next.slice(0, end));
              return;
            }
            typed.current = next;
            setValue(next);
          }}
          onSubmit={() => submit(typed.current)}
          {...(mask ? { mask: '*' } : {})}
          {...(placeholder ? { placeholder } : {})}
        />
      </Box>
      {error ? <Text color="red">{`  ${error}`}</Text> : null}
    </Box>
  );
}
