/** "Add link" / "Edit link": the address (checked by the shared rule), the text when nothing is selected, new tab. */
import { useState } from 'react';
import { checkLinkHref } from '../../../shared/rich-text';
import { TextInput, Toggle } from '../fields';
import { dialogButton, FormDialog } from './FormDialog';

export interface LinkChoice {
  href: string;
  newTab: boolean;
  /** The link's text, when nothing was selected to link. */
  text?: string | undefined;
}

interface Props {
  initial: { href: string; newTab: boolean };
  /** Nothing is selected: ask for the text to show. */
  askText: boolean;
  onApply(choice: LinkChoice): void;
  /** Editing an existing link: offer to remove it. */
  onRemove?: (() => void) | undefined;
  onClose(): void;
}

export function LinkDialog({ initial, askText, onApply, onRemove, onClose }: Props) {
  const [href, setHref] = useState(initial.href);
  const [text, setText] = useState('');
  const [newTab, setNewTab] = useState(initial.newTab);
  const [errors, setErrors] = useState<{ href?: string; text?: string }>({});

  const submit = () => {
    const checked = checkLinkHref(href);
    const problems = { href: checked.ok ? undefined : checked.message, text: askText && text.trim() === '' ? 'Enter the text the link shows.' : undefined };
    setErrors(problems);
    if (!checked.ok || problems.text) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('dialog[open] [aria-invalid="true"]')?.focus());
      return;
    }
    onApply({ href: checked.value, newTab, text: askText ? text.trim() : undefined });
  };

  return (
    <FormDialog
      title={onRemove ? 'Edit link' : 'Add link'}
      submitLabel={onRemove ? 'Update link' : 'Add link'}
      onSubmit={submit}
      onClose={onClose}
      extraActions={
        onRemove && (
          <button type="button" onClick={onRemove} className={`${dialogButton} border border-red-200 text-red-700 hover:bg-red-50`}>
            Remove link
          </button>
        )
      }
    >
      <TextInput
        label="Address"
        value={href}
        onValue={(v) => {
          setHref(v);
          setErrors((e) => ({ ...e, href: undefined }));
        }}
        error={errors.href}
        hint="https://…, a page of this site (/services), an email address or tel:+1…"
        inputMode="url"
        autoComplete="off"
        autoFocus
        maxLength={2048}
      />
      {askText && (
        <TextInput
          label="Text to show"
          value={text}
          onValue={(v) => {
            setText(v);
            setErrors((e) => ({ ...e, text: undefined }));
          }}
          error={errors.text}
          maxLength={500}
        />
      )}
      <Toggle label="Open in a new tab" hint="For other sites only; pages of this site open in the same tab." checked={newTab} onChecked={setNewTab} />
    </FormDialog>
  );
}
