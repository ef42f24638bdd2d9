/**
 * What verification.e2e.test.ts reads and drives on the /verification screen and the dashboard: the camera
 * overlay's texts, the server's answers behind what the screen shows, and full-page screenshots.
 */
import {
  CHALLENGE_PROMPTS,
  ageVerificationResultSchema,
  livenessChallengeSchema,
  type AgeVerificationResult,
  type LivenessChallenge,
} from '@attestly/contracts';
import type { Page } from 'playwright-core';
import * as v from 'valibot';
import { expect } from 'vitest';
import { screenshot } from './support';

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** A full-page screenshot from the top, so the sticky header is drawn where it belongs. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/**
 * Records every text the camera overlay shows (countdown digits, challenge prompts) from inside the page, so a
 * slow test process cannot miss a one-second state.
 */
export async function watchOverlay(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = window as unknown as { overlayTexts: string[]; overlayObserver?: MutationObserver };
    state.overlayObserver?.disconnect();
    state.overlayTexts = [];
    const note = () => {
      for (const element of document.querySelectorAll('p[aria-live]')) {
        const text = (element.textContent ?? '').trim();
        if (text && state.overlayTexts[state.overlayTexts.length - 1] !== text) state.overlayTexts.push(text);
      }
    };
    state.overlayObserver = new MutationObserver(note);
    state.overlayObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/**
 * Presses "Stop recording" from inside the page once it shows a challenge prompt **and** the recorder has handed over
 * its first non-empty chunk, so the recording stops early and is never empty however slow the machine is. A fixed
 * delay after the prompt was not enough: on a loaded machine the recorder had encoded nothing 300 ms after the first
 * prompt, the empty recording failed ("Recording failed"), and the screen showed no Re-record. The recorder hands over
 * a chunk each second (use-camera-capture.ts, `chunkMs`), and the last step's window starts at least 1.7 s into the
 * recording (challenge.ts: lead-in 0.3-0.7 s, windows ±25 % around an even split), so the first chunk comes before
 * it. The page's MediaRecorder is wrapped to see its chunks, and given back once Stop is pressed.
 */
export async function stopAtFirstPrompt(page: Page): Promise<void> {
  await page.evaluate((prompts) => {
    const Native = window.MediaRecorder;
    let recorded = false;
    const stopWhenReady = () => {
      const shown = [...document.querySelectorAll('p[aria-live]')].some((element) =>
        prompts.includes((element.textContent ?? '').trim()),
      );
      const stop = [...document.querySelectorAll('button')].find(
        (button) => (button.textContent ?? '').trim() === 'Stop recording',
      );
      if (!recorded || !shown || !stop) return;
      observer.disconnect();
      window.MediaRecorder = Native;
      // After the screen's own handler has kept the chunk, not in the middle of the event that brings it.
      setTimeout(() => stop.click(), 0);
    };
    window.MediaRecorder = class extends Native {
      constructor(stream: MediaStream, options?: MediaRecorderOptions) {
        super(stream, options);
        this.addEventListener('dataavailable', (event) => {
          if (event.data.size > 0 && !recorded) {
            recorded = true;
            stopWhenReady();
          }
        });
      }
    };
    const observer = new MutationObserver(stopWhenReady);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, Object.values(CHALLENGE_PROMPTS));
}

export const overlayTexts = (page: Page) =>
  page.evaluate(() => (window as unknown as { overlayTexts: string[] }).overlayTexts);

/** The liveness challenge the server issues for the next recording (issue 23). */
export async function challengeIssued(page: Page): Promise<LivenessChallenge> {
  const response = await page.waitForResponse((r) => r.url().endsWith('/api/v1/age-verification/challenges'));
  expect(response.status()).toBe(201);
  const body = (await response.json()) as LivenessChallenge;
  expect(v.safeParse(livenessChallengeSchema, body).issues).toBeUndefined();
  return body;
}

/** Clicks "Verify my age" and returns what the server answered, for comparing with what the screen shows. */
export async function verifyAndRead(page: Page): Promise<AgeVerificationResult> {
  const answer = page.waitForResponse(
    (response) => response.url().endsWith('/api/v1/age-verification/verify-age'),
    { timeout: 45_000 },
  );
  await page.getByRole('button', { name: 'Verify my age' }).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  const body = (await response.json()) as AgeVerificationResult;
  // The API reference describes this answer; it must be what the server really sends.
  expect(v.safeParse(ageVerificationResultSchema, body).issues).toBeUndefined();
  return body;
}

export const resultPanel = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Age verified|Age not confirmed|Not verified/ });

/** The dashboard's view of the user's verification: banner, stat card, overall label and the age row. */
export async function dashboardSummary(page: Page) {
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
  const facts = page.locator('dt', { hasText: 'Verified facts' }).locator('..');
  const ageRow = page.getByRole('listitem').filter({ has: page.getByText('Age', { exact: true }) });
  return {
    banner: await page.getByText('Complete your verification').isVisible(),
    verifyNowHref: await page.getByRole('link', { name: 'Verify now' }).getAttribute('href'),
    facts: (await facts.locator('dd').allInnerTexts()).join(' | '),
    age: (await ageRow.innerText()).replace(/\s+/g, ' '),
  };
}
