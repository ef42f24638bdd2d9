import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { DOCUMENT_TYPES, VERIFICATION_LIMITS, type DocumentType } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { verificationApi, type DocumentAnswer } from '../../api/verification';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/field';
import { FacialCapture } from './facial-capture';
import { documentReviewPoints } from './document-result';
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

type Step = 'document' | 'video' | 'send' | 'sent';

/**
 * Document then selfie video as one flow (issue 14): 1. the document page; 2. a 5-second live video with the head
 * turn and blink, recorded on the same screen; 3. both are sent together. The server reads the MRZ, finds the
 * portrait, checks the video's liveness and compares the faces; anything it cannot confirm goes to a reviewer.
 */
export function DocumentForm({ onDone }: { onDone: () => void }) {
  const fileId = useId();
  const [step, setStep] = useState<Step>('document');
  const [file, setFile] = useState<File | null>(null);
  const [video, setVideo] = useState<{ video: Blob; challengeId: string } | null>(null);
  const [documentType, setDocumentType] = useState<DocumentType>('passport');
  const [purpose, setPurpose] = useState<'age' | 'identity'>('age');
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<DocumentAnswer | null>(null);
  const upload = useMutation({
    mutationFn: ({ chosen, selfie }: { chosen: File; selfie: { video: Blob; challengeId: string } }) =>
      verificationApi.document(
        chosen,
        { document_type: documentType, verification_type: purpose },
        setProgress,
        selfie,
      ),
    onSuccess: (answer) => {
      toast.success('Document uploaded successfully!');
      setResult(answer);
      // Sent: the send step (and its button) gives way to the outcome, so nothing invites sending the same twice.
      setStep('sent');
      onDone();
    },
    onError: (error) => toast.error(errorMessage(error, 'Document upload failed')),
    onSettled: () => setProgress(null),
  });

  const next = (event: React.FormEvent) => {
    event.preventDefault();
    const found = documentFileProblem(file);
    setProblem(found);
    if (!found) {
      setResult(null);
      setStep('video');
    }
  };
  const send = () => {
    if (!file || !video) return;
    setResult(null);
    setProgress(0);
    upload.mutate({ chosen: file, selfie: video });
  };
  const restart = () => {
    setStep('document');
    setVideo(null);
    setResult(null);
  };
  const current: Exclude<Step, 'sent'> = step === 'sent' ? 'send' : step;
  const inReview = result ? result.needs_manual_review || result.status === 'pending' : false;
  const reviewPoints =
    result && inReview ? documentReviewPoints(result.document_analysis.holder_binding) : [];

  return (
    <div className="space-y-4">
      <ol className="flex flex-wrap gap-2 text-xs font-semibold" aria-label="Steps">
        {(
          [
            ['document', '1. Your document'],
            ['video', '2. A 5-second video of you'],
            ['send', '3. Send'],
          ] as const
        ).map(([key, label]) => (
          <li
            key={key}
            aria-current={current === key ? 'step' : undefined}
            className={`rounded-full px-3 py-1 ${current === key ? 'bg-indigo-600 text-white' : 'bg-slate-100 text-slate-800'}`}
          >
            {label}
          </li>
        ))}
      </ol>

      {step === 'document' ? (
        <form className="space-y-4" noValidate onSubmit={next}>
          <p className="text-sm text-slate-700">
            Upload a photo or scan of the page with your photo and the two lines of letters and chevrons
            (&lt;&lt;&lt;) at the bottom. JPEG, PNG, WebP or PDF, less than 10MB. Next you record a short
            video so that we can check the document is yours. Both are read on this server and deleted right
            away unless a reviewer has to look at them.
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
              <option value="identity">My identity</option>
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
          <Button type="submit">Next: record a short video</Button>
        </form>
      ) : null}

      {step === 'video' ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            Record a 5-second video of your face: we compare it with the photo on your document and check that
            a live person is in front of the camera.
          </p>
          <FacialCapture
            onDone={() => undefined}
            selfie={{
              onRecorded: (recorded, challengeId) => {
                setVideo({ video: recorded, challengeId });
                setStep('send');
              },
            }}
          />
          <Button variant="secondary" onClick={restart}>
            Back to the document
          </Button>
        </div>
      ) : null}

      {step === 'send' ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            Ready to send: {file?.name ?? 'your document'} and your 5-second video.
          </p>
          {progress !== null ? (
            <div>
              <progress
                className="h-2 w-full"
                max={100}
                value={Math.round(progress * 100)}
                aria-label="Upload progress"
              />
              <p className="text-xs text-slate-700">
                {progress < 1
                  ? `Uploading… ${Math.round(progress * 100)}%`
                  : 'Reading the document and comparing your video…'}
              </p>
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button onClick={send} busy={upload.isPending}>
              Send document and video
            </Button>
            <Button variant="secondary" onClick={() => setStep('video')} disabled={upload.isPending}>
              Re-record the video
            </Button>
            <Button variant="secondary" onClick={restart} disabled={upload.isPending}>
              Start again
            </Button>
          </div>
        </div>
      ) : null}

      {step === 'sent' && result ? (
        <ResultPanel
          status={inReview ? 'pending' : result.status}
          title={
            inReview
              ? 'In review'
              : result.status === 'approved'
                ? 'Document approved'
                : 'Document not accepted'
          }
          message={result.message}
        >
          {result.document_analysis.calculated_age !== null ? (
            <p className="mt-1 text-xs">
              Read from the document: {result.document_analysis.country_detected ?? 'unknown country'}, valid
              until {result.document_analysis.expiry_date ?? 'unknown'}.
            </p>
          ) : null}
          {inReview ? (
            <div className="mt-2 text-xs">
              <p className="font-semibold">What a reviewer will check:</p>
              <ul className="list-disc pl-5">
                {reviewPoints.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
              <p className="mt-2">
                Nothing more is needed from you: we e-mail you when a reviewer has decided, and the result
                also shows under Recent verifications.
              </p>
            </div>
          ) : null}
          {result.status === 'rejected' ? (
            <div className="mt-3">
              <Button variant="secondary" onClick={restart}>
                Start again with another document
              </Button>
            </div>
          ) : null}
        </ResultPanel>
      ) : null}
    </div>
  );
}
