/**
 * The site's time zone as a select of the zones this browser knows (read after hydration: the server's
 * list may differ). The stored zone and UTC are always offered, so the select never shows a value it does
 * not hold; while no zone was ever chosen, a first option says so (times are in UTC meanwhile).
 */
import { useEffect, useState } from 'react';
import { SelectInput } from '../../components/admin/fields';
import { DEFAULT_TIME_ZONE, timeZoneLabel } from '../../shared/dates';
import { TIME_ZONE_NOT_CHOSEN } from '../../shared/general-settings';

interface Props {
  value: string | null;
  onValue(zone: string | null): void;
  /** Offer "not chosen" (the site has never had a zone). */
  notChosenOption: boolean;
  error?: string | undefined;
  hint: string;
}

function useTimeZones(current: string | null): string[] {
  const [zones, setZones] = useState<readonly string[]>([]);
  useEffect(() => setZones(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []), []);
  const known = [...new Set([...(current ? [current] : []), DEFAULT_TIME_ZONE, ...zones])];
  return known.sort((a, b) => (a === DEFAULT_TIME_ZONE ? -1 : b === DEFAULT_TIME_ZONE ? 1 : a.localeCompare(b)));
}

export function TimeZoneField({ value, onValue, notChosenOption, error, hint }: Props) {
  const zones = useTimeZones(value);
  const options = [...(notChosenOption || value === null ? [{ value: '', label: TIME_ZONE_NOT_CHOSEN }] : []), ...zones.map((z) => ({ value: z, label: timeZoneLabel(z) }))];
  return <SelectInput label="Time zone" value={value ?? ''} onValue={(v) => onValue(v || null)} options={options} error={error} hint={hint} className="max-w-md" />;
}
