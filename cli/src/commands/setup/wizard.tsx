import { useRef, useState } from 'react';
import { Box, Text } from 'ink';
import Spinner from 'ink-spinner';
import { Question } from '../../components/question';
import {
  checkDatabase,
  checkPublicUrl,
  checkSmtp,
  checkStripeKey,
  checkStripeWebhookSecret,
  type SetupAnswers,
} from './steps';

interface Step {
  key: keyof SetupAnswers;
  label: string;
  hint: string;
  fallback: string;
  mask?: boolean;
  check: (value: string) => Promise<string | null> | string | null;
}

export const SETUP_STEPS = (defaults: Partial<SetupAnswers>): Step[] => [
  {
    key: 'dataDir',
    label: 'Data directory:',
    hint: 'Database (SQLite), master key, config file and mail outbox live here.',
    fallback: defaults.dataDir ?? './data',
    check: (value) => (value.trim() ? null : 'A data directory is required'),
  },
  {
    key: 'databaseUrl',
    label: 'PostgreSQL URL (empty: embedded SQLite):',
    hint: 'postgres://user:password@host:5432/attestly — tested now. SQLite suits one machine.',
    fallback: defaults.databaseUrl ?? '',
    check: checkDatabase,
  },
  {
    key: 'publicUrl',
    label: 'Public URL:',
    hint: 'Where users reach Attestly (mail links, OpenID Connect issuer).',
    fallback: defaults.publicUrl ?? 'http://localhost:8080',
    check: checkPublicUrl,
  },
  {
    key: 'smtpUrl',
    label: 'SMTP URL (empty: write mail to the outbox folder):',
    hint: 'smtp://user:password@mail.example.com:587 — the server is contacted now.',
    fallback: defaults.smtpUrl ?? '',
    check: checkSmtp,
  },
  {
    key: 'stripeSecretKey',
    label: 'Stripe secret key (optional):',
    hint: 'Billing through Stripe Checkout; without it, plans are assigned by administrators.',
    fallback: defaults.stripeSecretKey ?? '',
    mask: true,
    check: checkStripeKey,
  },
  {
    key: 'stripeWebhookSecret',
    label: 'Stripe webhook signing secret (optional):',
    hint: 'whsec_… from the Stripe dashboard; needed together with the secret key.',
    fallback: defaults.stripeWebhookSecret ?? '',
    mask: true,
    check: checkStripeWebhookSecret,
  },
];

/**
 * The interactive part of `attestly setup`: one question at a time, each answer checked (the database and the
 * SMTP server live) before the next; Enter on an empty field takes the default shown.
 */
export function SetupWizard({
  defaults = {},
  onDone,
}: {
  defaults?: Partial<SetupAnswers>;
  onDone: (answers: SetupAnswers) => void;
}) {
  const steps = SETUP_STEPS(defaults);
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Partial<SetupAnswers>>({});
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const busy = useRef(false);
  const step = steps[index];

  const submit = async (raw: string) => {
    if (!step || busy.current) return;
    const value = raw.trim() || step.fallback;
    busy.current = true;
    setChecking(true);
    const problem = await step.check(value);
    busy.current = false;
    setChecking(false);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    const next = { ...answers, [step.key]: value };
    setAnswers(next);
    if (index + 1 < steps.length) setIndex(index + 1);
    else {
      setIndex(steps.length);
      onDone(next as SetupAnswers);
    }
  };

  // The field may call back with a handler from an earlier render: always run the current one.
  const latest = useRef(submit);
  latest.current = submit;

  return (
    <Box flexDirection="column">
      <Text bold>Attestly setup</Text>
      {steps.slice(0, index).map((done) => (
        <Text key={done.key} dimColor>
          {`✔ ${done.label} ${done.mask && answers[done.key] ? '••••' : answers[done.key] || '(none)'}`}
        </Text>
      ))}
      {step ? (
        <Box flexDirection="column" marginTop={1}>
          <Text dimColor>{step.hint}</Text>
          {/* One field for every question (not remounted): it keeps listening to the keyboard between steps. */}
          <Question
            label={step.label}
            mask={step.mask}
            placeholder={step.fallback || undefined}
            error={error}
            onSubmit={(value) => void latest.current(value)}
          />
          {checking ? (
            <Text>
              <Spinner type="dots" /> checking…
            </Text>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
