/** An upload in progress (useImageUpload's state): the file, how far it is, a retry note and Cancel. */
import { ProgressBar } from './ProgressBar';
import type { UploadState } from './use-image-upload';

export function UploadProgress({ state, onCancel }: { state: Extract<UploadState, { kind: 'uploading' }>; onCancel(): void }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3" data-upload-progress>
      <div className="mb-2 flex items-center justify-between gap-2 text-sm">
        <span className="min-w-0 truncate text-slate-800">{state.attempt ? 'Retrying upload…' : `Uploading ${state.name}…`}</span>
        <span className="flex-none text-slate-600" aria-hidden="true">
          {state.percent}%
        </span>
      </div>
      <ProgressBar value={state.percent} label={`Uploading ${state.name}`} />
      {state.attempt && (
        <p className="mt-2 text-xs text-slate-600">
          The connection or the server failed, so {state.name} is being sent again (attempt {state.attempt}). Uploads keep trying for up to 10 minutes; you can keep
          editing.
        </p>
      )}
      <button type="button" onClick={onCancel} className="mt-2 text-sm font-semibold text-slate-700 underline hover:text-ink">
        Cancel upload
      </button>
    </div>
  );
}
