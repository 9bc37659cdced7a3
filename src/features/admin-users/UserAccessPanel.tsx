/**
 * The working side of a person's page (/admin/users/[userId]): their role, their email verification and
 * whether the account may sign in, with the admin.users.* Actions that change them, and the sessions that
 * are signed in now (disabling ends them all at once). The services keep the rules: the last admin cannot
 * be removed, nobody disables themselves; their messages are shown as they come.
 */
import { actions } from 'astro:actions';
import { useRef, useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { Section, TextArea } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { formatInZone } from '../../shared/dates';
import { DISABLE_REASON_MAX } from '../../shared/admin-users';

export interface PanelSession {
  id: string;
  signedInAt: string;
  lastActiveAt: string;
  expiresAt: string;
  /** "Chrome on macOS" */
  device: string;
  /** "203.0.113.x": the network, never the full address. */
  network: string;
}

interface Props {
  userId: string;
  displayName: string;
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
  disabled: boolean;
  disableReason: string | null;
  /** The page is the signed-in admin's own. */
  isSelf: boolean;
  sessions: PanelSession[];
  sessionTotal: number;
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
}

type Busy = 'role' | 'disable' | 'enable' | 'verification' | undefined;

const button = 'inline-flex h-10 items-center rounded-lg px-4 text-sm font-semibold disabled:opacity-60';
const secondary = `${button} border border-slate-300 bg-white text-ink hover:bg-slate-50`;
const danger = `${button} bg-red-600 text-white hover:bg-red-700`;
const badge = 'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold';

const time = (iso: string, timeZone: string) => <time dateTime={iso}>{formatInZone(iso, timeZone)}</time>;

export default function UserAccessPanel(props: Props) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  const [role, setRole] = useState(props.role);
  const [disabled, setDisabled] = useState(props.disabled);
  const [disableReason, setDisableReason] = useState(props.disableReason);
  const [reasonDraft, setReasonDraft] = useState('');
  const [sessions, setSessions] = useState(props.sessions);
  const [sessionTotal, setSessionTotal] = useState(props.sessionTotal);
  const [busy, setBusy] = useState<Busy>();
  const [problem, setProblem] = useState<string>();
  const [ask, dialog] = useConfirm();
  const who = props.displayName;

  async function run<T>(kind: Busy, call: () => Promise<{ data?: T; error?: unknown }>, retry = false) {
    setBusy(kind);
    setProblem(undefined);
    const outcome = await callAction<T>(call, retry ? { retryForMs: IDEMPOTENT_RETRY_MS } : {});
    setBusy(undefined);
    if (!outcome.ok) setProblem(outcome.message);
    return outcome;
  }

  async function changeRole(next: 'user' | 'admin') {
    const promoting = next === 'admin';
    const ok = await ask(
      promoting ? `Make ${who} an admin?` : `Remove ${who}’s admin role?`,
      promoting
        ? 'They can then change everything in the admin: content, settings, other people’s accounts. The change is recorded in the activity log.'
        : props.isSelf
          ? 'You lose access to the admin as soon as you leave this page. The change is recorded in the activity log.'
          : 'They keep their member account but lose access to the admin at once. The change is recorded in the activity log.',
      promoting ? 'Make admin' : 'Remove admin role',
      promoting ? 'primary' : 'danger',
    );
    if (!ok) return;
    // Setting a role is idempotent: safe to retry through a dropped connection.
    const outcome = await run('role', () => actions.admin.users.setRole({ userId: props.userId, role: next }), true);
    if (outcome.ok) {
      setRole(next);
      toast('success', promoting ? `${who} is now an admin.` : `${who} is now a member.`);
    }
  }

  async function disable() {
    const ok = await ask(
      `Disable ${who}’s account?`,
      'They are signed out everywhere at once and cannot sign in again until the account is enabled. Nothing of theirs is deleted.',
      'Disable account',
    );
    if (!ok) return;
    const reason = reasonDraft.trim();
    const outcome = await run<{ sessionsEnded: number }>('disable', () => actions.admin.users.disable({ userId: props.userId, reason }), true);
    if (outcome.ok) {
      setDisabled(true);
      setDisableReason(reason.slice(0, DISABLE_REASON_MAX) || null);
      setReasonDraft('');
      setSessions([]);
      setSessionTotal(0);
      const n = outcome.data.sessionsEnded;
      toast('success', `Account disabled. ${n === 0 ? 'It had no session open.' : `${n} session${n === 1 ? '' : 's'} ended.`}`);
    }
  }

  async function enable() {
    const outcome = await run('enable', () => actions.admin.users.enable({ userId: props.userId }), true);
    if (outcome.ok) {
      setDisabled(false);
      setDisableReason(null);
      toast('success', `Account enabled: ${who} can sign in again.`);
    }
  }

  async function resendVerification() {
    // Not retried: each call sends one more email.
    const outcome = await run('verification', () => actions.admin.users.resendVerification({ userId: props.userId }));
    if (outcome.ok) toast('success', `Verification email sent to ${props.email}.`);
  }

  return (
    <div ref={root} className="grid gap-6">
      <Section title="Access" description="Every change is recorded in the activity log.">
        {problem && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="user-action-problem">
            {problem}
          </p>
        )}
        <dl className="grid gap-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="font-medium text-slate-600">Role</dt>
            <dd data-testid="user-role">{role === 'admin' ? <span className={`${badge} bg-brand-100 text-brand-800`}>Admin</span> : <span className={`${badge} bg-slate-100 text-slate-700`}>Member</span>}</dd>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="font-medium text-slate-600">Email</dt>
            <dd data-testid="user-verified">{props.emailVerified ? <span className={`${badge} bg-green-100 text-green-800`}>Verified</span> : <span className={`${badge} bg-amber-100 text-amber-900`}>Not verified</span>}</dd>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <dt className="font-medium text-slate-600">Account</dt>
            <dd data-testid="user-status">{disabled ? <span className={`${badge} bg-red-100 text-red-800`}>Disabled</span> : <span className={`${badge} bg-green-100 text-green-800`}>Active</span>}</dd>
          </div>
          {disabled && (
            <div className="grid gap-1">
              <dt className="font-medium text-slate-600">Reason</dt>
              <dd className="break-words whitespace-pre-wrap text-ink" data-testid="user-disable-reason">
                {disableReason ?? <span className="text-slate-600">No reason given</span>}
              </dd>
            </div>
          )}
        </dl>

        <div className="grid gap-3 border-t border-slate-100 pt-4">
          {role === 'admin' ? (
            <div>
              <button type="button" className={secondary} disabled={busy !== undefined} onClick={() => void changeRole('user')}>
                {busy === 'role' ? 'Saving…' : 'Remove admin role'}
              </button>
              <p className="mt-1 text-xs text-slate-600">The site always keeps at least one admin.</p>
            </div>
          ) : (
            <div>
              <button type="button" className={secondary} disabled={busy !== undefined || !props.emailVerified} onClick={() => void changeRole('admin')}>
                {busy === 'role' ? 'Saving…' : 'Make admin'}
              </button>
              {!props.emailVerified && <p className="mt-1 text-xs text-slate-600">They must verify their email before they can become an admin.</p>}
            </div>
          )}

          {!props.emailVerified && (
            <div>
              <button type="button" className={secondary} disabled={busy !== undefined || disabled} onClick={() => void resendVerification()}>
                {busy === 'verification' ? 'Sending…' : 'Send verification email again'}
              </button>
              <p className="mt-1 text-xs text-slate-600">{disabled ? 'Enable the account first.' : `A new link to ${props.email}; the old one stops working once this one is used.`}</p>
            </div>
          )}
        </div>

        <div className="border-t border-slate-100 pt-4">
          {disabled ? (
            <button type="button" className={secondary} disabled={busy !== undefined} onClick={() => void enable()}>
              {busy === 'enable' ? 'Enabling…' : 'Enable account'}
            </button>
          ) : props.isSelf ? (
            <p className="text-sm text-slate-600">This is your own account: another admin can disable it, you cannot.</p>
          ) : (
            <form
              className="grid gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                void disable();
              }}
            >
              <TextArea
                label="Reason for disabling (optional)"
                value={reasonDraft}
                onValue={setReasonDraft}
                rows={2}
                maxLength={DISABLE_REASON_MAX}
                hint="Only admins see it, here and in the activity log."
              />
              <div>
                <button type="submit" className={danger} disabled={busy !== undefined}>
                  {busy === 'disable' ? 'Disabling…' : 'Disable account…'}
                </button>
              </div>
            </form>
          )}
        </div>
      </Section>

      <Section
        title={`Active sessions (${sessionTotal})`}
        description="Browsers signed in to this account now. The network is shown without its last part: enough to tell places apart, not to identify a device."
      >
        {sessions.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="user-no-sessions">
            {disabled ? 'None: the account is disabled.' : 'Not signed in anywhere.'}
          </p>
        ) : (
          <ul className="grid gap-3" aria-label="Active sessions, most recently active first">
            {sessions.map((s) => (
              <li key={s.id} className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="user-session">
                <p className="font-semibold break-words text-ink">{s.device}</p>
                <p className="text-slate-600">Network {s.network}</p>
                <p className="mt-1 text-xs text-slate-600">
                  Signed in {time(s.signedInAt, props.timeZone)} · last refreshed {time(s.lastActiveAt, props.timeZone)} · expires {time(s.expiresAt, props.timeZone)}
                </p>
              </li>
            ))}
            {sessionTotal > sessions.length && <li className="text-xs text-slate-600">and {sessionTotal - sessions.length} more.</li>}
          </ul>
        )}
      </Section>
      {dialog}
    </div>
  );
}
