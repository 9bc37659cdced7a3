/**
 * "The visitor asks for a person" (decision 031): the chat's intent rule, pure and browser-safe. A message
 * is read as words (lower case, accents and punctuation gone, common typos forgiven) in clauses, and counts
 * as a request for a person when one of these holds:
 * - a way of reaching someone, said by the visitor, aimed at a person: "can I talk to someone", "speak with
 *   an agent", "connect me to a representative", "I'd like a human", "get me a real person";
 * - a phrase that only means a person: "real person", "live agent", "human being", "not a bot";
 * - a short message that is nothing but a person and politeness: "human", "operator", "a human please";
 * - being called or contacted: "can I call you", "call me back", "your phone number", "get in touch".
 * What this agency sells makes the plain words risky: "agents" are AI agents ("how do your agents work?"),
 * "human" starts "human resources", "someone" builds websites ("I need someone to build my site"), and the
 * visitor's customers talk to things too ("can my customers talk to an agent?"). So a word alone is never
 * enough in a longer message: it needs the visitor as the one reaching out, or a phrase that means a person.
 */

// ---------------------------------------------------------------------------------------------------------
// Words.

/** Spellings folded to one word before anything else: contractions, text speak, split compounds. */
const REWRITES: Record<string, string> = {
  "i'd": 'i would',
  "i'm": 'i am',
  "i'll": 'i will',
  "can't": 'can not',
  cant: 'can not',
  cannot: 'can not',
  "don't": 'do not',
  dont: 'do not',
  wanna: 'want to',
  gimme: 'give me',
  lemme: 'let me',
  u: 'you',
  ya: 'you',
  pls: 'please',
  plz: 'please',
  plez: 'please',
  pleas: 'please',
  ppl: 'people',
  sb: 'somebody',
  smb: 'somebody',
  some1: 'someone',
  sum1: 'someone',
  any1: 'anyone',
  'some one': 'someone',
  'some body': 'somebody',
  'any one': 'anyone',
  'any body': 'anybody',
  'call back': 'callback',
  'e mail': 'email',
  'customer service': 'support',
  'customer support': 'support',
  'customer care': 'support',
  'help desk': 'support',
  helpdesk: 'support',
  'sales team': 'sales',
  'support team': 'support',
  'team member': 'staff',
  'staff member': 'staff',
  'human being': 'human',
  'phone number': 'phonenumber',
  'telephone number': 'phonenumber',
  telephone: 'phone',
  reps: 'representative',
  rep: 'representative',
  agnt: 'agent',
  tlak: 'talk',
  tak: 'talk',
  spk: 'speak',
  spek: 'speak',
  spik: 'speak',
  tlk: 'talk',
  wth: 'with',
  wit: 'with',
  ti: 'to',
  too: 'to',
  prson: 'person',
  reel: 'real',
  rael: 'real',
  rela: 'real',
  persn: 'person',
  hman: 'human',
  humn: 'human',
};

/** The words the rules look for: a misspelt one (one slip in five letters or more, two in ten) is read as it. */
const KEYWORDS = [
  'human',
  'humans',
  'person',
  'people',
  'someone',
  'somebody',
  'anyone',
  'anybody',
  'agent',
  'agents',
  'operator',
  'operators',
  'representative',
  'representatives',
  'support',
  'speak',
  'connect',
  'transfer',
  'contact',
  'please',
  'actual',
  'genuine',
  'phonenumber',
  'callback',
] as const;

/** Real words one slip away from a keyword: never "corrected" ("persona" is not "persons"). */
const REAL_WORDS = new Set(['persona', 'personas', 'humane', 'agency', 'agenda', 'urgent', 'speaks', 'steak', 'sneak', 'spear', 'speck', 'contract', 'contacts', 'phones', 'phoned', 'supports', 'actuals', 'peoples', 'pleased', 'plead', 'lease', 'leases', 'factual']);

