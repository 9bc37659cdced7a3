/**
 * The frame of every admin editor: a sticky bar with the save state and the record's actions (save,
 * duplicate, delete with confirmation, view on the site), the banners that must not be missed (someone
 * else saved, offline, a draft from an earlier visit), and the form itself.
 */
import type { ReactNode, SubmitEvent } from 'react';
import { Alert } from '../forms/field';
import { useConfirm } from './ConfirmDialog';
import type { RecordEditor } from './use-record-editor';

interface Props {
  editor: RecordEditor<Record<string, unknown>>;
  /** The public page of the saved record, when it has one. */
  viewHref?: string | undefined;
  /** What deleting removes from the site, for the confirmation. */
  deleteNote?: ReactNode;
  children: ReactNode;
}

const button = 'inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-semibold';

function stateText(editor: Props['editor']): string {
  const { status, dirty } = editor;
  if (status.kind === 'saving') return 'Saving…';
  if (status.kind === 'retrying') return status.message;
  if (dirty) return 'Unsaved changes';
  if (status.kind === 'saved') return 'All changes saved';
  return editor.id === undefined ? 'Not saved yet' : 'No changes';
}

export function EditorShell({ editor, viewHref, deleteNote, children }: Props) {
  const [confirm, dialog] = useConfirm();
  const { status } = editor;
  const busy = status.kind === 'saving' || status.kind === 'retrying';

  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    void editor.save();
  };

  return (
    <form onSubmit={onSubmit} noValidate data-editor className="space-y-4">
      <div className="sticky top-14 z-20 -mx-4 flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50/95 px-4 py-2 backdrop-blur lg:top-14 lg:-mx-8 lg:px-8">
        <p className="mr-auto text-sm text-slate-600" aria-live="polite" data-save-state>
          {stateText(editor)}
        </p>
        {viewHref && editor.id !== undefined && (
          <a href={viewHref} target="_blank" rel="noopener" className={`${button} text-slate-700 hover:bg-slate-200/60`}>
            View on site<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
        {editor.id !== undefined && (
          <>
            <button type="button" onClick={() => void editor.duplicate()} disabled={busy} className={`${button} border border-slate-300 bg-white text-ink hover:bg-slate-50`}>
              Duplicate
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={async () => {
                if (await confirm(`Delete this ${editor.label}?`, deleteNote ?? `It disappears from the site at once. You can restore it from the activity log.`)) void editor.remove();
              }}
              className={`${button} border border-red-200 bg-white text-red-700 hover:bg-red-50`}
            >
              Delete
            </button>
          </>
        )}
        <button type="submit" disabled={busy || (!editor.dirty && editor.id !== undefined)} className={`${button} bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-400`}>
          {editor.id === undefined ? `Create ${editor.label}` : 'Save'}
          <kbd className="ml-2 hidden rounded border border-white/50 px-1.5 text-xs font-normal lg:inline">Ctrl S</kbd>
        </button>
      </div>

      {editor.draft && (
        <Alert tone="info" testId="draft-offer">
          <p>
            You have changes from {new Date(editor.draft.at).toLocaleString()} that were not saved
            {editor.draft.stale ? ', and this record was saved again since: check before you save' : ''}.
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
