/**
 * The quick replies under the greeting: each either sends a message for the visitor or opens a link (a
 * path on this site or an https address). Added, removed and reordered (drag or keyboard) like every admin
 * list; errors come by index from the schema ("quickReplies.1.value").
 */
import { ObjectListField } from '../../components/admin/ObjectListField';
import { SelectInput, TextInput } from '../../components/admin/fields';
import { CHAT_LIMITS, type QuickReply } from '../../shared/chat';

interface Props {
  items: readonly QuickReply[];
  onItems(next: QuickReply[]): void;
  errors: Record<string, string>;
}

const KIND_OPTIONS = [
  { value: 'message', label: 'Sends a message' },
  { value: 'link', label: 'Opens a link' },
] as const;

export function QuickRepliesField({ items, onItems, errors }: Props) {
  return (
    <ObjectListField<QuickReply>
      label="Quick replies"
      itemLabel="quick reply"
      items={items}
      onItems={onItems}
      newItem={() => ({ kind: 'message', label: '', value: '' })}
      nameOf={(q) => q.label}
      error={errors.quickReplies}
      hint={`Buttons under the greeting, in this order; up to ${CHAT_LIMITS.quickReplies}.`}
      maxItems={CHAT_LIMITS.quickReplies}
      renderFields={(q, i, update) => (
        <div className="grid gap-3 md:grid-cols-[13rem_minmax(0,1fr)]">
          <SelectInput
            label="Kind"
            value={q.kind}
            onValue={(kind) => update({ kind } as Partial<QuickReply>)}
            options={KIND_OPTIONS}
            error={errors[`quickReplies.${i}.kind`]}
          />
          <TextInput
            label="Label"
            value={q.label}
            onValue={(label) => update({ label })}
            error={errors[`quickReplies.${i}.label`]}
            hint={`${Array.from(q.label).length} / ${CHAT_LIMITS.quickReplyLabel} characters`}
          />
          {q.kind === 'link' ? (
            <TextInput
              className="md:col-span-2"
              label="Link"
              value={q.value}
              onValue={(value) => update({ value })}
              error={errors[`quickReplies.${i}.value`]}
              hint="A page of this site like /free-audit, or an address starting with https://."
              inputMode="url"
              spellCheck={false}
              autoComplete="off"
            />
          ) : (
            <TextInput
              className="md:col-span-2"
              label="Message sent"
              value={q.value}
              onValue={(value) => update({ value })}
              error={errors[`quickReplies.${i}.value`]}
              hint={`What the visitor sends by pressing it; the assistant answers it like a typed question. Up to ${CHAT_LIMITS.quickReplyValue} characters.`}
            />
          )}
        </div>
      )}
    />
  );
}
