/**
 * The /free-audit form. The server renders it (and answers its post) without any script; once hydrated it
 * validates with the same shared rules as the server, beside each field, and sends the request without a
 * reload. A signed-in member's details are filled in from the session store: the page's HTML stays the
 * same for every visitor (it is route-cached), and the server links the request from the session.
 */
import { useEffect, useRef, useState, type ChangeEvent, type ReactNode, type SubmitEvent } from 'react';
import { Alert, inputClass } from '../../components/forms/field';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import {
  AUDIT_FORM_FIELDS,
  AUDIT_GOAL_LABELS,
  AUDIT_GOALS,
  AUDIT_LIMITS,
  AUDIT_NEXT_STEPS,
  ATTRIBUTION_FIELDS,
  auditFieldErrors,
  auditRequestSchema,
  auditSubmissionOf,
  BUSINESS_TYPE_LABELS,
  BUSINESS_TYPES,
  HONEYPOT_FIELD,
  type AuditFieldErrors,
  type AuditFormField,
  type AuditFormValues,
} from '../../shared/schemas/audit';
import { $session, loadSession } from '../../stores/session';
import { fillAttributionInputs, readAttribution } from '../attribution/store';

export interface AuditFormState {
  values: AuditFormValues;
  fieldErrors: AuditFieldErrors;
  /** A message for the whole form (rate limit, connection). */
  message?: string | undefined;
  done: boolean;
}

type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'error'; message: string };

/** Stable ids: the no-script error summary links to them. */
export const fieldId = (field: AuditFormField) => `audit-${field}`;

const GROUP_FIELDS: ReadonlySet<AuditFormField> = new Set(['businessType', 'goals', 'consent']);
const CHECK_CLASS = 'h-5 w-5 shrink-0 rounded border-slate-400 text-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

function fieldErrorsFor(form: HTMLFormElement): AuditFieldErrors {
  const parsed = auditRequestSchema.safeParse(auditSubmissionOf(new FormData(form)).fields);
  return parsed.success ? {} : auditFieldErrors(parsed.error);
}

function ErrorLine({ field, error }: { field: AuditFormField; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={`${fieldId(field)}-error`} className="mt-1 text-sm text-red-700">
      {error}
    </p>
  );
}

function TextField(props: {
  field: AuditFormField;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  onBlur: () => void;
  type?: string;
  autoComplete?: string;
  optional?: boolean;
  hint?: string;
  maxLength: number;
  multiline?: boolean;
}) {
  const id = fieldId(props.field);
  const describedBy = props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined;
  const common = {
    id,
    name: props.field,
    value: props.value,
    onChange: props.onChange,
    onBlur: props.onBlur,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': props.optional ? undefined : true,
  } as const;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-800">
        {props.label}
        {props.optional && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={5} maxLength={props.maxLength} className={`${inputClass} h-auto min-h-28 border-slate-300 py-2`} />
      ) : (
        <input {...common} type={props.type ?? 'text'} autoComplete={props.autoComplete} maxLength={props.maxLength} className={`${inputClass} border-slate-300`} />
      )}
      {props.hint && !props.error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {props.hint}
        </p>
      )}
      <ErrorLine field={props.field} error={props.error} />
    </div>
  );
}

function Group({ field, legend, error, children }: { field: AuditFormField; legend: ReactNode; error: string | undefined; children: ReactNode }) {
  const id = fieldId(field);
  return (
    <fieldset id={id} tabIndex={-1} aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined} className="min-w-0 outline-none">
      <legend className="mb-2 text-sm font-medium text-slate-800">{legend}</legend>
      {children}
      <ErrorLine field={field} error={error} />
    </fieldset>
  );
}

