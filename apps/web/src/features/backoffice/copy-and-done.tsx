import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';

/** Copy (a secret shown once, with a fallback message when the clipboard is refused) and Done. */
function CopyAndDone({ value, label, onDone }: { value: string; label: string; onDone(): void }) {
  return (
    <div className="flex justify-end gap-2">
      <Button
        variant="secondary"
        onClick={() =>
          void navigator.clipboard
            .writeText(value)
            .then(() => toast.success('Copied'))
            .catch(() => toast.error('Copy failed: select the text and copy it by hand'))
        }
      >
        {label}
      </Button>
      <Button onClick={onDone}>Done</Button>
    </div>
  );
}

/**
 * A secret the server answers with once (a first password, an API key, a client secret): what it is for
 * (`children`), the secret itself, then Copy and Done.
 */
export function SecretShownOnce({
  value,
  testId,
  copyLabel,
  onDone,
  children,
}: {
  value: string;
  testId?: string;
  copyLabel: string;
  onDone(): void;
  children?: ReactNode;
}) {
  return (
    <div className="space-y-4">
      {children}
      <code
        data-testid={testId}
        className="block rounded bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
      >
        {value}
      </code>
      <CopyAndDone value={value} label={copyLabel} onDone={onDone} />
    </div>
  );
}

/**
 * The first password of an account an administrator created with `show_password`: where and with what the holder
 * signs in (`signsIn`), then the password, shown once, to hand over.
 */
export function FirstPasswordShownOnce({
  password,
  testId,
  signsIn,
  onDone,
}: {
  password: string;
  testId: string;
  signsIn: string;
  onDone(): void;
}) {
  return (
    <SecretShownOnce value={password} testId={testId} copyLabel="Copy password" onDone={onDone}>
      <p className="text-sm text-slate-800">
        {signsIn} and this first password. Copy it now and hand it over securely: it is shown only once.
      </p>
    </SecretShownOnce>
  );
}
