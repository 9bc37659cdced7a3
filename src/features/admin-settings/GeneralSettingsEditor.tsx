/**
 * The general settings editor (/admin/settings, decision 055): the site's time zone, with the browser's
 * own offered while none was ever chosen, and where prospects' replies go (empty: the footer's contact
 * email), beside a read-only note of who mails come from (MAIL_FROM on the server). One document, validated
 * with generalSettingsSchema here and on the server, saved with the version it opened (admin.settings.save);
 * the site-document editor gives it drafts, the unsaved-changes warning, Ctrl/Cmd+S and field errors.
 */
import { actions } from 'astro:actions';
import { useCallback, useState } from 'react';
import { EditorShell } from '../../components/admin/EditorShell';
import { Section, TextInput } from '../../components/admin/fields';
import { useDocumentEditor } from '../../components/admin/use-document-editor';
import { timeZoneLabel } from '../../shared/dates';
import { generalSettingsSchema, type GeneralSettings } from '../../shared/general-settings';
import { BrowserTimeZoneOffer, useBrowserTimeZone } from './BrowserTimeZoneOffer';
import { TimeZoneField } from './TimeZoneField';

interface Props {
  settings: GeneralSettings;
  version: string;
  /** The site texts' footer contact email: where replies go while no address is set. */
  contactEmail: string;
  /** The From of every mail (the server's senderMailbox()). */
  sender: string;
  /** Whether MAIL_FROM is set on the server (else the sender is the site's name at no-reply@ its host). */
  mailFromSet: boolean;
  /** Whether the sender is an address nobody reads (no-reply, localhost). */
  senderUnanswerable: boolean;
}

/** The admin header names the zone every time on the page is in: it follows a saved change at once. */
function showZoneInHeader(zone: string) {
  document.documentElement.dataset.timeZone = zone;
  const header = document.querySelector<HTMLElement>('[data-admin-time-zone]');
  if (!header) return;
  header.dataset.adminTimeZone = zone;
  const name = header.querySelector('[data-zone-name]');
  if (name) name.textContent = timeZoneLabel(zone);
}

export default function GeneralSettingsEditor({ settings, version, contactEmail, sender, mailFromSet, senderUnanswerable }: Props) {
  const [savedZone, setSavedZone] = useState(settings.timeZone);
  const onSaved = useCallback((saved: GeneralSettings) => {
    setSavedZone(saved.timeZone);
    if (saved.timeZone) showZoneInHeader(saved.timeZone);
  }, []);
  const editor = useDocumentEditor<GeneralSettings>({
    draftKey: 'general-settings',
    schema: generalSettingsSchema,
    initial: { version, fields: settings },
    label: 'settings',
    send: (fields, v) => actions.admin.settings.save({ version: v, settings: fields as unknown as Record<string, unknown> }),
    fieldPrefix: 'settings',
    onSaved,
  });
  const { fields: f, setAt, errors, status } = editor;
  const browserZone = useBrowserTimeZone();
  const busy = status.kind === 'saving' || status.kind === 'retrying';

  return (
    <EditorShell editor={editor}>
      <div className="space-y-4">
        <Section
          id="time-zone"
          title="Time zone"
          description="Every time in the admin is shown in it and the overview’s days are counted in it; the chat’s business hours, the follow-ups’ quiet hours and the morning reminders are read in it, and emails and audit reports name it beside their times."
        >
          {savedZone === null && browserZone && <BrowserTimeZoneOffer zone={browserZone} busy={busy} onUse={(zone) => void editor.saveValues({ ...f, timeZone: zone })} />}
          <TimeZoneField
            value={f.timeZone}
            onValue={(zone) => setAt(['timeZone'], zone)}
            notChosenOption={settings.timeZone === null}
            error={errors.timeZone}
            hint="Where the business is, wherever each admin or visitor happens to be."
          />
        </Section>

        <Section id="replies" title="Email replies" description="Who a prospect reaches when they answer an email from the site.">
          <div className={`rounded-lg border px-4 py-3 text-sm ${senderUnanswerable ? 'border-amber-200 bg-amber-50 text-amber-900' : 'border-slate-200 bg-slate-50 text-slate-700'}`} data-mail-sender>
            <p>
              Emails come from <span className="font-semibold [overflow-wrap:anywhere]">{sender}</span>.{' '}
              {mailFromSet ? (
                <>
                  It is set on the server with <code className="font-mono">MAIL_FROM</code>; whoever runs the server changes it there.
                </>
              ) : (
                <>
                  <code className="font-mono">MAIL_FROM</code> is not set on the server, so this is the site’s name at its own no-reply address; whoever runs the server can set a real sender there.
                </>
              )}
            </p>
            {senderUnanswerable && <p className="mt-1">Nobody reads that address: every email to a prospect asks for replies to a person instead, as set below.</p>}
          </div>
          <TextInput
            label="Replies to emails go to"
            type="email"
            value={f.replyTo}
            onValue={(v) => setAt(['replyTo'], v)}
            error={errors.replyTo}
            placeholder={contactEmail}
            hint={
              <>
                Replies to the confirmation, audit report and follow-up emails of a lead with an owner go to the owner; of any other lead, here. Empty: <span className="[overflow-wrap:anywhere]">{contactEmail}</span>, the contact
                email of the site texts’ footer.
              </>
            }
            autoComplete="email"
            inputMode="email"
            spellCheck={false}
            className="max-w-md"
          />
        </Section>
      </div>
    </EditorShell>
  );
}
