/**
 * The live streams open in this server process, indexed by the account and the session each was opened
 * under, so that ending a grant finds its streams without scanning every open one. On globalThis: API
 * routes, Actions and better-auth's hooks may be bundled into different chunks and must share one registry
 * (like the chat hub).
 */

/** What a stream shows: the cap on open streams is per account and kind. */
export type StreamKind = 'admin-inbox' | 'chat-conversation';

export interface GrantHolder {
  userId: string;
  /** The session the stream was opened with; null when the caller had none to give. */
  sessionId: string | null;
  kind: StreamKind;
}

/** Whose streams end: every one of an account, or those opened with one session. */
export type GrantsEnded = { userId: string } | { sessionId: string };

interface Entry extends GrantHolder {
  end(): void;
}

interface Registry {
  byUser: Map<string, Set<Entry>>;
  bySession: Map<string, Set<Entry>>;
}

const holder = globalThis as unknown as { __agencyLiveGrants?: Registry };
const registry = (holder.__agencyLiveGrants ??= { byUser: new Map(), bySession: new Map() });

function addTo(index: Map<string, Set<Entry>>, key: string, entry: Entry) {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(entry);
}

function removeFrom(index: Map<string, Set<Entry>>, key: string, entry: Entry) {
  const set = index.get(key);
  if (!set) return;
  set.delete(entry);
  if (set.size === 0) index.delete(key);
}

function unregister(entry: Entry) {
  removeFrom(registry.byUser, entry.userId, entry);
  if (entry.sessionId !== null) removeFrom(registry.bySession, entry.sessionId, entry);
}

/** Registers a stream; `end` is called (once) when its grant ends. Returns the release function. */
export function register(grant: GrantHolder, end: () => void): () => void {
  const entry: Entry = { ...grant, end };
  addTo(registry.byUser, entry.userId, entry);
  if (entry.sessionId !== null) addTo(registry.bySession, entry.sessionId, entry);
  return () => unregister(entry);
}

/** Open streams of one account and kind in this process. */
export function countOpen(userId: string, kind: StreamKind): number {
  let n = 0;
  for (const entry of registry.byUser.get(userId) ?? []) if (entry.kind === kind) n += 1;
  return n;
}

/** Ends this process's streams of the event; returns how many there were. */
export function endLocalStreams(event: GrantsEnded): number {
  const index = 'userId' in event ? registry.byUser.get(event.userId) : registry.bySession.get(event.sessionId);
  const ending = [...(index ?? [])];
  for (const entry of ending) {
    unregister(entry);
    try {
      entry.end();
    } catch {
      // One broken stream must not keep the others open.
    }
  }
  return ending.length;
}
