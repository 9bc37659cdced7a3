/** The admin's sortable lists (SortableList, dnd-kit) driven as people drive them: keyboard and mouse. */
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * dnd-kit's keyboard reorder, as a screen-reader user does it: Space on the handle picks the item up, each
 * arrow moves it one place, Space drops it; every step waits for its announcement (positions 1-based).
 */
export async function moveByKeyboard(page: Page, name: string, from: number, to: number) {
  const announced = (text: string) => expect(page.locator('[id^="DndLiveRegion"]').filter({ hasText: text })).toHaveCount(1);
  await page.getByRole('button', { name: `Move ${name}`, exact: true }).focus();
  // Focusing may scroll the handle into view: a person presses Space once it is still, and dnd-kit
  // measures the list at that moment.
  await scrollSettled(page);
  await page.keyboard.press('Space');
  await announced(`Picked up ${name}, position ${from} of`);
  // dnd-kit announces the pick-up before it has measured the list (a frame or two later); an arrow pressed
  // in between is dropped, as it would be for a person pressing that fast.
  await scrollSettled(page);
  for (let at = from; at !== to; ) {
    at += to < from ? -1 : 1;
    await page.keyboard.press(to < from ? 'ArrowUp' : 'ArrowDown');
    await announced(`${name} moved to position ${at} of`);
    await scrollSettled(page);
  }
  await page.keyboard.press('Space');
  await announced(`${name} dropped at position ${to} of`);
}

/** Resolves once the page has not scrolled for two animation frames. */
export async function scrollSettled(page: Page) {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const y = window.scrollY;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY === y)));
      }),
  );
}

/** A mouse drag from one handle onto another row (dnd-kit needs real pointer moves past 5 px). */
export async function dragTo(page: Page, handle: Locator, target: Locator) {
  await handle.scrollIntoViewIfNeeded();
  await scrollSettled(page);
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 12, { steps: 4 });
  await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2, { steps: 25 });
  await page.mouse.up();
}
