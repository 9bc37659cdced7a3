/**
 * Admin toasts: "Saved", "Deleted", "Could not save". Any island pushes one; the layout's <Toasts> shows
 * them (one store, shared by every island on the page). A page reached by a redirect after a write gets
 * its toast from `?notice=` (see NOTICES), which the view then removes from the address bar.
 */
import { atom } from 'nanostores';

export type ToastTone = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  tone: ToastTone;
  text: string;
}

export const $toasts = atom<Toast[]>([]);

let nextId = 1;

export function dismissToast(id: number) {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}

/** Shows a toast; success and info ones leave by themselves, errors stay until dismissed. */
export function toast(tone: ToastTone, text: string, ms = 5000) {
  const id = nextId++;
  $toasts.set([...$toasts.get().slice(-3), { id, tone, text }]);
  if (tone !== 'error') setTimeout(() => dismissToast(id), ms);
}

/** What `?notice=` may say (nothing else from a URL is ever shown). */
export const NOTICES = {
  created: 'Created.',
  deleted: 'Deleted.',
  duplicated: 'Duplicated: this is the copy.',
  defaultsRestored: 'The ten default FAQs are back as FAQs you can edit, reorder and delete.',
  reverted: 'Reverted: the site is back to how it was before that change.',
  merged: 'Merged: the other address is now this person’s too.',
  erased: 'Erased: nothing of that person is left but a one-way hash of their address, so they are never mailed again.',
} as const;

export type Notice = keyof typeof NOTICES;