/** Damerau-Levenshtein distance (adjacent swaps count one), stopping early once over `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

const KNOWN = new Set<string>([...KEYWORDS, ...Object.values(REWRITES).flatMap((v) => v.split(' '))]);

/** The keyword a word stands for, typos forgiven; the word itself when it is none. */
function spelled(word: string): string {
  if (word.length < 5 || KNOWN.has(word) || REAL_WORDS.has(word)) return word;
  const max = word.length >= 10 ? 2 : 1;
  for (const keyword of KEYWORDS) {
    if (Math.abs(keyword.length - word.length) <= max && editDistance(word, keyword, max) <= max) return keyword;
  }
  return word;
}

const REWRITE_PATTERN = new RegExp(
  `\\b(?:${Object.keys(REWRITES)
    .sort((a, b) => b.length - a.length)
    .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|')})(?![\\w'])`,
  'g',
);

/** The message as clauses of words: lower case, no accents, curly apostrophes straight, typos mended. */
export function clausesOf(text: string): string[][] {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[‘’ʼ`´]/g, "'")
    .replace(/-/g, ' ');
  const tokenize = (clause: string) => (clause.match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? []).map((w) => w.replace(/'s$/, ''));
  return plain
    .split(/[.!?;:,()\n]+|\s+(?:but|and|or|so|then)\s+/)
    .map((clause) => tokenize(tokenize(clause).map(spelled).join(' ').replace(REWRITE_PATTERN, (m) => REWRITES[m.replace(/\s+/g, ' ')] ?? m)))
    .filter((words) => words.length > 0);
}

// ---------------------------------------------------------------------------------------------------------
// The rules.

const set = (...words: string[]) => new Set(words);

/** Who a visitor may ask to reach ("talk to …", "contact …"). */
const PERSON = set(
  'human', 'humans', 'person', 'people', 'someone', 'somebody', 'anyone', 'anybody', 'agent', 'agents', 'operator', 'operators', 'representative',
  'representatives', 'support', 'sales', 'staff', 'team', 'owner', 'founder', 'manager', 'consultant', 'advisor', 'adviser', 'expert', 'specialist',
  'employee', 'colleague', 'guy', 'man', 'woman', 'lady',
);
/** Who a visitor may ask for without a verb ("I want a human") and alone ("human?"): not "agent" or "someone". */
const PERSON_ITSELF = set('human', 'humans', 'person', 'operator', 'representative', 'representatives', 'support');
/** Words before a plural that make persons of it ("real people", "one of your agents"). */
const MAKES_PERSONS = set('real', 'actual', 'live', 'genuine', 'human', 'one', 'of');
/** Words that make a machine of what follows ("AI agent", "voice agent", "chatbot operator"). */
const MACHINE = set('ai', 'virtual', 'voice', 'chat', 'chatbot', 'bot', 'digital', 'automated', 'automation', 'autonomous', 'smart', 'booking', 'software', 'llm', 'gpt', 'robot', 'robotic');
/** What may stand between a verb and the person: "to [one of] [your] [real] person". */
const GLUE = set('a', 'an', 'the', 'some', 'one', 'of', 'any', 'from', 'in', 'on', 'at', 'your', 'yours', 'ur', 'real', 'actual', 'live', 'genuine', 'proper', 'normal', 'regular', 'human', 'please', 'now', 'right', 'directly', 'again', 'another', 'other');
/** Verbs of reaching someone that take "to"/"with" ("talk to"), and those that take the person directly ("reach a person"). */
const REACH = set('talk', 'talking', 'talked', 'speak', 'speaking', 'chat', 'chatting', 'connect', 'connected', 'transfer', 'transferred', 'put', 'switch', 'forward', 'forwarded', 'pass', 'passed', 'escalate', 'escalated', 'get', 'communicate');
const REACH_DIRECT = set('reach', 'contact', 'call', 'phone', 'ring', 'email');
const JOIN = set('to', 'with', 'through', 'me', 'us', 'over', 'hold', 'of');
/** A request's head: "I want/need/would like/prefer/can I have/get/give me …". */
const WANT = set('want', 'need', 'like', 'prefer', 'require', 'request', 'have', 'get', 'give', 'find', 'send', 'bring');
/**
 * Someone other than the visitor doing the reaching ("can my clients talk to an agent?", "do your agents
 * speak to people?", "can the bot hand over to a real person?"): such a word before the verb in its clause
 * makes it a question about the product.
 */
const SOMEONE_ELSE = set(
  'customers', 'customer', 'clients', 'client', 'users', 'user', 'visitors', 'visitor', 'patients', 'patient', 'leads', 'callers', 'caller', 'guests',
  'they', 'he', 'she', 'agents', 'agent', 'bot', 'bots', 'chatbot', 'chatbots', 'assistant', 'ai', 'system', 'tool', 'software', 'app', 'widget', 'receptionist',
);
/** What a message that is only a request may hold besides the person ("a human please", "can I get an operator now"). */
const POLITE = set(
  'a', 'an', 'the', 'please', 'now', 'asap', 'hi', 'hello', 'hey', 'ok', 'okay', 'yes', 'just', 'thanks', 'thank', 'you', 'i', 'me', 'want', 'need',
  'can', 'could', 'get', 'give', 'real', 'live', 'actual', 'to', 'talk', 'speak', 'with', 'some', 'one', 'only', 'urgent', 'urgently', 'there', 'is',
  'anyone', 'anybody', 'someone', 'somebody', 'agent', 'human', 'person',
);
/** What may end a request for a person ("I want a human [please]"), unlike "I need a person to build my site". */
const REQUEST_END = set('please', 'now', 'asap', 'here', 'there', 'instead', 'today', 'urgently', 'thanks');

/** Nobody but the visitor in the five words before position `v`. */
const visitorSpeaks = (words: string[], v: number) => !words.slice(Math.max(0, v - 5), v).some((w) => SOMEONE_ELSE.has(w));

/** A person named from position `i`, with only glue before it: "a real person", "one of your agents", "support". */
function personAt(words: string[], i: number): boolean {
  for (let j = i; j < words.length && j < i + 5; j++) {
    const w = words[j]!;
    if (MACHINE.has(w)) return false;
    // "human" before another person word is its adjective ("a human agent").
    if (PERSON.has(w) && !(w === 'human' && PERSON.has(words[j + 1] ?? ''))) {
      // A bare plural "agents" or "people" is the product, or everyone: "talk to your agents", "talk to people".
      return !(w === 'agents' || w === 'people') || words.slice(i, j).some((b) => MAKES_PERSONS.has(b));
    }
    if (!GLUE.has(w)) return false;
  }
  return false;
}

/** "talk to someone", "speak with an agent", "connect me to a human", "put me through to support", "reach a person". */
function reachesPerson(words: string[]): boolean {
  return words.some((w, v) => {
    if (!visitorSpeaks(words, v)) return false;
    if (REACH_DIRECT.has(w) && personAt(words, v + 1)) return true;
    // "help from a human", "an answer from a real person", "a call with someone".
    if (['help', 'answer', 'reply', 'advice'].includes(w) && words[v + 1] === 'from') return personAt(words, v + 2);
    if (!REACH.has(w) && !REACH_DIRECT.has(w)) return false;
    let i = v + 1;
    while (i < words.length && i <= v + 4 && JOIN.has(words[i]!)) i++;
    return i > v + 1 && personAt(words, i);
  });
}

/** "is there someone I can talk to", "someone to speak with", "can somebody call me", "anyone I could chat with". */
function personToReach(words: string[]): boolean {
  return words.some((w, p) => {
    if (!['someone', 'somebody', 'anyone', 'anybody', 'person', 'human', 'who'].includes(w)) return false;
    const after = words.slice(p + 1, p + 6);
    const v = after.findIndex((x) => REACH.has(x) || REACH_DIRECT.has(x));
    if (v < 0) return false;
    const before = after.slice(0, v);
    const rest = after.slice(v + 1);
    // "someone I can talk to", "someone to talk to", "someone to talk with now": the talk ends the clause.
    if (before.every((x) => ['i', 'we', 'can', 'could', 'may', 'might', 'to', 'do', 'should'].includes(x)) && (rest.length === 0 || (JOIN.has(rest[0]!) && rest.slice(1).every((x) => REQUEST_END.has(x) || x === 'about')))) return before.length > 0 || rest.length <= 1;
    // "someone call me", "can somebody talk to me", "anyone to contact me".
    return before.every((x) => ['to', 'please', 'can', 'could'].includes(x)) && (rest[0] === 'me' || rest[0] === 'us' || (JOIN.has(rest[0] ?? '') && (rest[1] === 'me' || rest[1] === 'us')));
  });
}

/** "I want a human", "I'd like a real person", "give me an operator", "can I have a person please". */
function wantsPersonItself(words: string[]): boolean {
  return words.some((w, v) => {
    if (!WANT.has(w) || !visitorSpeaks(words, v)) return false;
    let i = v + 1;
    while (i < words.length && ['me', 'us', 'a', 'an', 'the', 'some', 'one'].includes(words[i]!)) i++;
    const [first, second, third] = words.slice(i, i + 3);
    if (first && ['real', 'actual', 'live', 'genuine'].includes(first) && second && PERSON.has(second) && second !== 'people' && second !== 'agents') return true;
    if (!first || !PERSON_ITSELF.has(first)) return false;
    // "I need a person to build my website" is a job, not a request: only the end, politeness, or a way to talk.
    return second === undefined || REQUEST_END.has(second) || (second === 'to' && third !== undefined && REACH.has(third));
  });
}

/** "real person", "live agent", "human operator", "someone real", "not a bot", "are you human". */
function meansPerson(words: string[]): boolean {
  const nextAfterA = (i: number) => (words[i] === 'a' ? words[i + 1] : words[i]);
  return words.some((w, i) => {
    if (!visitorSpeaks(words, i)) return false;
    const next = words[i + 1] ?? '';
    if (['real', 'actual', 'live', 'genuine'].includes(w) && ['person', 'human', 'humans', 'agent', 'operator', 'representative', 'someone', 'somebody', 'man', 'woman'].includes(next)) return true;
    if (w === 'human' && ['agent', 'operator', 'representative'].includes(next)) return true;
    if (['someone', 'somebody', 'person', 'human'].includes(w) && next === 'real') return true;
    if ((w === 'not' || w === 'no') && ['bot', 'bots', 'robot', 'robots', 'machine', 'chatbot'].includes(nextAfterA(i + 1) ?? '')) return true;
    return w === 'are' && next === 'you' && ['human', 'real'].includes(nextAfterA(i + 2) ?? '');
  });
}

/** The whole message is a person and politeness: "human", "operator!", "a human please", "support pls". */
function onlyAPerson(words: string[]): boolean {
  if (words.length === 0 || words.length > 6) return false;
  return words.some((w) => PERSON_ITSELF.has(w) || ['agent', 'someone', 'somebody', 'anyone', 'anybody'].includes(w)) && words.every((w) => POLITE.has(w) || PERSON_ITSELF.has(w));
}

/** "can I call you", "call me back", "your phone number", "email me", "call your office", "get in touch". */
function asksForCall(words: string[]): boolean {
  return words.some((w, i) => {
    if (!visitorSpeaks(words, i)) return false;
    const next = words[i + 1];
    if (['call', 'phone', 'ring', 'contact', 'email', 'text', 'reach'].includes(w) && (next === 'me' || next === 'us')) return true;
    // "What should I call you?" asks the assistant's name, "When can I reach you?" the opening hours.
    if (['call', 'phone', 'ring', 'contact', 'email', 'text', 'reach'].includes(w) && next === 'you') return !words.slice(0, i).some((b) => b === 'what' || b === 'when');
    if (['call', 'phone', 'ring'].includes(w) && next === 'your' && ['office', 'team', 'number', 'support', 'sales', 'company', 'agency'].includes(words[i + 2] ?? '')) return true;
    if (w === 'callback') return true;
    // "your phone number", not "connect my phone number".
    if (w === 'phonenumber') return !['my', 'our', 'their', 'his', 'her'].includes(words[i - 1] ?? '');
    if (w === 'give' && ['me', 'us', 'you'].includes(next ?? '') && words[i + 2] === 'a' && words[i + 3] === 'call') return true;
    return w === 'get' && next === 'in' && words[i + 2] === 'touch';
  });
}

/** Whether the visitor asks for a person (or to be called or contacted) anywhere in their message. */
export function asksForPerson(text: string): boolean {
  const clauses = clausesOf(text);
  return onlyAPerson(clauses.flat()) || clauses.some((words) => onlyAPerson(words) || reachesPerson(words) || personToReach(words) || wantsPersonItself(words) || meansPerson(words) || asksForCall(words));
}
