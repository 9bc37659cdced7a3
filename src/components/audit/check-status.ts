/** How a check's outcome is shown: its words and its badge colours (text and background pass WCAG AA). */
import type { CheckStatus } from '../../server/modules/site-audit/findings';

export const CHECK_STATUS_LABELS: Record<CheckStatus, string> = { pass: 'Pass', warn: 'Needs attention', fail: 'Fail', skipped: 'Not checked' };

export const CHECK_STATUS_CLASSES: Record<CheckStatus, string> = {
  pass: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  warn: 'bg-amber-50 text-amber-900 ring-amber-200',
  fail: 'bg-red-50 text-red-800 ring-red-200',
  skipped: 'bg-slate-100 text-slate-700 ring-slate-200',
};
