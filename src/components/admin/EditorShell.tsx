/**
 * The frame of every admin editor (a content record's, or a site-wide document's): a sticky bar with the
 * save state and the actions (save, and for records duplicate, delete with confirmation; view on the
 * site), the banners that must not be missed (someone else saved, offline, a draft from an earlier
 * visit), and the form itself.
 */
import { useEffect, useRef, type ReactNode, type SubmitEvent } from 'react';
import { Alert } from '../forms/field';
import { useKeepTypedValues } from '../forms/keep-typed-values';
import { useConfirm } from './ConfirmDialog';
import type { DraftOffer, EditorStatus } from './editor-core';
import { DEFAULT_TIME_ZONE, formatInZone } from '../../shared/dates';

/** What the frame needs from an editor (useRecordEditor's and useDocumentEditor's results both fit). */
export interface ShellEditor {
  status: EditorStatus;
  dirty: boolean;
  /** The edited thing's name for buttons and messages ("service", "site texts"). */
  label: string;
  /** A record not created yet: the button creates it. Documents always exist. */
  isNew: boolean;
  save(): Promise<void> | void;
  draft?: DraftOffer | undefined;
  /** Records only: their saved id and the actions on them. */
  id?: string | undefined;
  duplicate?(): Promise<void>;
  remove?(): Promise<void>;
}

interface Props {
  editor: ShellEditor;
  /** The public page of the saved record or document, when it has one. */
  viewHref?: string | undefined;
  /** What deleting removes from the site, for the confirmation. */
  deleteNote?: ReactNode;
  /** One document of the site (a policy page): saved, never duplicated or deleted. */
  singleDocument?: boolean;
  /** More buttons for the bar (before Save). */
  barActions?: ReactNode;
  children: ReactNode;
}

const button = 'inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-semibold';

function stateText(editor: Props['editor']): string {
  const { status, dirty } = editor;
  if (status.kind === 'saving') return 'Saving…';
  if (status.kind === 'retrying') return status.message;
  if (dirty) return 'Unsaved changes';
  if (status.kind === 'saved') return 'All changes saved';
  return editor.isNew ? 'Not saved yet' : 'No changes';
}

export function EditorShell({ editor, viewHref, deleteNote, singleDocument = false, barActions, children }: Props) {
  const [confirm, dialog] = useConfirm();
  const { status } = editor;
  const busy = status.kind === 'saving' || status.kind === 'retrying';
  const formRef = useRef<HTMLFormElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  useKeepTypedValues(formRef);

  // Where the sticky bar ends on screen (it wraps on a phone): what sticks below it (a long text's
  // toolbar) reads --editor-bar-bottom.
  useEffect(() => {
    const form = formRef.current;
    const bar = barRef.current;
    if (!form || !bar) return;
    const measure = () => form.style.setProperty('--editor-bar-bottom', `${(Number.parseFloat(getComputedStyle(bar).top) || 0) + bar.offsetHeight}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);

  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    void editor.save();
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate data-editor className="space-y-4">
      <div ref={barRef} className="sticky top-[calc(6.25rem+2px)] z-20 -mx-4 flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50/95 px-4 py-2 backdrop-blur lg:top-14 lg:-mx-8 lg:px-8">
        <p className="mr-auto text-sm text-slate-600" aria-live="polite" data-save-state>
          {stateText(editor)}
        </p>
        {viewHref && !editor.isNew && (
          <a href={viewHref} target="_blank" rel="noopener" className={`${button} text-slate-700 hover:bg-slate-200/60`}>
            View on site<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
        {!editor.isNew && !singleDocument && editor.duplicate && editor.remove && (
          <>
            <button type="button" onClick={() => void editor.duplicate?.()} disabled={busy} className={`${button} border border-slate-300 bg-white text-ink hover:bg-slate-50`}>
              Duplicate
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={async () => {
                if (await confirm(`Delete this ${editor.label}?`, deleteNote ?? `It disappears from the site at once. You can restore it from the activity log.`)) void editor.remove?.();
              }}
              className={`${button} border border-red-200 bg-white text-red-700 hover:bg-red-50`}
            >
              Delete
            </button>
          </>
        )}
        {barActions}
        <button type="submit" disabled={busy || (!editor.dirty && !editor.isNew)} className={`${button} bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-400`}>
          {editor.isNew ? `Create ${editor.label}` : 'Save'}
          <kbd className="ml-2 hidden rounded border border-white/50 px-1.5 text-xs font-normal lg:inline">Ctrl S</kbd>
        </button>
      </div>

      {editor.draft && (
        <Alert tone="info" testId="draft-offer">
          <p>
            You have changes from {formatInZone(editor.draft.at, document.documentElement.dataset.timeZone ?? DEFAULT_TIME_ZONE)} that were not saved
            {editor.draft.stale ? `, and this ${editor.label} was saved again since: check before you save` : ''}.
          </p>
          <div className="mt-2 flex gap-2">
            <button type="button" onClick={editor.draft.restore} className="font-semibold underline">
              Restore them
            </button>
            <button type="button" onClick={editor.draft.discard} className="font-semibold underline">
              Discard
            </button>
          </div>
        </Alert>
      )}
      {(status.kind === 'conflict' || status.kind === 'offline' || status.kind === 'gone' || status.kind === 'error' || status.kind === 'invalid') && (
        <Alert tone={status.kind === 'offline' ? 'info' : 'error'} testId={`editor-${status.kind}`}>
          {status.message}
          {status.kind === 'conflict' && (
            <button type="button" onClick={() => window.open(window.location.href, '_blank', 'noopener')} className="ml-2 font-semibold underline">
              Open the saved version in a new tab
            </button>
          )}
        </Alert>
      )}
      {children}
      {dialog}
    </form>
  );
}
