import { describe, expect, it } from 'vitest';
import { UserError } from './errors';
import { askNewPassword } from './prompt';

/** A terminal that answers with `answers` in turn, recording the questions and what was said. */
function terminal(answers: string[]) {
  const asked: Array<{ label: string; mask: boolean }> = [];
  const said: string[] = [];
  const prompt = async (label: string, options: { mask?: boolean } = {}) => {
    asked.push({ label, mask: options.mask ?? false });
    return answers.shift() ?? '';
  };
  return { asked, said, prompt, say: (line: string) => said.push(line) };
}

describe('new password prompt (issue 25 item 9)', () => {
  it('asks twice, masked, and takes a password typed the same both times', async () => {
    const tty = terminal(['Correct-Horse-9', 'Correct-Horse-9']);
    expect(await askNewPassword('Password for ops@example.com:', tty.prompt, tty.say)).toBe(
      'Correct-Horse-9',
    );
    expect(tty.asked).toEqual([
      { label: 'Password for ops@example.com:', mask: true },
      { label: 'Repeat the password:', mask: true },
    ]);
    expect(tty.said).toEqual([]);
  });

  it('asks again after an empty answer or two that differ', async () => {
    const tty = terminal(['', 'first-try-1', 'frist-try-1', 'second-try-2', 'second-try-2']);
    expect(await askNewPassword(undefined, tty.prompt, tty.say)).toBe('second-try-2');
    expect(tty.said).toEqual(['The password is empty. Try again.', 'The two passwords differ. Try again.']);
  });

  it('gives up after three tries with a hint', async () => {
    const tty = terminal([
      'a-long-one',
      'b-long-one',
      'c-long-one',
      'd-long-one',
      'e-long-one',
      'f-long-one',
    ]);
    const failure = await askNewPassword(undefined, tty.prompt, tty.say).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UserError);
    expect((failure as UserError).hint).toMatch(/--password-stdin/);
    expect(tty.asked).toHaveLength(6);
  });
});
