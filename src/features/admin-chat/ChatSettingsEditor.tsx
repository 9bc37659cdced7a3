/**
 * The chat settings editor (/admin/chat-settings/settings): the widget (on/off, name, greeting, accent colour with a
 * live preview), quick replies, when to ask for contact details, business hours, the offline message and
 * the optional AI answers. One document, validated with chatSettingsSchemaFor(LLM_API_ORIGIN) here and on
 * the server (the AI-answers endpoint must be on the origin the server sends its key to), saved with the
 * version it opened (admin.chat.saveSettings); the site-document editor gives it drafts, the
 * unsaved-changes warning, Ctrl/Cmd+S and field errors beside the fields.
 */
import { actions } from 'astro:actions';
import { useId, useMemo, useRef, type ReactNode } from 'react';
import { EditorShell } from '../../components/admin/EditorShell';
import { Section, TextArea, TextInput, Toggle } from '../../components/admin/fields';
import { useDocumentEditor } from '../../components/admin/use-document-editor';
import { CHAT_ASK_CONTACT, CHAT_ASK_CONTACT_LABELS, chatSettingsSchema, chatSettingsSchemaFor, type ChatSettings } from '../../shared/chat';
import { maxLengthAt } from '../../shared/site-documents';
import { AccentField } from './AccentField';
import { AccentPreview } from './AccentPreview';
import { BusinessHoursField } from './BusinessHoursField';
import { QuickRepliesField } from './QuickRepliesField';

interface Props {
  settings: ChatSettings;
  version: string;
  /** Whether the server has LLM_API_KEY (the key itself never leaves the server). */
  llmKeySet: boolean;
  /** LLM_API_ORIGIN, the only origin the server sends the key to ('' when unset: AI answers cannot be used). */
  llmOrigin: string;
  /** The site's time zone (the business hours are read in it) and where it is chosen. */
  timeZone: string;
  timeZoneHref: string;
}

type Path = (string | number)[];

const HEX = /^#[0-9a-fA-F]{6}$/;

