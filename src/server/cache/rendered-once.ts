/**
 * The markup of a public page's part, kept per content object: the landing page's sections are a function
 * of the content snapshot they show (landing/service.ts), which is read once per change (the cache tags
 * say when, in every process), so they are rendered once per change too, not once per render (issue 21,
 * decision 041). A new snapshot is a new object: its sections render afresh and the old markup goes with
 * the old object (WeakMap). A failed render is not kept.
 */
import { keptPromise } from './kept-promise';

const rendered = new WeakMap<object, Map<string, Promise<string>>>();

/** `render()`'s markup for `part` of `content`, rendered once while `content` is the same object. */
export function renderedOnce(content: object, part: string, render: () => Promise<string>): Promise<string> {
  let parts = rendered.get(content);
  if (!parts) rendered.set(content, (parts = new Map()));
  return keptPromise(parts, part, render);
}
