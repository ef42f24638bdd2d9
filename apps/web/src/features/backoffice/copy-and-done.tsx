import { Button } from '../../components/ui/button';
import { toast } from '../../lib/toast';

/** Copy (a secret shown once, with a fallback message when the clipboard is refused) and Done. */
export function CopyAndDone({ value, label, onDone }: { value: string; label: string; onDone(): void }) {
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
