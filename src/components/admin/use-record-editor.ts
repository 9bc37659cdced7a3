/**
 * Everything an admin editor of a content record does besides laying out its fields, once for every
 * content type: the values and which of them changed, validation with the type's shared schema, create or
 * save (Ctrl/Cmd+S too) with retries, "saved by someone else" kept visible with the edits intact,
 * duplicate and delete, a warning before leaving with unsaved changes, and a draft in this browser so an
 * edit made offline (or a closed tab) is not lost. The behaviours shared with the site-wide documents'
 * editors (use-document-editor.ts) live in editor-core.ts.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { fieldErrorsByPath } from '../../shared/schemas/catalog';
import type { z } from '../../shared/zod';
import { callAction, IDEMPOTENT_RETRY_MS, type CallOutcome } from './call-action';
import {
  focusFirstError,
  reportFailure,
  retryStatus,
  SAVED_MESSAGE,
  stableJson as stable,
  useBrowserDraft,
  useResendWhenOnline,
  useSaveShortcut,
  useUnsavedWarning,
  withoutErrorsAt,
  writeDraft,
  type EditorStatus,
} from './editor-core';
import { toast } from './toasts';

export type { EditorStatus } from './editor-core';

type Result = Promise<{ data?: unknown; error?: unknown }>;

/** One content type's admin Actions (actions.admin.services and its siblings). */
export interface RecordActions {
  create(input: { fields: unknown }): Result;
  update(input: { id: string; version: string; newId?: string | undefined; fields: unknown }): Result;
  duplicate(input: { id: string }): Result;
  remove(input: { id: string }): Result;
}

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

export function useRecordEditor<F extends Record<string, unknown>>({ type, actions, schema, adminPath, initial, label }: EditorOptions<F>) {
  const [fields, setFields] = useState<F>(initial.fields);
  const [id, setId] = useState(initial.id);
  const [newId, setNewId] = useState(initial.id ?? '');
  const [version, setVersion] = useState(initial.version);
  const [saved, setSaved] = useState(() => stable(initial.fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<EditorStatus>({ kind: 'idle' });
  const draftKey = `${type}:${initial.id ?? 'new'}`;
  const saving = useRef(false);
  /** Set when the editor itself navigates away (after create, duplicate, delete): no unsaved-changes prompt. */
  const leaving = useRef(false);

  const dirty = stable(fields) !== saved || (id !== undefined && newId.trim() !== id);
  const draft = useBrowserDraft({ key: draftKey, fields, version, dirty, initial, restore: setFields });
  useUnsavedWarning(dirty, leaving);

  const setField = useCallback(<K extends keyof F>(name: K, value: F[K]) => {
    setFields((f) => ({ ...f, [name]: value }));
    setErrors((e) => withoutErrorsAt(e, String(name)));
  }, []);

  const leaveTo = (url: string) => {
    // The warning's listener is removed only after React re-renders, which may come after the navigation
    // starts: without this flag the browser asked "Leave site?" right after Create, Duplicate or Delete.
    leaving.current = true;
    writeDraft(draftKey, undefined);
    setSaved(stable(fields));
    setTimeout(() => window.location.assign(url), 0);
  };

  const show = (outcome: Exclude<CallOutcome<unknown>, { ok: true }>) => reportFailure(outcome, setErrors, setStatus);

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
    const onRetry = (_attempt: number, _wait: number, reason: 'offline' | 'server') => setStatus(retryStatus(reason));
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
    toast('success', SAVED_MESSAGE);
  }, [actions, adminPath, draftKey, fields, id, newId, schema, version]);

  useSaveShortcut(save);
  useResendWhenOnline(status, save);

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
    draft,
    /** Not created yet: the save button creates it. */
    isNew: id === undefined,
  };
}

export type RecordEditor<F extends Record<string, unknown>> = ReturnType<typeof useRecordEditor<F>>;
