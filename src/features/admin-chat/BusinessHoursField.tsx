/**
 * Business hours: on or off, and each weekday open from–to, read in the site's time zone (a general
 * setting, decision 055: the note says which and links to it). Outside them the widget shows the offline
 * message and asks for contact details.
 */
import { Toggle } from '../../components/admin/fields';
import { WEEKDAYS, type BusinessHours, type Weekday } from '../../shared/chat';
import { timeZoneLabel } from '../../shared/dates';

interface Props {
  value: BusinessHours;
  onValue(path: (string | number)[], v: unknown): void;
  errors: Record<string, string>;
  /** The site's time zone, and where it is chosen. */
  timeZone: string;
  timeZoneHref: string;
}

const DAY_NAMES: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

const timeClass =
  'block h-11 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-base text-ink shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600 disabled:bg-slate-50 disabled:text-slate-400 aria-[invalid=true]:border-red-600 sm:text-sm';

interface TimeFieldProps {
  caption: string;
  label: string;
  value: string;
  disabled: boolean;
  invalid: boolean;
  describedBy?: string | undefined;
  onValue(v: string): void;
}

/** One opening or closing time of a day. */
function TimeField({ caption, label, value, disabled, invalid, describedBy, onValue }: TimeFieldProps) {
  return (
    <label className="block min-w-0 text-xs text-slate-600">
      <span className="mb-1 block">{caption}</span>
      <input
        type="time"
        aria-label={label}
        value={value}
        disabled={disabled}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onValue(e.target.value)}
        className={timeClass}
      />
    </label>
  );
}

export function BusinessHoursField({ value, onValue, errors, timeZone, timeZoneHref }: Props) {
  return (
    <div className="space-y-4">
      <Toggle
        label="Use business hours"
        hint="Off: the assistant answers at any hour and the widget always shows as online."
        checked={value.enabled}
        onChecked={(v) => onValue(['businessHours', 'enabled'], v)}
      />
      <fieldset className="min-w-0" aria-describedby="business-hours-zone">
        <legend className="mb-1.5 text-sm font-medium text-slate-800">Opening hours</legend>
        <p id="business-hours-zone" className="mb-2 text-sm text-slate-600" data-business-hours-zone>
          In the site’s time zone, <span className="font-medium text-slate-800">{timeZoneLabel(timeZone)}</span>, wherever the visitor is (
          <a href={timeZoneHref} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
            change it in Settings
          </a>
          ).
        </p>
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
          {WEEKDAYS.map((day) => {
            const d = value.days[day];
            const name = DAY_NAMES[day];
            const toError = errors[`businessHours.days.${day}.to`];
            const fromError = errors[`businessHours.days.${day}.from`];
            const error = toError ?? fromError;
            return (
              <li key={day} className="grid grid-cols-2 items-center gap-x-3 gap-y-2 px-3 py-2.5 sm:grid-cols-[9rem_minmax(0,1fr)_minmax(0,1fr)]" data-day={day}>
                <label className="col-span-2 flex items-center gap-2 text-sm font-medium text-slate-800 sm:col-span-1">
                  <input type="checkbox" checked={d.open} onChange={(e) => onValue(['businessHours', 'days', day, 'open'], e.target.checked)} className="h-5 w-5 accent-brand-600" />
                  {name}
                  {!d.open && <span className="text-xs font-normal text-slate-600">Closed</span>}
                </label>
                <TimeField
                  caption="Opens"
                  label={`${name} opens at`}
                  value={d.from}
                  disabled={!d.open}
                  invalid={Boolean(fromError)}
                  onValue={(v) => onValue(['businessHours', 'days', day, 'from'], v)}
                />
                <TimeField
                  caption="Closes"
                  label={`${name} closes at`}
                  value={d.to}
                  disabled={!d.open}
                  invalid={Boolean(toError)}
                  describedBy={error ? `hours-${day}-error` : undefined}
                  onValue={(v) => onValue(['businessHours', 'days', day, 'to'], v)}
                />
                {error && (
                  <p id={`hours-${day}-error`} className="col-span-2 text-sm text-red-700 sm:col-start-2">
                    {name}: {error.charAt(0).toLowerCase() + error.slice(1)}.
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      </fieldset>
    </div>
  );
}
