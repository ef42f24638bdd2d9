/**
 * What every page screenshots.e2e.test.ts visits must hold at every width (one h1, one main landmark, no sideways
 * scrolling, no uncaught or console error), checked and captured at 1280 px and then 360 px.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { concrete, pathOf, type Visit } from './screenshot-visits';
import { MOBILE, screenshot } from './support';

export const DESKTOP = { width: 1280, height: 800 };
const NARROW = { width: MOBILE.width, height: MOBILE.height };

/**
 * Console errors that are expected, each with its pattern and reason (Chromium logs every failed HTTP response as
 * a console error). None today: no page in the states visited here logs one, so any console error fails.
 */
const EXPECTED_CONSOLE_ERRORS: Array<{ pattern: RegExp; reason: string }> = [];

interface Problems {
  pageErrors: string[];
  consoleErrors: string[];
}

const watched = new WeakMap<Page, Problems>();

export function watch(page: Page): Problems {
  const problems: Problems = { pageErrors: [], consoleErrors: [] };
  page.on('pageerror', (error) => problems.pageErrors.push(`${error.name}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = `${message.text()} (${message.location().url})`;
    if (!EXPECTED_CONSOLE_ERRORS.some((expected) => expected.pattern.test(text))) {
      problems.consoleErrors.push(text);
    }
  });
  watched.set(page, problems);
  return problems;
}

const artifactName = (visit: Visit) =>
  visit.name ?? (concrete(visit.route).replace(/^\//, '').replace(/\//g, '-') || 'landing');

/**
 * What makes the page wider than the window, for the failure message: the innermost elements past the right edge
 * that no scrolling or clipping box inside the window holds.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}` +
      `${typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}` +
      ` "${(element.textContent ?? '').trim().slice(0, 60)}"`;
    const past = (element: Element) => element.getBoundingClientRect().right > window.innerWidth + 0.5;
    const held = (element: Element) => {
      // An absolutely positioned element is clipped only by a box at or above its containing block.
      let positioned = ['absolute', 'fixed'].includes(getComputedStyle(element).position);
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (positioned && style.position === 'static') continue;
        if (style.overflowX !== 'visible' && !past(box)) return true;
        positioned = ['absolute', 'fixed'].includes(style.position);
      }
      return false;
    };
    const sticking = [...document.body.querySelectorAll('*')].filter(
      (element) => past(element) && !held(element),
    );
    return sticking
      .filter((element) => !sticking.some((other) => other !== element && element.contains(other)))
      .slice(0, 5)
      .map(describe);
  });
}

async function checkAndCapture(page: Page, visit: Visit, width: number): Promise<void> {
  const label = `${visit.route} at ${width} px`;
  const heading = page.locator('h1').filter({ hasText: visit.heading });
  await heading.first().waitFor();
  // The page's data is in: no loading spinner, no request in flight.
  await page.waitForFunction(() => document.querySelector('.animate-spin') === null);
  if (width === DESKTOP.width) await page.waitForLoadState('networkidle');
  const expectedPath = visit.path ?? concrete(visit.route);
  if (typeof expectedPath === 'string') expect(pathOf(page), label).toBe(expectedPath);
  else expect(pathOf(page), label).toMatch(expectedPath);

  const layout = await page.evaluate(() => ({
    scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
    innerWidth: window.innerWidth,
    h1: document.querySelectorAll('h1').length,
    main: document.querySelectorAll('main, [role="main"]').length,
  }));
  expect(layout.innerWidth, label).toBe(width);
  if (layout.scrollWidth > layout.innerWidth) {
    expect(
      layout.scrollWidth,
      `horizontal scrolling on ${label}; past the right edge: ${(await overflowing(page)).join(' | ')}`,
    ).toBeLessThanOrEqual(layout.innerWidth);
  }
  expect(layout.h1, `h1 elements on ${label}`).toBe(1);
  expect(layout.main, `main landmarks on ${label}`).toBe(1);

  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `pages/${artifactName(visit)}-${width}`);
}

/** Opens the page at 1280 px, then narrows the same page to 360 px (one-time links cannot be opened twice). */
export async function capture(page: Page, visit: Visit): Promise<void> {
  const problems = watched.get(page) as Problems;
  problems.pageErrors.length = 0;
  problems.consoleErrors.length = 0;
  await page.setViewportSize(DESKTOP);
  await (visit.open ?? ((target: Page) => target.goto(concrete(visit.route)).then(() => undefined)))(page);
  await checkAndCapture(page, visit, DESKTOP.width);
  await page.setViewportSize(NARROW);
  await checkAndCapture(page, visit, NARROW.width);
  expect(problems.pageErrors, `uncaught errors on ${visit.route}`).toEqual([]);
  expect(problems.consoleErrors, `console errors on ${visit.route}`).toEqual([]);
}
