import { useId, useState } from 'react';
import type { LivenessChallenge } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { verificationApi } from '../../api/verification';
import { Button } from '../../components/ui/button';

/** Seconds as the prompts list shows them: one decimal. */
const at = (seconds: number) => `${seconds.toFixed(1)} s`;

/**
 * A video recorded without this screen's camera (issue 23): the same single-use challenge as the camera, shown
 * before recording as a timed list, because nothing can prompt during a recording made elsewhere. The file then
 * travels with that challenge's id and is checked the same way: the motions in that order, inside their windows.
 */
export function VideoUpload({
  onChosen,
  busy,
}: {
  /** The chosen file and the challenge it answers. */
  onChosen: (video: File, challengeId: string) => void;
  busy?: boolean;
}) {
  const inputId = useId();
  const [challenge, setChallenge] = useState<LivenessChallenge | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const ask = async () => {
    setProblem(null);
    setFile(null);
    try {
      setChallenge(await verificationApi.challenge());
    } catch (reason) {
      setProblem(errorMessage(reason, 'Failed to start the video check.'));
    }
  };

  if (!challenge) {
    return (
      <div className="space-y-2">
        <Button variant="secondary" onClick={() => void ask()}>
          No camera here? Upload a video instead
        </Button>
        {problem ? (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <section className="space-y-3 rounded-lg border border-slate-200 p-4" aria-label="Upload a video">
      <p className="text-sm text-slate-800">
        Record a {challenge.recording_seconds}-second video of your face with your phone or another camera,
        doing exactly this, in this order, counting from the start of the recording:
      </p>
      <ol className="list-decimal space-y-1 pl-6 text-sm text-slate-900" aria-label="Challenge prompts">
        {challenge.steps.map((step) => (
          <li key={`${step.action}-${step.start_seconds}`}>
            <span className="font-semibold">{step.prompt}</span> between {at(step.start_seconds)} and{' '}
            {at(step.end_seconds)}
          </li>
        ))}
      </ol>
      <p className="text-xs text-slate-600">
        These prompts are for one upload only and expire at{' '}
        {new Date(challenge.expires_at).toLocaleTimeString()}. Left and right are your own left and right.
      </p>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        Your video (WebM or MP4, at most {challenge.recording_seconds} seconds)
      </label>
      <input
        id={inputId}
        type="file"
        accept="video/webm,video/mp4"
        onChange={(event) => setFile(event.target.files?.[0] ?? null)}
      />
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => file && onChosen(file, challenge.id)} disabled={!file || busy} busy={busy}>
          Send this video
        </Button>
        <Button variant="secondary" onClick={() => void ask()} disabled={busy}>
          New prompts
        </Button>
      </div>
    </section>
  );
}
