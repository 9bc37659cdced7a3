/**
 * "Add picture" / "Edit picture": an address (one of our /media files or an https:// one) and the
 * required description (alt text); "Choose from the media library" when the page offers a picker.
 */
import { useState } from 'react';
import { checkImageAlt, checkImageSrc } from '../../../shared/rich-text';
import { TextInput } from '../fields';
import { dialogButton, FormDialog } from './FormDialog';

export type PickImage = () => Promise<{ src: string; alt: string } | undefined>;

interface Props {
  initial: { src: string; alt: string };
  editing: boolean;
  pickImage?: PickImage | undefined;
  onApply(image: { src: string; alt: string }): void;
  onClose(): void;
}

export function ImageDialog({ initial, editing, pickImage, onApply, onClose }: Props) {
  const [src, setSrc] = useState(initial.src);
  const [alt, setAlt] = useState(initial.alt);
  const [errors, setErrors] = useState<{ src?: string; alt?: string }>({});
  const [picking, setPicking] = useState(false);

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

  const pick = async () => {
    if (!pickImage) return;
    setPicking(true);
    try {
      const chosen = await pickImage();
      if (chosen) {
        setSrc(chosen.src);
        if (chosen.alt.trim()) setAlt(chosen.alt);
        setErrors({});
      }
    } finally {
      setPicking(false);
    }
  };

  const shown = checkImageSrc(src).ok && !errors.src;
  return (
    <FormDialog title={editing ? 'Edit picture' : 'Add picture'} submitLabel={editing ? 'Update picture' : 'Add picture'} onSubmit={submit} onClose={onClose}>
      {pickImage && (
        <button type="button" onClick={() => void pick()} disabled={picking} className={`${dialogButton} w-full border border-slate-300 hover:bg-slate-50 disabled:opacity-60`}>
          {picking ? 'Choosing…' : 'Choose from the media library'}
        </button>
      )}
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
        autoFocus={!pickImage}
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
    </FormDialog>
  );
}
