/**
 * "Add picture" / "Edit picture": upload a new picture (button, or drop a file on the preview; a file
 * dropped or pasted into the text opens the dialog with it already uploading), choose one from the media
 * library, or type an address (one of our /media files or an https:// one), and the required description
 * (alt text). Uploads go through the media library's own upload (same checks, progress and retries), so
 * the picture lands in the library. A library picture brings its alt text along; one that has none gets
 * the text typed here (decision 033: one alt text per picture).
 */
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { MEDIA_ACCEPT, MEDIA_FORMATS_TEXT, MEDIA_UPLOAD_MAX_BYTES, formatBytes, mediaIdOfValue, type MediaItem } from '../../../shared/media-library';
import { checkImageAlt, checkImageSrc } from '../../../shared/rich-text';
import { TextInput } from '../fields';
import { MediaLibraryDialog } from '../MediaLibraryDialog';
import { setMediaAlt } from '../media-client';
import { UploadProgress } from '../UploadProgress';
import { imageFileOf, useImageUpload } from '../use-image-upload';
import { dialogButton, FormDialog } from './FormDialog';

interface Props {
  initial: { src: string; alt: string };
  editing: boolean;
  /** A picture file dropped or pasted into the text: uploaded as the dialog opens. */
  file?: File | undefined;
  onApply(image: { src: string; alt: string }): void;
  onClose(): void;
}

export function ImageDialog({ initial, editing, file, onApply, onClose }: Props) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [src, setSrc] = useState(initial.src);
  const [alt, setAlt] = useState(initial.alt);
  const [errors, setErrors] = useState<{ src?: string | undefined; alt?: string | undefined }>({});
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  /** The library picture chosen or uploaded here, as the library knows it (its alt text). */
  const [picked, setPicked] = useState<MediaItem>();

  const take = (item: MediaItem) => {
    setPicked(item);
    setSrc(item.url);
    setAlt((typed) => item.alt.trim() || typed);
    setErrors({});
    // Next comes the description, unless the picture brought one.
    if (!item.alt.trim()) requestAnimationFrame(() => document.querySelector<HTMLElement>('dialog[open] input[data-picture-alt]')?.focus());
  };
  const upload = useImageUpload(take);
  const uploading = upload.state.kind === 'uploading';

  const started = useRef(false);
  useEffect(() => {
    if (file && !started.current) {
      started.current = true;
      void upload.send(file);
    }
  }, [file, upload]);

  const submit = () => {
    if (uploading) return setErrors((e) => ({ ...e, src: 'Wait for the upload to finish, or cancel it.' }));
    const checkedSrc = checkImageSrc(src);
    const checkedAlt = checkImageAlt(alt);
    setErrors({ src: checkedSrc.ok ? undefined : checkedSrc.message, alt: checkedAlt.ok ? undefined : checkedAlt.message });
    if (!checkedSrc.ok || !checkedAlt.ok) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('dialog[open] [aria-invalid="true"]')?.focus());
      return;
    }
    // The picture's first description becomes its own, offered wherever it is chosen next.
    if (picked && !picked.alt.trim() && mediaIdOfValue(checkedSrc.value) === picked.id) void setMediaAlt(picked.id, checkedAlt.value);
    onApply({ src: checkedSrc.value, alt: checkedAlt.value });
  };

  const drop = {
    onDragOver(e: DragEvent) {
      if (!e.dataTransfer.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave() {
      setDragging(false);
    },
    onDrop(e: DragEvent) {
      e.preventDefault();
      setDragging(false);
      const dropped = imageFileOf(e.dataTransfer.files);
      if (dropped) void upload.send(dropped);
    },
  };

  const failure = upload.state.kind === 'failed' ? `${upload.state.name} was not uploaded. ${upload.state.message}` : undefined;
  const shown = checkImageSrc(src).ok && !errors.src;
  return (
    <FormDialog title={editing ? 'Edit picture' : 'Add picture'} submitLabel={editing ? 'Update picture' : 'Add picture'} onSubmit={submit} onClose={onClose} busy={uploading}>
      <div
        {...drop}
        className={`flex h-32 items-center justify-center overflow-hidden rounded-lg border bg-slate-100 ${dragging ? 'border-brand-600 outline-2 outline-brand-600 outline-dashed' : 'border-slate-200'}`}
        data-picture-drop
      >
        {shown && !uploading ? (
          <img src={src.trim()} alt="" className="h-full w-full object-contain" />
        ) : (
          <span className="px-3 text-center text-xs text-slate-600">{dragging ? 'Drop to upload' : uploading ? 'Uploading…' : 'No picture yet: upload one, drop it here, or choose one'}</span>
        )}
      </div>
      {upload.state.kind === 'uploading' && <UploadProgress state={upload.state} onCancel={upload.cancel} />}
      {failure && (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      )}
      <div className="grid gap-2 sm:grid-cols-2">
        <button type="button" disabled={uploading} onClick={() => fileInput.current?.click()} className={`${dialogButton} bg-brand-600 text-white hover:bg-brand-700 disabled:opacity-60`}>
          Upload a picture
        </button>
        <button type="button" disabled={uploading} onClick={() => setLibraryOpen(true)} className={`${dialogButton} border border-slate-300 hover:bg-slate-50 disabled:opacity-60`}>
          Choose from the media library
        </button>
      </div>
      <input
        ref={fileInput}
        type="file"
        accept={MEDIA_ACCEPT}
        hidden
        tabIndex={-1}
        aria-label="Picture file"
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (chosen) void upload.send(chosen);
        }}
      />
      <TextInput
        data-picture-alt
        label="Description (alt text)"
        value={alt}
        onValue={(v) => {
          setAlt(v);
          setErrors((e) => ({ ...e, alt: undefined }));
        }}
        error={errors.alt}
        hint="What the picture shows, for people who cannot see it."
        maxLength={300}
      />
      <TextInput
        label="Picture address"
        value={src}
        onValue={(v) => {
          setSrc(v);
          setPicked(undefined);
          upload.reset();
          setErrors((e) => ({ ...e, src: undefined }));
        }}
        error={errors.src}
        hint={`Filled in by an upload or the library; or an https:// address. Uploads: ${MEDIA_FORMATS_TEXT}, up to ${formatBytes(MEDIA_UPLOAD_MAX_BYTES)}.`}
        inputMode="url"
        autoComplete="off"
        maxLength={2048}
      />
      <p role="status" className="sr-only">
        {upload.announce}
      </p>
      {libraryOpen && (
        <MediaLibraryDialog
          currentUrl={src.trim()}
          onChoose={(item) => {
            setLibraryOpen(false);
            upload.reset();
            take(item);
          }}
          onClose={() => setLibraryOpen(false)}
        />
      )}
    </FormDialog>
  );
}
