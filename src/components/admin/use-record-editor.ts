/**
 * Everything an admin editor does besides laying out its fields, once for every content type: the values
 * and which of them changed, validation with the type's shared schema, save (Ctrl/Cmd+S too) with retries,
 * "saved by someone else" kept visible with the edits intact, duplicate and delete, a warning before
 * leaving with unsaved changes, and a draft in this browser so an edit made offline (or a closed tab) is
 * not lost.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fieldErrorsByPath } from '../../shared/schemas/catalog';
import type { z } from '../../shared/zod';
import { $connectivity } from '../../stores/connectivity';
import { callAction, IDEMPOTENT_RETRY_MS, OFFLINE_MESSAGE, type CallOutcome } from './call-action';
import { toast } from './toasts';

type Result = Promise<{ data?: unknown; error?: unknown }>;

/** One content type's admin Actions (actions.admin.services and its siblings). */
export interface RecordActions {
  create(input: { fields: unknown }): Result;
  update(input: { id: string; version: string; newId?: string | undefined; fields: unknown }): Result;
  duplicate(input: { id: string }): Result;
  remove(input: { id: string }): Result;
}

export type EditorStatus =
  | { kind: 'idle' | 'saving' | 'saved' }
  | { kind: 'retrying'; message: string }
  | { kind: 'invalid' | 'conflict' | 'offline' | 'error' | 'gone'; message: string };

interface Written {
  id: string;
  snapshot: ({ updatedAt: string } & Record<string, unknown>) | null;
}

export interface EditorOptions<F extends Record<string, unknown>> {
  type: string;
  actions: RecordActions;
  schema: z.ZodType;
  /** /admin/services: the list, and `${adminPath}/{id}` the editor. */
  adminPath: string;
  initial: { id?: string | undefined; version?: string | undefined; fields: F };
  /** The record's name for messages ("service"). */
  label: string;
}

interface Draft<F> {
  fields: F;
  version: string | undefined;
  at: string;
}

const stable = (v: unknown) => JSON.stringify(v);

function readDraft<F>(key: string): Draft<F> | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Draft<F>) : undefined;
  } catch {
    return undefined;
  }
}

function writeDraft(key: string, draft: Draft<unknown> | undefined) {
  try {
    if (draft) localStorage.setItem(key, JSON.stringify(draft));
    else localStorage.removeItem(key);
  } catch {
    // Storage full or disabled: the edit still lives in the page.
  }
}

function focusFirstError() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-editor] [aria-invalid="true"]')?.focus());
}

