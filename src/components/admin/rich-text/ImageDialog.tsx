/**
 * "Add picture" / "Edit picture": an address (one of our /media files or an https:// one) and the
 * required description (alt text); "Choose from the media library" opens the library over it, and a
 * picked image brings its stored alt text along.
 */
import { useState } from 'react';
import { checkImageAlt, checkImageSrc } from '../../../shared/rich-text';
import { TextInput } from '../fields';
import { MediaLibraryDialog } from '../MediaLibraryDialog';
import { dialogButton, FormDialog } from './FormDialog';

interface Props {
  initial: { src: string; alt: string };
  editing: boolean;
  onApply(image: { src: string; alt: string }): void;
  onClose(): void;
}

export function ImageDialog({ initial, editing, onApply, onClose }: Props) {
  const [src, setSrc] = useState(initial.src);
  const [alt, setAlt] = useState(initial.alt);
  const [errors, setErrors] = useState<{ src?: string; alt?: string }>({});
  const [libraryOpen, setLibraryOpen] = useState(false);

  const submit = () => {
    const checkedSrc = checkImageSrc(src);
    const checkedAlt = checkImageAlt(alt);
    setErrors({ src: checkedSrc.ok ? undefined : checkedSrc.message, alt: checkedAlt.ok ? undefined : checkedAlt.message });
    if (!checkedSrc.ok || !checkedAlt.ok) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('dialog[open] [aria-invalid="true"]')?.focus());
      return;
    }
    onApply({ src: checkedSrc.value, alt: checkedAlt.value });
  };

  const shown = checkImageSrc(src).ok && !errors.src;
  return (
    <FormDialog title={editing ? 'Edit picture' : 'Add picture'} submitLabel={editing ? 'Update picture' : 'Add picture'} onSubmit={submit} onClose={onClose}>
      <button type="button" onClick={() => setLibraryOpen(true)} className={`${dialogButton} w-full border border-slate-300 hover:bg-slate-50`}>
        Choose from the media library
      </button>
      <TextInput
        label="Picture address"
        value={src}
        onValue={(v) => {
          setSrc(v);
          setErrors((e) => ({ ...e, src: undefined }));
        }}
        error={errors.src}
        hint="A /media/… file from the media library, or an https:// address."
        inputMode="url"
        autoComplete="off"
        maxLength={2048}
      />
      <TextInput
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
      <div className="flex h-28 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-100">
        {shown ? <img src={src.trim()} alt="" className="h-full w-full object-contain" /> : <span className="text-xs text-slate-600">No picture yet</span>}
      </div>
      {libraryOpen && (
        <MediaLibraryDialog
          currentUrl={src.trim()}
          onChoose={(item) => {
            setLibraryOpen(false);
            setSrc(item.url);
            if (item.alt.trim()) setAlt(item.alt);
            setErrors({});
          }}
          onClose={() => setLibraryOpen(false)}
        />
      )}
    </FormDialog>
  );
}
