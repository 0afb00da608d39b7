import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until no CSS transition is running: axe reads colours as they are drawn, and a button
 * caught half-way from its disabled to its enabled colour fails the contrast check (seen when two
 * shards share the machine and pages paint slower). Animations that loop (a spinner) are not waited for.
 */
export async function transitionsDone(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition)),
  );
}

/** axe's findings on the page once its transitions are done. */
export async function axeResults(page: Page) {
  await transitionsDone(page);
  return new AxeBuilder({ page }).analyze();
}

/** axe finds no serious or critical violation on the page as it stands (the ids and nodes if it does). */
export async function noSeriousAxeViolations(page: Page) {
  const results = await axeResults(page);
  const serious = results.violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}
