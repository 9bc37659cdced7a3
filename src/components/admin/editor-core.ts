/**
 * The behaviours every admin editor shares, whatever it edits (a content record: use-record-editor.ts; a
 * site-wide document: use-document-editor.ts): the save state, failures shown where they belong, a draft
 * of unsaved changes kept in this browser (closed tab, offline save) and offered back, the warning before
 * leaving with unsaved changes, Ctrl/Cmd+S, and sending an offline save again once back online.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { $connectivity } from '../../stores/connectivity';
import { OFFLINE_MESSAGE, type CallOutcome } from './call-action';
import { toast } from './toasts';

export type EditorStatus =
  | { kind: 'idle' | 'saving' | 'saved' }
  | { kind: 'retrying'; message: string }
  | { kind: 'invalid' | 'conflict' | 'offline' | 'error' | 'gone'; message: string };

/** Comparable form of an editor's values (they are plain JSON). */
export const stableJson = (v: unknown) => JSON.stringify(v);

interface Draft<F> {
  fields: F;
  version: string | undefined;
  at: string;
}

const DRAFT_PREFIX = 'agency-admin-draft:';

function readDraft<F>(key: string): Draft<F> | undefined {
  try {
    const raw = localStorage.getItem(DRAFT_PREFIX + key);
    return raw ? (JSON.parse(raw) as Draft<F>) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores (or, with undefined, forgets) the draft under `key`. */
export function writeDraft(key: string, draft: Draft<unknown> | undefined) {
  try {
    if (draft) localStorage.setItem(DRAFT_PREFIX + key, JSON.stringify(draft));
    else localStorage.removeItem(DRAFT_PREFIX + key);
  } catch {
    // Storage full or disabled: the edit still lives in the page.
  }
}

/** What the editor's banner offers: changes from an earlier visit that were never saved. */
export interface DraftOffer {
  at: string;
  /** The document was saved again since the draft was made. */
  stale: boolean;
  restore(): void;
  discard(): void;
}

interface DraftOptions<F> {
  /** Unique per edited thing ("service:lead-outreach", "site-content"). */
  key: string;
  fields: F;
  version: string | undefined;
  dirty: boolean;
  /** What the page opened with: a draft equal to it is not worth offering. */
  initial: { fields: F; version?: string | undefined };
  restore(fields: F): void;
}

/**
 * Keeps the unsaved edit in this browser while it is unsaved, and offers back a draft left by an earlier
 * visit. While the offer stands, nothing overwrites the stored draft.
 */
export function useBrowserDraft<F>({ key, fields, version, dirty, initial, restore }: DraftOptions<F>): DraftOffer | undefined {
  const [offer, setOffer] = useState<Draft<F>>();

  useEffect(() => {
    const draft = readDraft<F>(key);
    if (draft && stableJson(draft.fields) !== stableJson(initial.fields)) setOffer(draft);
    else if (draft) writeDraft(key, undefined);
  }, [key, initial.fields]);

  // Typing is written after a pause; leaving the page within that pause writes it at once, or the last
  // keystrokes before a navigation would never reach the stored draft.
  const save = () => writeDraft(key, dirty ? { fields, version, at: new Date().toISOString() } : undefined);
  const pending = useRef<(() => void) | undefined>(undefined);
  useEffect(() => {
    if (offer) return;
    pending.current = save;
    const timer = setTimeout(() => {
      pending.current = undefined;
      save();
    }, 400);
    return () => clearTimeout(timer);
  }, [key, dirty, fields, version, offer]);
  useEffect(() => {
    const flush = () => {
      pending.current?.();
      pending.current = undefined;
    };
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, []);

  return (
    offer && {
      at: offer.at,
      stale: offer.version !== initial.version,
      restore() {
        restore(offer.fields);
        setOffer(undefined);
      },
      discard() {
        writeDraft(key, undefined);
        setOffer(undefined);
      },
    }
  );
}

/** Leaving with unsaved changes asks first (links, reload, closing the tab). */
export function useUnsavedWarning(dirty: boolean, leaving?: { readonly current: boolean }) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      // The editor navigating by itself (after create, duplicate, delete): the listener is removed only
      // after React re-renders, which may come after the navigation starts.
      if (leaving?.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

/** Ctrl/Cmd+S saves. */
export function useSaveShortcut(save: () => unknown) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);
}

/** Back online after an offline save: send it. */
export function useResendWhenOnline(status: EditorStatus, save: () => unknown) {
  const connectivity = useStore($connectivity);
  useEffect(() => {
    if (status.kind === 'offline' && connectivity === 'online') void save();
  }, [connectivity, status.kind, save]);
}

export function focusFirstError() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-editor] [aria-invalid="true"]')?.focus());
}

/** A failed call, shown: field errors beside their fields, the rest in the banner and a toast (offline: the banner only). */
export function reportFailure(
  outcome: Exclude<CallOutcome<unknown>, { ok: true }>,
  setErrors: (errors: Record<string, string>) => void,
  setStatus: (status: EditorStatus) => void,
) {
  if (outcome.kind === 'invalid') {
    setErrors(outcome.fieldErrors);
    setStatus({ kind: 'invalid', message: outcome.message });
    focusFirstError();
  } else if (outcome.kind === 'not-found') setStatus({ kind: 'gone', message: outcome.message });
  else if (outcome.kind === 'forbidden') setStatus({ kind: 'error', message: outcome.message });
  else setStatus({ kind: outcome.kind, message: outcome.message });
  if (outcome.kind !== 'offline') toast('error', outcome.message);
}

/** Field errors without those at `path` or under it ("hero" clears "hero.headline" too). */
export function withoutErrorsAt(errors: Record<string, string>, path: string): Record<string, string> {
  const hit = (k: string) => k === path || k.startsWith(`${path}.`);
  if (!Object.keys(errors).some(hit)) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([k]) => !hit(k)));
}

/**
 * The status while a save is retried. No answer at all: say at once that the edit is kept and will be
 * sent, while the retries go on; a server error: say it is retried.
 */
export function retryStatus(reason: 'offline' | 'server'): EditorStatus {
  return reason === 'offline' ? { kind: 'offline', message: OFFLINE_MESSAGE } : { kind: 'retrying', message: 'The server had a problem: retrying…' };
}

export const SAVED_MESSAGE = 'Saved. Visitors see the change on their next visit.';
