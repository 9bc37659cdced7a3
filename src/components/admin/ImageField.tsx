/**
 * An image of a record (a service's picture, an article's featured image…): upload one (button or drop a
 * file on the field) with a progress bar and retries for up to 10 minutes when the network or the server
 * fails, choose one from the media library, type an https:// address by hand, or remove it. The value is
 * the image's URL: `/media/{id}.webp` for the library's images.
 *
 * Fields with an alt text (`alt`, `onAlt`) show it under the picture. It is the picture's one alt text
 * (decision 033): choosing a library picture brings its text, and saving the record stores the text on
 * the picture, for every page that shows it.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import { MEDIA_ACCEPT, MEDIA_FORMATS_TEXT, MEDIA_UPLOAD_MAX_BYTES, formatBytes, mediaIdOfValue, type MediaItem } from '../../shared/media-library';
import { mediaVariantUrl } from '../../shared/media-variants';
import { inputClass } from '../forms/field';
import { Section, TextInput } from './fields';
import { MediaLibraryDialog } from './MediaLibraryDialog';
import { UploadProgress } from './UploadProgress';
import { imageFileOf, useImageUpload } from './use-image-upload';

interface Props {
  label: string;
  value: string;
  onValue(v: string): void;
  error?: string | undefined;
  hint?: string;
  /** The picture's alt text, for fields that have one (every picture but an author's). */
  alt?: string | undefined;
  onAlt?(v: string): void;
  altError?: string | undefined;
  /** Marks the alt text required (it is, whenever there is a picture). */
  altRequired?: boolean;
}

/** A library image's preview is its 400 px variant: no need to download the 1600 px original. */
function previewSrc(value: string): string {
  const id = mediaIdOfValue(value);
  return id ? mediaVariantUrl(id, 400) : value;
}

const button = 'inline-flex h-10 items-center gap-1.5 rounded-lg border px-3 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60';

