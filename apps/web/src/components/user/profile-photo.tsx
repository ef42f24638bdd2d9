import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { LIMITS, type UserProfile } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { userKeys, usersApi } from '../../api/users';
import { toast } from '../../lib/toast';
import { Button } from '../ui/button';

const ACCEPTED = ['image/jpeg', 'image/png', 'image/gif'];

/** Checked here for a quick answer; the server checks again and sniffs the bytes. */
export function photoProblem(file: File): string | null {
  if (!ACCEPTED.includes(file.type)) return 'Profile photo must be a JPG, GIF or PNG image';
  if (file.size > LIMITS.profilePhotoBytes) return 'Profile photo must be 1MB or smaller';
  return null;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

/** Profile photo with a preview of the chosen file before it is uploaded. */
export function ProfilePhoto({ profile }: { profile: UserProfile }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const upload = useMutation({
    mutationFn: (photo: File) => usersApi.uploadPhoto(photo),
    onSuccess: (updated) => {
      queryClient.setQueryData(userKeys.profile(), updated);
      setFile(null);
      if (input.current) input.current.value = '';
      toast.success('Profile photo updated');
    },
    onError: (error) => toast.error(errorMessage(error, 'Failed to upload photo')),
  });

  const shown = preview ?? profile.profile_image_url;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div className="size-24 shrink-0 overflow-hidden rounded-full bg-indigo-100">
        {shown ? (
          <img
            src={shown}
            alt={preview ? 'Preview of the new profile photo' : 'Your profile photo'}
            className="size-full object-cover"
          />
        ) : (
          <span
            className="flex size-full items-center justify-center text-2xl font-bold text-indigo-800"
            aria-hidden="true"
          >
            {initials(profile.full_name)}
          </span>
        )}
      </div>
      <div className="space-y-2">
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
          Profile photo
        </label>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept={ACCEPTED.join(',')}
          aria-describedby={`${inputId}-hint`}
          className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-200"
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            const reason = chosen ? photoProblem(chosen) : null;
            setProblem(reason);
            setFile(reason ? null : chosen);
          }}
        />
        <p id={`${inputId}-hint`} className="text-xs text-slate-700">
          1MB max (JPG, GIF or PNG).
        </p>
        {problem ? (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
        {file ? (
          <div className="flex gap-2">
            <Button busy={upload.isPending} onClick={() => upload.mutate(file)}>
              Upload photo
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setFile(null);
                if (input.current) input.current.value = '';
              }}
            >
              Cancel
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
