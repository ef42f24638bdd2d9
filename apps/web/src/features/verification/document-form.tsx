import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { DOCUMENT_TYPES, VERIFICATION_LIMITS, type DocumentType } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { verificationApi, type DocumentAnswer } from '../../api/verification';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/field';
import { ResultPanel } from './result-panel';

const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'];
const DOCUMENT_LABELS: Record<DocumentType, string> = {
  passport: 'Passport',
  id_card: 'National identity card',
  drivers_license: "Driver's licence",
  residence_permit: 'Residence permit',
  other: 'Other document',
};

/** The checks the browser can make before uploading (spec 01 §5 "Document upload"); the server sniffs the content. */
export function documentFileProblem(file: File | null): string | null {
  if (!file) return VERIFICATION_LIMITS.documentRequiredMessage;
  if (file.size >= VERIFICATION_LIMITS.documentBytes) return VERIFICATION_LIMITS.documentTooLargeMessage;
  if (file.type && !ACCEPTED.includes(file.type)) return VERIFICATION_LIMITS.documentTypeMessage;
  return null;
}

/** Document upload with a progress bar; the MRZ is read on the server and unclear scans go to a reviewer. */
export function DocumentForm({ onDone }: { onDone: () => void }) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [documentType, setDocumentType] = useState<DocumentType>('passport');
  const [purpose, setPurpose] = useState<'age' | 'identity'>('age');
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<DocumentAnswer | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) =>
      verificationApi.document(
        chosen,
        { document_type: documentType, verification_type: purpose },
        setProgress,
      ),
    onSuccess: (answer) => {
      toast.success('Document uploaded successfully!');
      setResult(answer);
      onDone();
    },
    onError: (error) => toast.error(errorMessage(error, 'Document upload failed')),
    onSettled: () => setProgress(null),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = documentFileProblem(file);
    setProblem(found);
    if (!found && file) {
      setResult(null);
      setProgress(0);
      upload.mutate(file);
    }
  };

  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      <p className="text-sm text-slate-700">
        Upload a photo or scan of the page with the two lines of letters and chevrons (&lt;&lt;&lt;) at the
        bottom. JPEG, PNG, WebP or PDF, less than 10MB. The image is read on this server and deleted right
        away unless a reviewer has to look at it.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Document type"
          value={documentType}
          onChange={(e) => setDocumentType(e.target.value as DocumentType)}
        >
          {DOCUMENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {DOCUMENT_LABELS[type]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="What to verify"
          value={purpose}
          onChange={(e) => setPurpose(e.target.value as 'age' | 'identity')}
        >
          <option value="age">My age</option>
          <option value="identity">My identity (checked by a reviewer)</option>
        </SelectField>
      </div>
      <div className="space-y-1">
        <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
          Document file
        </label>
        <input
          id={fileId}
          type="file"
          accept={ACCEPTED.join(',')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${fileId}-error` : undefined}
          className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:font-semibold file:text-indigo-800"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setProblem(null);
          }}
        />
        {problem ? (
          <p id={`${fileId}-error`} className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
      </div>
      {progress !== null ? (
        <div>
          <progress
            className="h-2 w-full"
            max={100}
            value={Math.round(progress * 100)}
            aria-label="Upload progress"
          />
          <p className="text-xs text-slate-700">
            {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Reading the document…'}
          </p>
        </div>
      ) : null}
      <Button type="submit" busy={upload.isPending}>
        Upload document
      </Button>
      {result ? (
        <ResultPanel
          status={result.status}
          title={result.needs_manual_review ? 'Sent for review' : `Document ${result.status}`}
          message={result.message}
        >
          {result.document_analysis.calculated_age !== null ? (
            <p className="mt-1 text-xs">
              Read from the document: {result.document_analysis.country_detected ?? 'unknown country'}, valid
              until {result.document_analysis.expiry_date ?? 'unknown'}.
            </p>
          ) : null}
        </ResultPanel>
      ) : null}
    </form>
  );
}
