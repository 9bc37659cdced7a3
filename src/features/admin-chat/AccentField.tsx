/**
 * The accent colour: a colour picker and the same value as hex text (either edits it), with the contrast
 * rule told as it is checked on save — white text on the colour needs 4.5:1 (WCAG AA).
 */
import { useId } from 'react';
import { contrastWithWhite } from '../../shared/chat';

interface Props {
  value: string;
  onValue(v: string): void;
  error?: string | undefined;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

export function AccentField({ value, onValue, error }: Props) {
  const id = useId();
  const valid = HEX.test(value);
  const ratio = valid ? contrastWithWhite(value) : undefined;
  const passes = ratio !== undefined && ratio >= 4.5;
  const rule =
    ratio === undefined
      ? 'Six hex digits after #, like #4338ca.'
      : passes
        ? `White text on it has ${ratio.toFixed(1)}:1 contrast: readable (at least 4.5:1 is needed).`
        : `White text on it has only ${ratio.toFixed(1)}:1 contrast: too light (at least 4.5:1 is needed). Choose a darker colour.`;
  const describedBy = `${id}-rule`;
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1.5 text-sm font-medium text-slate-800">Accent colour</legend>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={`${id}-picker`} className="sr-only">
          Accent colour picker
        </label>
        <input
          id={`${id}-picker`}
          type="color"
          value={valid ? value.toLowerCase() : '#000000'}
          onChange={(e) => onValue(e.target.value)}
          aria-describedby={describedBy}
          className="h-11 w-14 flex-none cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
        />
        <label htmlFor={`${id}-hex`} className="sr-only">
          Accent colour (hex)
        </label>
        <input
          id={`${id}-hex`}
          type="text"
          value={value}
          onChange={(e) => onValue(e.target.value.trim())}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          maxLength={7}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="none"
          className="block h-11 w-32 rounded-lg border border-slate-300 bg-white px-3 font-mono text-base text-ink shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600 aria-[invalid=true]:border-red-600 sm:text-sm"
        />
      </div>
      <p id={describedBy} className={`mt-1 ${error ? 'text-sm text-red-700' : passes || ratio === undefined ? 'text-xs text-slate-600' : 'text-xs font-semibold text-red-700'}`}>
        {error ? (ratio !== undefined ? `${error}: this one has ${ratio.toFixed(1)}:1.` : error) : rule}
      </p>
    </fieldset>
  );
}
