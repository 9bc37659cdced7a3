/**
 * An editor of one site-wide document (the site texts, the landing page layout, one SEO entry): the same
 * behaviours as a record's editor (editor-core.ts: draft in this browser, unsaved-changes warning,
 * Ctrl/Cmd+S, offline save sent when back online, someone else's save told with the edits kept), for a
 * document that always exists and is saved whole with the version the editor opened.
 */
import { useCallback, useRef, useState } from 'react';
import { documentFieldErrors } from '../../shared/site-documents';
import type { z } from '../../shared/zod';
import { callAction, IDEMPOTENT_RETRY_MS } from './call-action';
import {
  focusFirstError,
  reportFailure,
  retryStatus,
  SAVED_MESSAGE,
  stableJson,
  useBrowserDraft,
  useResendWhenOnline,
  useSaveShortcut,
  useUnsavedWarning,
  withoutErrorsAt,
  writeDraft,
  type EditorStatus,
} from './editor-core';
import { toast } from './toasts';

type Path = readonly (string | number)[];

export interface DocumentEditorOptions<F> {
  /** Unique per document, for its draft in this browser ("site-content", "seo:/services"). */
  draftKey: string;
  /** The shared schema the server validates with. */
  schema: z.ZodType;
  initial: { version: string; fields: F };
  /** The document's name for messages ("site texts"). */
  label: string;
  /** The Action call that saves the fields on top of `version`; it answers the new version. */
  send(fields: F, version: string): Promise<{ data?: unknown; error?: unknown }>;
  /** The leading segment of the Action's field paths ("content" in content.hero.headline). */
  fieldPrefix: string;
  /** A toast after a save other than the usual one. */
  savedMessage?: string;
  /** Told the values once the server has stored them (a page showing them elsewhere updates). */
  onSaved?(fields: F): void;
}

/** `value` at `path` in `target`, copying only what lies on the way. */
function setIn<T>(target: T, path: Path, value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path;
  const copy = (Array.isArray(target) ? [...target] : { ...(target as object) }) as Record<string | number, unknown>;
  copy[head!] = setIn(copy[head!], rest, value);
  return copy as T;
}

export function useDocumentEditor<F>({ draftKey, schema, initial, label, send, fieldPrefix, savedMessage = SAVED_MESSAGE, onSaved }: DocumentEditorOptions<F>) {
  const [fields, setFields] = useState<F>(initial.fields);
  const [version, setVersion] = useState(initial.version);
  const [saved, setSaved] = useState(() => stableJson(initial.fields));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<EditorStatus>({ kind: 'idle' });
  const saving = useRef(false);

  const dirty = stableJson(fields) !== saved;
  const draft = useBrowserDraft({ key: draftKey, fields, version, dirty, initial, restore: setFields });
  useUnsavedWarning(dirty);

  /** Sets one value by its path (["hero", "rotatingPhrases"]) and clears the errors at and under it. */
  const setAt = useCallback((path: Path, value: unknown) => {
    setFields((f) => setIn(f, path, value));
    setErrors((e) => withoutErrorsAt(e, path.join('.')));
  }, []);

  const replaceAll = useCallback((next: F) => {
    setFields(next);
    setErrors({});
  }, []);

  const submit = useCallback(
    async (values: F) => {
      if (saving.current) return;
      const parsed = schema.safeParse(values);
      if (!parsed.success) {
        setErrors(documentFieldErrors(parsed.error.issues));
        setStatus({ kind: 'invalid', message: 'Please correct the highlighted fields.' });
        focusFirstError();
        return;
      }
      saving.current = true;
      setStatus({ kind: 'saving' });
      const outcome = await callAction<{ version: string }>(() => send(values, version), {
        fieldPrefix,
        retryForMs: IDEMPOTENT_RETRY_MS,
        onRetry: (_attempt, _wait, reason) => setStatus(retryStatus(reason)),
      });
      saving.current = false;
      if (!outcome.ok) return reportFailure(outcome, setErrors, setStatus);
      setErrors({});
      setVersion(outcome.data.version);
      setSaved(stableJson(values));
      writeDraft(draftKey, undefined);
      setStatus({ kind: 'saved' });
      toast('success', savedMessage);
      onSaved?.(values);
    },
    [draftKey, fieldPrefix, savedMessage, schema, send, version, onSaved],
  );

  const save = useCallback(() => submit(fields), [submit, fields]);

  /** Replaces every value and saves them at once (a confirmed reset). */
  const saveValues = useCallback(
    (values: F) => {
      replaceAll(values);
      return submit(values);
    },
    [replaceAll, submit],
  );

  useSaveShortcut(save);
  useResendWhenOnline(status, save);

  return { fields, setAt, replaceAll, errors, status, dirty, version, save, saveValues, draft, label, isNew: false as const };
}

export type DocumentEditor<F> = ReturnType<typeof useDocumentEditor<F>>;
