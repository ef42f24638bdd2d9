import {
  API_BASE_PATH,
  isErrorEnvelope,
  type AgeThreshold,
  type AgeVerificationResult,
  type CardCheckStart,
  type DocumentAnalysis,
  type DocumentType,
  type LivenessChallenge,
  type VerificationStatusAnswer,
  type VerificationSummary,
} from '@attestly/contracts';
import { tokens } from '../auth/token-storage';
import { interactionHeaders } from '../lib/oauth-return';
import { ApiError, apiFetch } from './client';
import { getQueryOptions } from './get-query';

export interface VerificationAnswer {
  message: string;
  verification_id: string;
  status: VerificationSummary['status'];
  verification: VerificationSummary;
}

export interface DocumentAnswer extends VerificationAnswer {
  needs_manual_review: boolean;
  document_analysis: DocumentAnalysis;
}

export const verificationKeys = {
  all: ['verification'] as const,
  status: () => [...verificationKeys.all, 'status'] as const,
};

export const verificationStatusQueryOptions = () =>
  getQueryOptions<VerificationStatusAnswer>(verificationKeys.status(), '/users/verification-status', 'user');

/**
 * Multipart upload with progress (fetch cannot report upload progress). Errors become the same ApiError as
 * apiFetch; a 401 goes through apiFetch's handling by re-asking the profile, which signs the user out once.
 */
function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE_PATH}${path}`);
    xhr.setRequestHeader('Accept', 'application/json');
    const token = tokens.token('user');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(interactionHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () =>
      reject(
        new ApiError(0, 'network_error', 'Cannot reach the server. Check your connection and try again.'),
      );
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        payload = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(payload as T);
        return;
      }
      if (xhr.status === 401) void apiFetch('/users/profile', { auth: 'user' }).catch(() => undefined);
      reject(
        isErrorEnvelope(payload)
          ? new ApiError(
              xhr.status,
              payload.code,
              payload.detail,
              payload.errors ?? [],
              payload.request_id ?? null,
            )
          : new ApiError(xhr.status, 'http_error', `HTTP error! status: ${xhr.status}`),
      );
    };
    xhr.send(form);
  });
}

/** spec 01 §7 "User" and "Age verification by camera". */
export const verificationApi = {
  /** The card check, step 1: a Stripe SetupIntent that Stripe.js confirms in the page (the card goes to Stripe). */
  startCardCheck: () =>
    apiFetch<CardCheckStart>('/users/verify/credit-card/setup', { method: 'POST', auth: 'user' }),
  /** Step 2: the server reads the SetupIntent back from Stripe and decides. */
  finishCardCheck: (setupIntentId: string) =>
    apiFetch<VerificationAnswer>('/users/verify/credit-card', {
      method: 'POST',
      body: { setup_intent_id: setupIntentId },
      auth: 'user',
      headers: interactionHeaders(),
    }),
  location: () =>
    apiFetch<VerificationAnswer>('/users/verify/location', {
      method: 'POST',
      auth: 'user',
      headers: interactionHeaders(),
    }),
  document: (
    file: File,
    fields: { document_type: DocumentType; verification_type: 'age' | 'identity' },
    onProgress?: (fraction: number) => void,
    /** The live video recorded in the same flow (binds the document to its holder) and the challenge it answers. */
    selfie?: { video: Blob; challengeId: string } | null,
  ) => {
    const form = new FormData();
    form.append('document_type', fields.document_type);
    form.append('verification_type', fields.verification_type);
    form.append('file', file);
    if (selfie) {
      form.append('challenge_id', selfie.challengeId);
      form.append(
        'selfie_video',
        selfie.video,
        selfie.video.type.includes('mp4') ? 'selfie.mp4' : 'selfie.webm',
      );
    }
    return uploadWithProgress<DocumentAnswer>('/users/verify/document', form, onProgress);
  },
  /** Starts a video check: the single-use liveness challenge the video must answer within a minute (issue 23). */
  challenge: () =>
    apiFetch<LivenessChallenge>('/age-verification/challenges', { method: 'POST', auth: 'user' }),
  verifyAge: (
    media: Blob,
    mediaType: 'image' | 'video',
    threshold: AgeThreshold = 18,
    /** Required with a video: the challenge it answers. */
    challengeId?: string,
  ) => {
    const form = new FormData();
    form.append('media_type', mediaType);
    form.append('age_threshold', String(threshold));
    if (challengeId) form.append('challenge_id', challengeId);
    form.append(
      'media_file',
      media,
      mediaType === 'image'
        ? 'verification.jpg'
        : media.type.includes('mp4')
          ? 'verification.mp4'
          : 'verification.webm',
    );
    return apiFetch<AgeVerificationResult>('/age-verification/verify-age', {
      method: 'POST',
      body: form,
      headers: interactionHeaders(),
      auth: 'user',
    });
  },
};
