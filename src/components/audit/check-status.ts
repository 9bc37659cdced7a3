/** How a check's outcome is shown: its words and its badge colours (text and background pass WCAG AA). */
import type { CheckStatus } from '../../server/modules/site-audit/findings';

export const CHECK_STATUS_LABELS: Record<CheckStatus, string> = { pass: 'Pass', warn: 'Needs attention', fail: 'Fail', skipped: 'Not checked' };

/** A 0–100 score's colour as text (undefined: not scored) and as a bar: green from 80, amber from 50, else red. */
export const scoreTextClass = (score: number | undefined) => (score === undefined ? 'text-slate-700' : score >= 80 ? 'text-emerald-800' : score >= 50 ? 'text-amber-900' : 'text-red-800');
export const scoreBarClass = (score: number) => (score >= 80 ? 'bg-emerald-600' : score >= 50 ? 'bg-amber-500' : 'bg-red-600');

export const CHECK_STATUS_CLASSES: Record<CheckStatus, string> = {
  pass: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  warn: 'bg-amber-50 text-amber-900 ring-amber-200',
  fail: 'bg-red-50 text-red-800 ring-red-200',
  skipped: 'bg-slate-100 text-slate-700 ring-slate-200',
};
