/**
 * An image reference: one of our /media files or an http(s) URL, with a preview. The schema checks the
 * value; an empty value means "no image".
 */
import { TextInput } from './fields';

interface Props {
  label: string;
  value: string;
  onValue(v: string): void;
  error?: string | undefined;
  hint?: string;
}

export function ImageField({ label, value, onValue, error, hint }: Props) {
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_7rem] sm:items-start">
      <TextInput label={label} value={value} onValue={onValue} error={error} hint={hint ?? 'A /media/… image from the media library, or an https:// address.'} inputMode="url" />
      <div className="flex h-20 w-28 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-slate-100 sm:mt-7">
        {value && !error ? <img src={value} alt="" className="h-full w-full object-cover" /> : <span className="text-xs text-slate-600">No image</span>}
      </div>
    </div>
  );
}