export function ImageField({ label, value, onValue, error, hint, alt, onAlt, altError, altRequired }: Props) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<MediaItem>();
  const [libraryOpen, setLibraryOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [broken, setBroken] = useState<string>();
  const upload = useImageUpload((item) => use(item));

  const uploading = upload.state.kind === 'uploading';
  // Says which file failed, and that a failed replacement leaves the current image in place.
  const failure = upload.state.kind === 'failed' ? `${upload.state.name} was not uploaded. ${upload.state.message}${value ? ' The current image is kept.' : ''}` : undefined;
  const shownError = failure ?? error;
  const info = chosen && chosen.url === value ? chosen : undefined;

  function use(item: MediaItem) {
    setChosen(item);
    onValue(item.url);
    // The picture's own text comes with it; a text typed before there was any picture is kept for it.
    if (onAlt) onAlt(item.alt || (value ? '' : (alt ?? '')));
  }

  function onFiles(files: FileList | null | undefined) {
    const file = imageFileOf(files);
    if (file) void upload.send(file);
  }

  const dragHandlers = {
    onDragOver(e: DragEvent) {
      if (!e.dataTransfer.types.includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave(e: DragEvent) {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop(e: DragEvent) {
      if (!e.dataTransfer.files.length) return;
      e.preventDefault();
      setDragging(false);
      onFiles(e.dataTransfer.files);
    },
  };

  const showPreview = Boolean(value) && !error && broken !== value;
  const hintText = hint ?? `Upload or drop a ${MEDIA_FORMATS_TEXT} image of up to ${formatBytes(MEDIA_UPLOAD_MAX_BYTES)}, choose one from the library, or paste an https:// address.`;

  const describedBy = [`${id}-hint`, shownError && `${id}-error`].filter(Boolean).join(' ');

  return (
    <div data-image-field {...dragHandlers} className={`@container -m-2 rounded-xl p-2 transition-colors ${dragging ? 'bg-brand-50 outline-2 outline-brand-600 outline-dashed' : ''}`}>
      <label htmlFor={`${id}-url`} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex flex-col gap-3 @md:flex-row @md:items-start">
        <div
          className={`relative flex aspect-video w-full flex-none items-center justify-center overflow-hidden rounded-lg border bg-slate-100 @md:w-44 ${shownError ? 'border-red-300' : 'border-slate-200'}`}
          data-image-preview
        >
          {showPreview ? (
            <img src={previewSrc(value)} alt="" onError={() => setBroken(value)} className="absolute inset-0 h-full w-full object-cover" />
          ) : (
            <span className="px-2 text-center text-xs text-slate-600">{value && broken === value ? 'Cannot show this image' : dragging ? 'Drop to upload' : 'No image'}</span>
          )}
        </div>
        <div className="min-w-0 flex-1 space-y-2">
          <input
            id={`${id}-url`}
            value={value}
            onChange={(e) => {
              upload.reset();
              onValue(e.target.value.trim());
            }}
            aria-invalid={shownError ? true : undefined}
            aria-describedby={describedBy}
            inputMode="url"
            placeholder="/media/… or https://…"
            disabled={uploading}
            className={`${inputClass} border-slate-300`}
          />
          {info && (
            <p className="text-xs text-slate-600">
              {info.originalName || 'Image'} · {info.width}×{info.height} · {formatBytes(info.size)}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <button type="button" disabled={uploading} onClick={() => fileInput.current?.click()} className={`${button} border-brand-600 bg-brand-600 text-white hover:bg-brand-700`}>
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
                <path d="M10 2.5 5.5 7h3v6h3V7h3L10 2.5ZM4 15h12v2.5H4V15Z" />
              </svg>
              {value ? 'Replace image' : 'Upload image'}
              <span className="sr-only"> ({label})</span>
            </button>
            <button type="button" disabled={uploading} onClick={() => setLibraryOpen(true)} className={`${button} border-slate-300 bg-white text-ink hover:bg-slate-50`}>
              Choose from library<span className="sr-only"> ({label})</span>
            </button>
            {value && !uploading && (
              <button
                type="button"
                onClick={() => {
                  onValue('');
                  onAlt?.('');
                  upload.reset();
                  upload.setAnnounce(`${label} removed.`);
                }}
                className={`${button} border-transparent text-red-700 hover:bg-red-50`}
              >
                Remove<span className="sr-only"> ({label})</span>
              </button>
            )}
          </div>
          <input
            ref={fileInput}
            type="file"
            accept={MEDIA_ACCEPT}
            hidden
            tabIndex={-1}
            onChange={(e) => {
              onFiles(e.currentTarget.files);
              e.currentTarget.value = ''; // choosing the same file again still uploads it
            }}
          />
          {upload.state.kind === 'uploading' && <UploadProgress state={upload.state} onCancel={upload.cancel} />}
        </div>
      </div>
      {shownError ? (
        <p id={`${id}-error`} className="mt-2 text-sm text-red-700">
          {shownError}
        </p>
      ) : null}
      <p id={`${id}-hint`} className={`mt-1 text-xs text-slate-600 ${shownError ? 'sr-only' : ''}`}>
        {value && broken === value ? 'This address does not show an image. Check it, or upload the picture instead.' : hintText}
      </p>
      <p role="status" className="sr-only">
        {upload.announce}
      </p>
      {onAlt && value && (
        <TextInput
          className="mt-3"
          label={
            <>
              Alt text{altRequired ? <span className="text-red-700"> *</span> : <span className="font-normal text-slate-600"> (optional)</span>}
            </>
          }
          value={alt ?? ''}
          onValue={onAlt}
          error={altError}
          required={altRequired}
          maxLength={600}
          hint={
            mediaIdOfValue(value)
              ? 'What the picture shows, for people who cannot see it. It is the picture’s own text: saving changes it on every page that shows this picture.'
              : 'What the picture shows, for people who cannot see it (screen readers, search engines).'
          }
        />
      )}
      {libraryOpen && (
        <MediaLibraryDialog
          currentUrl={value}
          onChoose={(item) => {
            setLibraryOpen(false);
            upload.reset();
            use(item);
            upload.setAnnounce(`Chose ${item.alt || item.originalName || 'an image'} from the library.`);
          }}
          onClose={() => setLibraryOpen(false)}
        />
      )}
    </div>
  );
}

/** A record's "Picture" section (services, packages): its picture and the alt text it brings (decision 033). */
export function PictureSection({
  fields,
  errors,
  setField,
}: {
  fields: { picture: string; pictureAlt: string };
  errors: Partial<Record<'picture' | 'pictureAlt', string>>;
  setField(key: 'picture' | 'pictureAlt', value: string): void;
}) {
  return (
    <Section title="Picture">
      <ImageField
        label="Picture URL"
        value={fields.picture}
        onValue={(v) => setField('picture', v)}
        error={errors.picture}
        alt={fields.pictureAlt}
        onAlt={(v) => setField('pictureAlt', v)}
        altError={errors.pictureAlt}
        altRequired
      />
    </Section>
  );
}