export function useRecordEditor<F extends Record<string, unknown>>({ type, actions, schema, adminPath, initial, label }: EditorOptions<F>) {
  const [fields, setFields] = useState<F>(initial.fields);
  const [id, setId] = useState(initial.id);
  const [newId, setNewId] = useState(initial.id ?? '');
  const [version, setVersion] = useState(initial.version);
  const [saved, setSaved] = useState(() => stable(initial.fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<EditorStatus>({ kind: 'idle' });
  const [offerDraft, setOfferDraft] = useState<Draft<F>>();
  const draftKey = `agency-admin-draft:${type}:${initial.id ?? 'new'}`;
  const connectivity = useStore($connectivity);
  const saving = useRef(false);

  const dirty = stable(fields) !== saved || (id !== undefined && newId.trim() !== id);

  // A draft left by an earlier visit (closed tab, offline save): offer it back.
  useEffect(() => {
    const draft = readDraft<F>(draftKey);
    if (draft && stable(draft.fields) !== stable(initial.fields)) setOfferDraft(draft);
    else if (draft) writeDraft(draftKey, undefined);
  }, [draftKey, initial.fields]);

  // Keep the unsaved edit in this browser while it is unsaved.
  useEffect(() => {
    if (offerDraft) return;
    const timer = setTimeout(() => writeDraft(draftKey, dirty ? { fields, version, at: new Date().toISOString() } : undefined), 400);
    return () => clearTimeout(timer);
  }, [draftKey, dirty, fields, version, offerDraft]);

  // Leaving with unsaved changes asks first (links, reload, closing the tab).
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const setField = useCallback(<K extends keyof F>(name: K, value: F[K]) => {
    setFields((f) => ({ ...f, [name]: value }));
    setErrors((e) => {
      if (!Object.keys(e).some((k) => k === name || k.startsWith(`${String(name)}.`))) return e;
      return Object.fromEntries(Object.entries(e).filter(([k]) => k !== name && !k.startsWith(`${String(name)}.`)));
    });
  }, []);

  const leaveTo = (url: string) => {
    writeDraft(draftKey, undefined);
    setSaved(stable(fields));
    // After this render (nothing unsaved any more), so the unsaved-changes warning stays quiet.
    setTimeout(() => window.location.assign(url), 0);
  };

  function show(outcome: Exclude<CallOutcome<unknown>, { ok: true }>) {
    if (outcome.kind === 'invalid') {
      setErrors(outcome.fieldErrors);
      setStatus({ kind: 'invalid', message: outcome.message });
      focusFirstError();
    } else if (outcome.kind === 'not-found') setStatus({ kind: 'gone', message: outcome.message });
    else if (outcome.kind === 'forbidden') setStatus({ kind: 'error', message: outcome.message });
    else setStatus({ kind: outcome.kind, message: outcome.message });
    if (outcome.kind !== 'offline') toast('error', outcome.message);
  }

  const save = useCallback(async () => {
    if (saving.current) return;
    const parsed = schema.safeParse(fields);
    if (!parsed.success) {
      setErrors(fieldErrorsByPath(parsed.error.issues));
      setStatus({ kind: 'invalid', message: 'Please correct the highlighted fields.' });
      focusFirstError();
      return;
    }
    saving.current = true;
    setStatus({ kind: 'saving' });
    // No answer at all: say at once that the edit is kept and will be sent, while the retries go on.
    const onRetry = (_attempt: number, _wait: number, reason: 'offline' | 'server') =>
      setStatus(reason === 'offline' ? { kind: 'offline', message: OFFLINE_MESSAGE } : { kind: 'retrying', message: 'The server had a problem: retrying…' });
    const outcome =
      id === undefined
        ? await callAction<Written>(() => actions.create({ fields }), { fieldPrefix: 'fields' })
        : await callAction<Written>(() => actions.update({ id, version: version ?? '', newId: newId.trim() || id, fields }), {
            fieldPrefix: 'fields',
            retryForMs: IDEMPOTENT_RETRY_MS,
            onRetry,
          });
    saving.current = false;
    if (!outcome.ok) return show(outcome);
    setErrors({});
    if (id === undefined) return leaveTo(`${adminPath}/${encodeURIComponent(outcome.data.id)}?notice=created`);
    if (outcome.data.snapshot) setVersion(outcome.data.snapshot.updatedAt);
    setSaved(stable(fields));
    writeDraft(draftKey, undefined);
    if (outcome.data.id !== id) {
      setId(outcome.data.id);
      setNewId(outcome.data.id);
      history.replaceState(history.state, '', `${adminPath}/${encodeURIComponent(outcome.data.id)}`);
    }
    setStatus({ kind: 'saved' });
    toast('success', `Saved. Visitors see the change on their next visit.`);
  }, [actions, adminPath, draftKey, fields, id, newId, schema, version]);

  // Ctrl/Cmd+S saves.
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

  // Back online after an offline save: send it.
  useEffect(() => {
    if (status.kind === 'offline' && connectivity === 'online') void save();
  }, [connectivity, status.kind, save]);

  const actionsForRecord = useMemo(
    () => ({
      async duplicate() {
        if (id === undefined) return;
        const outcome = await callAction<Written>(() => actions.duplicate({ id }));
        if (!outcome.ok) return show(outcome);
        leaveTo(`${adminPath}/${encodeURIComponent(outcome.data.id)}?notice=duplicated`);
      },
      async remove() {
        if (id === undefined) return leaveTo(adminPath);
        const outcome = await callAction(() => actions.remove({ id }), { retryForMs: IDEMPOTENT_RETRY_MS });
        // Already gone (a retried delete, or another admin): the result is the same.
        if (!outcome.ok && outcome.kind !== 'not-found') return show(outcome);
        leaveTo(`${adminPath}?notice=deleted`);
      },
    }),
    [actions, adminPath, id],
  );

  return {
    fields,
    setField,
    errors,
    status,
    dirty,
    id,
    newId,
    setNewId,
    save,
    ...actionsForRecord,
    label,
    draft: offerDraft && {
      at: offerDraft.at,
      /** The record was saved again since the draft was made. */
      stale: offerDraft.version !== initial.version,
      restore() {
        setFields(offerDraft.fields);
        setOfferDraft(undefined);
      },
      discard() {
        writeDraft(draftKey, undefined);
        setOfferDraft(undefined);
      },
    },
  };
}

export type RecordEditor<F extends Record<string, unknown>> = ReturnType<typeof useRecordEditor<F>>;
