/**
 * The overview's offer of the browser's time zone, beside its "Needs attention" item while the site has
 * none: one click saves it into the general settings (admin.settings.save, on top of the version the page
 * was rendered with) and reloads the page, whose times, days and header then follow the zone.
 */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { toast } from '../../components/admin/toasts';
import type { GeneralSettings } from '../../shared/general-settings';
import { BrowserTimeZoneOffer, useBrowserTimeZone } from './BrowserTimeZoneOffer';

interface Props {
  settings: GeneralSettings;
  version: string;
}

export default function TimeZoneOffer({ settings, version }: Props) {
  const zone = useBrowserTimeZone();
  const [busy, setBusy] = useState(false);
  if (!zone) return null;

  const use = async (timeZone: string) => {
    setBusy(true);
    const outcome = await callAction(() => actions.admin.settings.save({ version, settings: { ...settings, timeZone } }), { fieldPrefix: 'settings', retryForMs: IDEMPOTENT_RETRY_MS });
    if (!outcome.ok) {
      setBusy(false);
      toast('error', outcome.message);
      return;
    }
    window.location.reload();
  };
  return <BrowserTimeZoneOffer zone={zone} busy={busy} onUse={(z) => void use(z)} />;
}
