/**
 * A thin bar for a share of 0–100: an upload's progress (role progressbar) or how full the library is
 * (role meter). Drawn as SVG geometry rather than a `style` width, so server-rendered bars obey the
 * Content-Security-Policy (no inline styles) and look the same before and after hydration.
 */
interface Props {
  /** 0–100. */
  value: number;
  label?: string | undefined;
  labelledBy?: string | undefined;
  role?: 'progressbar' | 'meter';
  valueText?: string | undefined;
  tone?: 'brand' | 'neutral' | 'danger';
}

const FILL = { brand: 'fill-brand-600', neutral: 'fill-slate-500', danger: 'fill-red-600' } as const;

export function ProgressBar({ value, label, labelledBy, role = 'progressbar', valueText, tone = 'brand' }: Props) {
  const share = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div
      role={role}
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={share}
      aria-valuetext={valueText}
      className="h-2 overflow-hidden rounded-full bg-slate-200"
    >
      <svg aria-hidden="true" viewBox="0 0 100 1" preserveAspectRatio="none" className="block h-full w-full">
        <rect width={share} height="1" className={`${FILL[tone]} transition-[width]`} />
      </svg>
    </div>
  );
}