export default function ChatSettingsEditor({ settings, version, llmKeySet, llmOrigin, timeZone, timeZoneHref }: Props) {
  // The server checks the same rule on save; here it shows beside the field before sending.
  const schema = useMemo(() => chatSettingsSchemaFor(llmOrigin || undefined), [llmOrigin]);
  const editor = useDocumentEditor<ChatSettings>({
    draftKey: 'chat-settings',
    schema,
    initial: { version, fields: settings },
    label: 'chat settings',
    send: (value, v) => actions.admin.chat.saveSettings({ value: value as unknown as Record<string, unknown>, expectedUpdatedAt: v }),
    fieldPrefix: 'value',
    savedMessage: 'Saved. Every page shows the chat with these settings from the next visit.',
  });
  const { fields: f, setAt, errors } = editor;
  const askId = useId();
  // The preview keeps the last valid colour while a hex value is half typed.
  const lastValidAccent = useRef(settings.accentColor);
  if (HEX.test(f.accentColor)) lastValidAccent.current = f.accentColor;

  const counted = (path: Path, value: string, note?: ReactNode) => {
    const limit = maxLengthAt(chatSettingsSchema, path);
    return (
      <>
        {note && <>{note} </>}
        {limit !== undefined && (
          <span className={Array.from(value).length > limit ? 'font-semibold text-red-700' : undefined}>
            {Array.from(value).length} / {limit} characters
          </span>
        )}
      </>
    );
  };

  return (
    <EditorShell editor={editor} viewHref="/">
      <div className="space-y-4">
        <Section title="Widget" description="The chat button at the bottom of every page, for visitors and members alike.">
          <Toggle
            label="Show the chat on every page"
            hint="Off removes the widget from every page at once; conversations and leads are kept."
            checked={f.enabled}
            onChecked={(v) => setAt(['enabled'], v)}
          />
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
            <div className="min-w-0 space-y-4">
              <TextInput
                label="Assistant name"
                value={f.assistantName}
                onValue={(v) => setAt(['assistantName'], v)}
                error={errors.assistantName}
                hint={counted(['assistantName'], f.assistantName, 'At the top of the open chat and beside its answers.')}
                autoComplete="off"
              />
              <TextArea
                label="Greeting"
                value={f.greeting}
                onValue={(v) => setAt(['greeting'], v)}
                error={errors.greeting}
                hint={counted(['greeting'], f.greeting, 'The first message a visitor sees.')}
                rows={4}
              />
              <AccentField value={f.accentColor} onValue={(v) => setAt(['accentColor'], v)} error={errors.accentColor} />
            </div>
            <AccentPreview assistantName={f.assistantName} greeting={f.greeting} accent={lastValidAccent.current} quickReplies={f.quickReplies} enabled={f.enabled} />
          </div>
        </Section>

        <Section title="Quick replies" description="Ready-made questions and links shown under the greeting, so a visitor can start with one tap.">
          <QuickRepliesField items={f.quickReplies} onItems={(v) => setAt(['quickReplies'], v)} errors={errors} />
        </Section>

        <Section title="Contact details" description="Name and email (and an optional message) make a lead: every admin gets an email and it appears in the inbox.">
          <fieldset className="min-w-0" aria-describedby={errors.askContact ? `${askId}-error` : undefined}>
            <legend className="mb-1.5 text-sm font-medium text-slate-800">Ask visitors for their contact details</legend>
            <div className="space-y-2">
              {CHAT_ASK_CONTACT.map((value) => (
                <label key={value} className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 bg-white p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
                  <input type="radio" name={`${askId}-ask`} value={value} checked={f.askContact === value} onChange={() => setAt(['askContact'], value)} className="mt-0.5 h-5 w-5 flex-none accent-brand-600" />
                  <span className="text-sm text-slate-800">{CHAT_ASK_CONTACT_LABELS[value]}</span>
                </label>
              ))}
            </div>
            {errors.askContact && (
              <p id={`${askId}-error`} className="mt-1 text-sm text-red-700">
                {errors.askContact}
              </p>
            )}
          </fieldset>
        </Section>

        <Section id="business-hours" title="Business hours" description="When a person can answer. Outside these hours the widget shows the offline message and asks for contact details; the assistant still answers.">
          <BusinessHoursField value={f.businessHours} onValue={setAt} errors={errors} timeZone={timeZone} timeZoneHref={timeZoneHref} />
          <TextArea
            label="Offline message"
            value={f.offlineMessage}
            onValue={(v) => setAt(['offlineMessage'], v)}
            error={errors.offlineMessage}
            hint={counted(['offlineMessage'], f.offlineMessage, 'Shown outside business hours.')}
            rows={3}
          />
        </Section>

        <Section
          title="AI answers"
          description="Optional: an OpenAI-compatible chat-completions service writes the answers from the same search results (your FAQs, services, packages and articles). On a time-out or error the search answer is shown instead."
        >
          <LlmServerNote keySet={llmKeySet} origin={llmOrigin} />
          <Toggle label="Use AI answers" checked={f.llm.enabled} onChecked={(v) => setAt(['llm', 'enabled'], v)} />
          <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_16rem]">
            <TextInput
              label="Endpoint"
              value={f.llm.endpoint}
              onValue={(v) => setAt(['llm', 'endpoint'], v)}
              error={errors['llm.endpoint']}
              hint={
                llmOrigin
                  ? `The chat-completions address on ${llmOrigin}, the only origin the server sends its key to, e.g. ${llmOrigin}/v1/chat/completions.`
                  : 'An https:// chat-completions address, usable once the server has LLM_API_ORIGIN (see above).'
              }
              inputMode="url"
              spellCheck={false}
              autoComplete="off"
            />
            <TextInput
              label="Model"
              value={f.llm.model}
              onValue={(v) => setAt(['llm', 'model'], v)}
              error={errors['llm.model']}
              hint="e.g. gpt-4o-mini"
              spellCheck={false}
              autoComplete="off"
            />
          </div>
        </Section>
      </div>
    </EditorShell>
  );
}

/** What the server's environment allows: whether it has a key, and the one origin it sends the key to. */
function LlmServerNote({ keySet, origin }: { keySet: boolean; origin: string }) {
  const ready = keySet && origin !== '';
  return (
    <div className={`rounded-lg border px-4 py-3 text-sm ${ready ? 'border-green-200 bg-green-50 text-green-900' : 'border-amber-200 bg-amber-50 text-amber-900'}`} data-llm-key-note>
      {ready ? (
        <>
          The server has an API key (<code className="font-mono">LLM_API_KEY</code>) and sends it only to <code className="font-mono">{origin}</code> over https (
          <code className="font-mono">LLM_API_ORIGIN</code>). The key is never stored here or sent to browsers.
        </>
      ) : (
        <>
          {origin === '' ? (
            <>
              The server sends its API key to no address: <code className="font-mono">LLM_API_ORIGIN</code> is not set. Whoever runs the server sets it to the https origin of the AI provider (e.g.{' '}
              <code className="font-mono">https://api.openai.com</code>)
              {keySet ? '' : <>, with the key in <code className="font-mono">LLM_API_KEY</code>,</>} and restarts it.
            </>
          ) : (
            <>
              The server has no API key: set <code className="font-mono">LLM_API_KEY</code> in its environment and restart it. It will be sent only to <code className="font-mono">{origin}</code>.
            </>
          )}{' '}
          Until then the chat answers from search, even with AI answers on.
        </>
      )}
    </div>
  );
}
