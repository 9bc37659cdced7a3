/**
 * A value saved the moment it is picked (a status, an owner): shown at once, sent through an idempotent
 * Action (retried through a dropped connection), confirmed with a toast, and put back as it was with the
 * error's toast when the save fails.
 */
import { useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS, type ActionResult } from './call-action';
import { toast } from './toasts';

export function useInstantSave<V>(initial: V, save: (next: V) => Promise<ActionResult<unknown>>, saved: (next: V) => string) {
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  async function change(next: V) {
    const previous = value;
    setValue(next);
    setSaving(true);
    const outcome = await callAction(() => save(next), { retryForMs: IDEMPOTENT_RETRY_MS });
    setSaving(false);
    if (outcome.ok) toast('success', saved(next));
    else {
      setValue(previous);
      toast('error', outcome.message);
    }
  }
  return { value, saving, change };
}
