import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../components/progress-bar';
import { Question } from '../../components/question';
import { CheckLine, Table } from '../../components/table';
import type { SetupAnswers } from './steps';
import { SetupWizard } from './wizard';

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

let screen: (() => string | undefined) | null = null;

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met; screen:\n${screen?.() ?? ''}`);
    await tick();
  }
}

async function type(stdin: { write(data: string): void }, text: string, masked = false) {
  // A new question's field starts listening after it renders.
  await new Promise((resolve) => setTimeout(resolve, 150));
  // One write, as a paste: keystrokes faster than a render would each see the field's previous value.
  if (text) {
    stdin.write(text);
    await until(() => (screen?.() ?? '').includes(masked ? '*'.repeat(text.length) : text));
  }
  stdin.write('\r');
  await tick();
}

describe('setup wizard', () => {
  it('walks through every question, re-asks after a bad answer, and takes defaults on Enter', async () => {
    let done: SetupAnswers | null = null;
    const { stdin, lastFrame, unmount } = render(
      <SetupWizard defaults={{ dataDir: '/tmp/attestly-wizard' }} onDone={(answers) => (done = answers)} />,
    );
    screen = lastFrame;
    await tick();
    expect(lastFrame()).toMatch(/Data directory:/);
    await type(stdin, '');
    await until(() => /PostgreSQL URL/.test(lastFrame() ?? ''));
    await type(stdin, 'mysql://nope');
    await until(() => /Use a postgres:\/\/ URL/.test(lastFrame() ?? ''));
    await type(stdin, '');
    await until(() => /Public URL:/.test(lastFrame() ?? ''));
    await type(stdin, 'ftp://verify.example.com');
    await until(() => /must use http or https/.test(lastFrame() ?? ''));
    await type(stdin, 'https://verify.example.com/');
    await until(() => /SMTP URL/.test(lastFrame() ?? ''));
    await type(stdin, 'smtp://127.0.0.1:1');
    await until(() => /The SMTP server refused/.test(lastFrame() ?? ''));
    await type(stdin, '');
    await until(() => /Stripe secret key/.test(lastFrame() ?? ''));
    await type(stdin, 'pk_live_wrong', true);
    await until(() => /starts with sk_ or rk_/.test(lastFrame() ?? ''));
    expect(lastFrame()).not.toMatch(/pk_live_wrong/);
    await type(stdin, 'sk_test_123', true);
    await until(() => /webhook signing secret/.test(lastFrame() ?? ''));
    await type(stdin, 'whsec_abc', true);
    await until(() => done !== null);
    expect(done).toEqual({
      dataDir: '/tmp/attestly-wizard',
      databaseUrl: '',
      publicUrl: 'https://verify.example.com/',
      smtpUrl: '',
      stripeSecretKey: 'sk_test_123',
      stripeWebhookSecret: 'whsec_abc',
    });
    // Secrets are never echoed in the summary.
    expect(lastFrame()).not.toMatch(/sk_test_123/);
    unmount();
  });
});

describe('questions', () => {
  it('ends the answer at a pasted Enter instead of keeping it as a character', async () => {
    const answers: string[] = [];
    const { stdin, lastFrame, unmount } = render(
      <Question label="Password:" mask onSubmit={(value) => answers.push(value)} />,
    );
    screen = lastFrame;
    await new Promise((resolve) => setTimeout(resolve, 150));
    // One chunk, as a terminal delivers a paste: the text and its line break.
    stdin.write('s3cret-pass\r');
    await until(() => answers.length === 1);
    expect(answers).toEqual(['s3cret-pass']);
    // The field is empty again and takes the next line on its own.
    stdin.write('second\n');
    await until(() => answers.length === 2);
    expect(answers[1]).toBe('second');
    expect(lastFrame()).not.toMatch(/s3cret/);
    unmount();
  });
});

describe('output components', () => {
  it('draws a progress bar with its percentage and counts', () => {
    const { lastFrame } = render(<ProgressBar label="Restoring" done={250} total={1000} />);
    expect(lastFrame()).toMatch(/Restoring .*25% 250\/1000/);
  });

  it('aligns table columns and says when there is nothing', () => {
    const { lastFrame } = render(
      <Table
        columns={['A', 'LONGER']}
        rows={[
          ['x', 'y'],
          ['wide cell', 'z'],
        ]}
      />,
    );
    const lines = (lastFrame() ?? '').split('\n');
    expect(lines[0]?.indexOf('LONGER')).toBe(lines[2]?.indexOf('z'));
    expect(render(<Table columns={['A']} rows={[]} empty="Nothing here." />).lastFrame()).toMatch(
      /Nothing here\./,
    );
  });

  it('shows a failed check with its fix and a passed one without', () => {
    const failed = render(
      <CheckLine status="fail" name="Master key" detail="readable by others" hint="chmod 600" />,
    );
    expect(failed.lastFrame()).toMatch(/✘ Master key: readable by others\n\s+→ chmod 600/);
    const passed = render(<CheckLine status="pass" name="Database" detail="ok" hint="never shown" />);
    expect(passed.lastFrame()).not.toMatch(/never shown/);
  });
});