export function ThankYou({ headingRef }: { headingRef?: React.Ref<HTMLHeadingElement> }) {
  return (
    <section aria-labelledby="audit-thanks" data-testid="audit-thank-you" className="rounded-xl bg-green-50 p-5 sm:p-6">
      <h2 id="audit-thanks" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-ink outline-none">
        Thank you — your request is in
      </h2>
      <p className="mt-2 text-slate-700">We have sent you a confirmation email. Here is what happens next:</p>
      <ol className="mt-4 list-decimal space-y-2 pl-5 text-slate-700">
        {AUDIT_NEXT_STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="mt-6">
        <a href="/services" className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
          Browse our services while you wait
        </a>
      </p>
    </section>
  );
}

export default function AuditForm({ initial }: { initial: AuditFormState }) {
  const [values, setValues] = useState(initial.values);
  const [errors, setErrors] = useState<AuditFieldErrors>(initial.fieldErrors);
  const [status, setStatus] = useState<Status>(initial.message ? { kind: 'error', message: initial.message } : { kind: 'idle' });
  const [done, setDone] = useState(initial.done);
  const [member, setMember] = useState<string | undefined>();
  const touched = useRef(new Set<string>());
  const formRef = useRef<HTMLFormElement>(null);
  useKeepTypedValues(formRef);
  const thanksRef = useRef<HTMLHeadingElement>(null);

  // A signed-in member: fill in what their account knows, never over what they already typed.
  useEffect(() => {
    const fill = () => {
      const state = $session.get();
      if (state.status !== 'authenticated' || !state.user) return;
      const u = state.user;
      setMember(u.email);
      const known: Partial<AuditFormValues> = {
        fullName: `${u.firstName} ${u.lastName}`.trim() || u.name,
        email: u.email,
        phone: u.phone ?? '',
        website: u.website ?? '',
      };
      setValues((v) => {
        const next = { ...v };
        for (const [key, value] of Object.entries(known) as [keyof AuditFormValues & string, string][]) {
          if (value && !v[key] && !touched.current.has(key)) (next as Record<string, unknown>)[key] = value;
        }
        return next;
      });
    };
    const unsubscribe = $session.listen(fill);
    void loadSession().then(fill);
    return unsubscribe;
  }, []);

  useEffect(() => {
    if (done) thanksRef.current?.focus();
  }, [done]);

  function revalidate(field: AuditFormField) {
    if (!formRef.current || !touched.current.has(field)) return;
    const next = fieldErrorsFor(formRef.current);
    setErrors((e) => ({ ...e, [field]: next[field] }));
  }

  const onText = (field: 'fullName' | 'email' | 'businessName' | 'website' | 'phone' | 'message') => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const value = e.currentTarget.value;
    touched.current.add(field);
    setValues((v) => ({ ...v, [field]: value }));
    // Once a field shows an error, it updates while typing; before that only on leaving the field.
    if (errors[field] && formRef.current) queueMicrotask(() => revalidate(field));
  };
  const leave = (field: AuditFormField) => () => {
    touched.current.add(field);
    revalidate(field);
  };

  function onGoal(goal: string, checked: boolean) {
    touched.current.add('goals');
    setValues((v) => ({ ...v, goals: checked ? [...v.goals, goal] : v.goals.filter((g) => g !== goal) }));
    queueMicrotask(() => revalidate('goals'));
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    for (const f of AUDIT_FORM_FIELDS) touched.current.add(f);
    const found = fieldErrorsFor(form);
    setErrors(found);
    if (Object.keys(found).length) {
      setStatus({ kind: 'error', message: 'Please correct the highlighted fields.' });
      focusFirst(found);
      return;
    }
    setStatus({ kind: 'sending' });
    // The visit's source as of now (the page's script filled these on load; a re-render may have reset them).
    fillAttributionInputs(form, readAttribution());
    try {
      const res = await fetch('/api/audit-requests', { method: 'POST', body: new FormData(form), headers: { accept: 'application/json' }, credentials: 'same-origin' });
      const body = (await res.json().catch(() => null)) as { ok: boolean; message?: string; fieldErrors?: AuditFieldErrors } | null;
      if (res.ok && body?.ok) {
        setDone(true);
        return;
      }
      setErrors(body?.fieldErrors ?? {});
      setStatus({ kind: 'error', message: body?.message ?? 'Something went wrong. Please try again.' });
      if (body?.fieldErrors) focusFirst(body.fieldErrors);
    } catch {
      setStatus({ kind: 'error', message: 'Your request could not be sent. Check your connection and try again; nothing you typed is lost.' });
    }
  }

  function focusFirst(found: AuditFieldErrors) {
    const first = AUDIT_FORM_FIELDS.find((f) => found[f]);
    if (!first) return;
    const el = document.getElementById(fieldId(first));
    const target = GROUP_FIELDS.has(first) ? (el?.querySelector<HTMLElement>('input') ?? el) : el;
    target?.focus();
  }

  if (done) return <ThankYou headingRef={thanksRef} />;

  const errorList = AUDIT_FORM_FIELDS.filter((f) => errors[f]);
  const sending = status.kind === 'sending';
  return (
    <form ref={formRef} method="post" action="/free-audit" noValidate onSubmit={onSubmit} className="grid gap-5" aria-describedby="audit-required-note">
      <p id="audit-required-note" className="text-sm text-slate-600">
        Fields without “(optional)” are required.
      </p>
      {status.kind === 'error' && (
        <Alert tone="error" testId="audit-form-error">
          <p className="font-medium">{status.message}</p>
          {errorList.length > 0 && (
            <ul className="mt-2 list-disc pl-5">
              {errorList.map((f) => (
                <li key={f}>
                  <a href={`#${fieldId(f)}`} className="underline underline-offset-2">
                    {errors[f]}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {member && (
        <p className="rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-900" data-testid="audit-member-note">
          You are signed in as <span className="font-medium">{member}</span>: this request will appear on your dashboard.
        </p>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField field="fullName" label="Full name" autoComplete="name" value={values.fullName} error={errors.fullName} onChange={onText('fullName')} onBlur={leave('fullName')} maxLength={AUDIT_LIMITS.fullName} />
        <TextField field="email" label="Email" type="email" autoComplete="email" value={values.email} error={errors.email} onChange={onText('email')} onBlur={leave('email')} maxLength={254} />
        <TextField field="businessName" label="Business name" autoComplete="organization" value={values.businessName} error={errors.businessName} onChange={onText('businessName')} onBlur={leave('businessName')} maxLength={AUDIT_LIMITS.businessName} />
        <TextField field="website" label="Website" type="url" autoComplete="url" optional hint="e.g. example.com" value={values.website} error={errors.website} onChange={onText('website')} onBlur={leave('website')} maxLength={2048} />
        <TextField field="phone" label="Phone" type="tel" autoComplete="tel" optional value={values.phone} error={errors.phone} onChange={onText('phone')} onBlur={leave('phone')} maxLength={40} />
      </div>
      <Group field="businessType" legend="Type of business" error={errors.businessType}>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {BUSINESS_TYPES.map((type) => (
            <label key={type} className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="businessType"
                value={type}
                checked={values.businessType === type}
                onChange={() => {
                  touched.current.add('businessType');
                  setValues((v) => ({ ...v, businessType: type }));
                  setErrors((e) => ({ ...e, businessType: undefined }));
                }}
                className={CHECK_CLASS}
              />
              {BUSINESS_TYPE_LABELS[type]}
            </label>
          ))}
        </div>
      </Group>
      <Group field="goals" legend="What do you want to improve? Choose one or more." error={errors.goals}>
        <div className="grid gap-x-6 gap-y-1 sm:grid-cols-2">
          {AUDIT_GOALS.map((goal) => (
            <label key={goal} className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="goals" value={goal} checked={values.goals.includes(goal)} onChange={(e) => onGoal(goal, e.currentTarget.checked)} className={CHECK_CLASS} />
              {AUDIT_GOAL_LABELS[goal]}
            </label>
          ))}
        </div>
      </Group>
      <TextField field="message" label="Anything we should know?" optional multiline value={values.message} error={errors.message} onChange={onText('message')} onBlur={leave('message')} maxLength={AUDIT_LIMITS.message} hint={`Up to ${AUDIT_LIMITS.message} characters.`} />
      <Group field="consent" legend={<span className="sr-only">Consent</span>} error={errors.consent}>
        <label className="flex items-start gap-3 text-sm text-slate-800">
          <input
            type="checkbox"
            name="consent"
            value="on"
            checked={values.consent}
            onChange={(e) => {
              const checked = e.currentTarget.checked;
              touched.current.add('consent');
              setValues((v) => ({ ...v, consent: checked }));
              setErrors((er) => ({ ...er, consent: checked ? undefined : er.consent }));
            }}
            className={`${CHECK_CLASS} mt-0.5`}
          />
          <span>
            I agree to be contacted by email or phone about my audit. See our{' '}
            <a href="/privacy" className="font-medium text-brand-700 underline underline-offset-2">
              privacy policy
            </a>
            .
          </span>
        </label>
      </Group>
      {/* The honeypot: hidden from people and screen readers; a bot that fills it is thanked and ignored. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label>
          Leave this field empty
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      {Object.entries(ATTRIBUTION_FIELDS).map(([key, name]) => (
        <input key={name} type="hidden" name={name} defaultValue="" data-attribution={key} />
      ))}
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          disabled={sending}
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-600 px-6 py-2.5 text-base font-semibold text-white shadow-sm transition hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60 motion-reduce:transition-none"
        >
          {sending ? 'Sending…' : 'Request my free audit'}
        </button>
        <p role="status" aria-live="polite" className="text-sm text-slate-600">
          {sending ? 'Sending your request…' : ''}
        </p>
      </div>
    </form>
  );
}
