/**
 * The database schema. Field names follow the seed spec (camelCase in code, snake_case columns).
 * Ids are text: new records get a readable slug id, imported records keep their original ids.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow();
const money = (name: string) =>
  numeric(name, { precision: 12, scale: 2, mode: "number" });
const textList = (name: string) =>
  jsonb(name)
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => Buffer.from(v),
});

export interface PackageFeature {
  title: string;
  description: string;
}

export const services = pgTable(
  "services",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    picture: text("picture").notNull().default(""),
    /** Alt text of a picture at an outside address; a library picture's is its media row's (decision 033). */
    pictureAlt: text("picture_alt").notNull().default(""),
    price: money("price"),
    shortText: text("short_text").notNull().default(""),
    /** Optional long description (sanitized HTML) shown on the detail page. */
    description: text("description").notNull().default(""),
    benefits: textList("benefits"),
    order: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
);

export const demos = pgTable("demos", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  profilePicture: text("profile_picture").notNull().default(""),
  /** Alt text of a picture at an outside address; a library picture's is its media row's (decision 033). */
  profilePictureAlt: text("profile_picture_alt").notNull().default(""),
  shortText: text("short_text").notNull().default(""),
  /** Optional long description (sanitized HTML) shown on the detail page. */
  description: text("description").notNull().default(""),
  suitableFor: textList("suitable_for"),
  order: integer("sort_order").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const packages = pgTable(
  "packages",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    picture: text("picture").notNull().default(""),
    /** Alt text of a picture at an outside address; a library picture's is its media row's (decision 033). */
    pictureAlt: text("picture_alt").notNull().default(""),
    shortText: text("short_text").notNull().default(""),
    priceSetup: money("price_setup"),
    priceMonthly: money("price_monthly"),
    features: jsonb("features")
      .$type<PackageFeature[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isActive: boolean("is_active").notNull().default(true),
    order: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
);

/**
 * includedServiceIds of a package, in order; a deleted service leaves every package it was in, and a
 * renamed id (the admin's "URL name") follows into every package.
 */
export const packageServices = pgTable(
  "package_services",
  {
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, {
        onDelete: "cascade",
        onUpdate: "cascade",
      }),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id, {
        onDelete: "cascade",
        onUpdate: "cascade",
      }),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.packageId, t.serviceId] }),
    index("package_services_service_idx").on(t.serviceId),
  ],
);

export const articles = pgTable(
  "articles",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    content: text("content").notNull().default(""),
    featuredImage: text("featured_image").notNull().default(""),
    /** Alt text of a featured image at an outside address; a library picture's is its media row's (decision 033). */
    featuredImageAlt: text("featured_image_alt").notNull().default(""),
    authorName: text("author_name").notNull().default(""),
    authorImage: text("author_image").notNull().default(""),
    tags: textList("tags"),
    published: boolean("published").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("articles_published_created_idx").on(t.published, t.createdAt),
  ],
);

export const faqs = pgTable(
  "faqs",
  {
    id: text("id").primaryKey(),
    question: text("question").notNull(),
    /** Sanitized HTML. */
    answer: text("answer").notNull(),
    order: integer("sort_order").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
);

/** Single documents keyed by name: 'landingPage' (blockOrder, hidden), 'siteContent' (texts, links). */
export const appConfig = pgTable("app_config", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: updatedAt(),
});

/** SEO metadata per public page, keyed by the page's path ('/', '/services', ...). */
export const seoPages = pgTable("seo_pages", {
  path: text("path").primaryKey(),
  title: text("title").notNull().default(""),
  description: text("description").notNull().default(""),
  keywords: text("keywords").notNull().default(""),
  image: text("image").notNull().default(""),
  url: text("url").notNull().default(""),
  type: text("type").notNull().default("website"),
  author: text("author").notNull().default(""),
  publishedTime: timestamp("published_time", {
    withTimezone: true,
    mode: "date",
  }),
  modifiedTime: timestamp("modified_time", {
    withTimezone: true,
    mode: "date",
  }),
  /** Whether the site name follows the title in <title>; null leaves it to the title (decision 030). */
  siteNameAfterTitle: boolean("site_name_after_title"),
  updatedAt: updatedAt(),
});

/** Uploaded or seeded images: bytes live in the database so one node and many serve the same files. */
export const media = pgTable("media", {
  /** Content hash (hex sha-256 prefix) — the URL is /media/{id}.{ext} and never changes meaning. */
  id: text("id").primaryKey(),
  contentType: text("content_type").notNull(),
  width: integer("width").notNull(),
  height: integer("height").notNull(),
  size: integer("size").notNull(),
  alt: text("alt").notNull().default(""),
  originalName: text("original_name").notNull().default(""),
  data: bytea("data").notNull(),
  createdAt: createdAt(),
});

export type Service = typeof services.$inferSelect;
export type Demo = typeof demos.$inferSelect;
export type PackageRow = typeof packages.$inferSelect;
export type Article = typeof articles.$inferSelect;
export type Faq = typeof faqs.$inferSelect;
export type SeoPage = typeof seoPages.$inferSelect;
export type Media = typeof media.$inferSelect;

/*
 * Member accounts, owned by better-auth (src/server/auth). JS keys are better-auth's field names (its
 * Drizzle adapter maps by key); columns are snake_case like the rest of the schema.
 */
const authTime = (name: string) =>
  timestamp(name, { withTimezone: true, mode: "date" });

export type UserRole = "user" | "admin";

/** The seed's user profile: firstName, lastName, role, optional phone/website/signupSource. */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** "First Last", kept for better-auth and mail greetings. */
    name: text("name").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    role: text("role").$type<UserRole>().notNull().default("user"),
    phone: text("phone"),
    website: text("website"),
    signupSource: text("signup_source"),
    /** Admin plugin: a disabled account ("banned") cannot sign in and loses its sessions. */
    banned: boolean("banned").notNull().default(false),
    banReason: text("ban_reason"),
    banExpires: authTime("ban_expires"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_idx").on(t.email),
    index("users_role_idx").on(t.role),
    // The admin's user list, newest first (its default order).
    index("users_created_idx").on(t.createdAt, t.id),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: authTime("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Sign-in methods of a user; email + password is providerId 'credential' with the password hash. */
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    password: text("password"),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: authTime("access_token_expires_at"),
    refreshTokenExpiresAt: authTime("refresh_token_expires_at"),
    scope: text("scope"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

/** One-time values (password-reset tokens); consumed on use. */
export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: authTime("expires_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

/** better-auth's rate-limit counters, in the database so limits hold across restarts and nodes. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

export type User = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/**
 * Failed sign-ins per account (by a hash of the address, known or not), in a fixed window: guessing one
 * account's password is limited however many client addresses the guesser has.
 */
export const signInFailures = pgTable("sign_in_failures", {
  accountKey: text("account_key").primaryKey(),
  failures: integer("failures").notNull(),
  windowStartedAt: timestamp("window_started_at", {
    withTimezone: true,
    mode: "date",
  }).notNull(),
});

/**
 * The one-time admin claim printed to the server log while no admin exists (only its hash is kept). A
 * verified user who opens the link becomes admin; any admin existing ends every claim.
 */
export const adminClaims = pgTable("admin_claims", {
  tokenHash: text("token_hash").primaryKey(),
  createdAt: createdAt(),
});

/**
 * Every admin change: who, what (the record's type and id, its fields before and after), when. The admin
 * activity page lists it; a content change can be reverted from it (the revert is an entry of its own).
 */
export const activityLog = pgTable(
  "activity_log",
  {
    id: text("id").primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    /** Null once the account is deleted; actorEmail keeps who it was. */
    actorId: text("actor_id").references(() => users.id, {
      onDelete: "set null",
    }),
    actorEmail: text("actor_email").notNull(),
    /** 'create' | 'update' | 'delete' | 'reorder' | 'revert' | 'import' | 'upload' … */
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    summary: text("summary").notNull().default(""),
    before: jsonb("before"),
    after: jsonb("after"),
    /** For a revert: the entry it undid. */
    revertOf: text("revert_of"),
  },
  (t) => [
    index("activity_at_idx").on(t.at),
    index("activity_entity_idx").on(t.entityType, t.entityId),
  ],
);

/** Old public paths that moved (a renamed slug or id): answered with a 301 to the new path. */
export const redirects = pgTable("redirects", {
  fromPath: text("from_path").primaryKey(),
  toPath: text("to_path").notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------------------------------------------------
// Leads: the free audit, the chat, and every lead event with where the person came from.

const at = (name: string) =>
  timestamp(name, { withTimezone: true, mode: "date" });

/** UTM parameters and referrer of the visit that brought the person (kept in session storage from the landing URL). */
export interface Attribution {
  sourcePage?: string;
  referrer?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
}

/**
 * A free online-presence audit request from /free-audit. Status moves new → in progress → report sent →
 * closed (and back); every change, note and assignment is an admin write recorded in the activity log.
 */
export const auditRequests = pgTable(
  "audit_requests",
  {
    id: text("id").primaryKey(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    fullName: text("full_name").notNull(),
    email: text("email").notNull(),
    businessName: text("business_name").notNull(),
    website: text("website").notNull().default(""),
    phone: text("phone").notNull().default(""),
    /** 'clinic' | 'coach' | 'other' */
    businessType: text("business_type").notNull(),
    /** Of 'more-leads' | 'nurturing' | 'appointment-reminders' | 'lead-capture-funnel'. */
    goals: textList("goals"),
    message: text("message").notNull().default(""),
    consentAt: at("consent_at").notNull(),
    /** The signed-in member who sent it (their dashboard lists it). */
    userId: text("user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    attribution: jsonb("attribution")
      .$type<Attribution>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    index("audit_requests_created_idx").on(t.createdAt),
    index("audit_requests_user_idx").on(t.userId),
    index("audit_requests_email_idx").on(t.email),
    // A person's requests by their lower-cased email, newest first: lead_profiles' triggers (migration 0023).
    index("audit_requests_person_idx").on(sql`lower(${t.email})`, t.createdAt),
  ],
);

/** Internal notes on an audit request: never shown to the requester. */
export const auditNotes = pgTable(
  "audit_notes",
  {
    id: text("id").primaryKey(),
    requestId: text("request_id")
      .notNull()
      .references(() => auditRequests.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, {
      onDelete: "set null",
    }),
    /** Kept when the author's account is deleted. */
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("audit_notes_request_idx").on(t.requestId, t.createdAt)],
);

/**
 * Working a lead (issue 23): a person of the leads list (a lower-cased email of lead_events) with a stage,
 * an owner among the admins and a day to follow up. No row: a new lead nobody owns.
 */
export const leadPeople = pgTable(
  "lead_people",
  {
    email: text("email").primaryKey(),
    /** 'new' | 'contacted' | 'call-booked' | 'client' | 'not-a-fit' (src/shared/schemas/lead-work.ts) */
    stage: text("stage").notNull().default("new"),
    ownerId: text("owner_id").references(() => users.id, { onDelete: "set null" }),
    /** A calendar day of the site's time zone. */
    followUpOn: date("follow_up_on", { mode: "string" }),
    /** Marked by an admin when the person answered: their follow-up sequences stop. */
    repliedAt: at("replied_at"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("lead_people_stage_idx").on(t.stage),
    index("lead_people_owner_idx").on(t.ownerId),
    index("lead_people_follow_up_idx").on(t.followUpOn),
  ],
);

/** The morning reminder of follow-ups due (issue 23): one row per owner and day, made with its email. */
export const leadReminders = pgTable(
  "lead_reminders",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The day the follow-ups fall due (site time zone). */
    day: date("day", { mode: "string" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.day] })],
);

/**
 * A call booked on the external scheduler (issue 23), as its webhooks told us: one row per booking of the
 * provider, its latest state. A reschedule that the provider sends as a new booking (Cal.com, Calendly)
 * moves this row to the new id and time, so a person's booking is one row whatever its history.
 */
export const bookings = pgTable(
  "bookings",
  {
    id: text("id").primaryKey(),
    /** 'cal.com' | 'calendly' | 'webhook' (src/server/modules/bookings/payloads.ts) */
    provider: text("provider").notNull(),
    /** The provider's id of the booking (Cal.com uid, Calendly invitee URI, the generic form's id). */
    externalId: text("external_id").notNull(),
    /** Lower-cased, as lead_people.email. */
    email: text("email").notNull(),
    startsAt: at("starts_at"),
    /** 'booked' | 'cancelled' */
    status: text("status").notNull(),
    /** The person's stage before this booking moved it to "call booked" (a cancellation goes back to it). */
    stageBefore: text("stage_before"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("bookings_provider_external_idx").on(t.provider, t.externalId),
    index("bookings_email_idx").on(t.email),
  ],
);

/** A booking's later changes (rescheduled, cancelled), for the person's timeline. */
export const bookingChanges = pgTable(
  "booking_changes",
  {
    id: text("id").primaryKey(),
    bookingId: text("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    at: at("at").notNull().defaultNow(),
    /** 'rescheduled' | 'cancelled' */
    action: text("action").notNull(),
    startsAt: at("starts_at"),
  },
  (t) => [index("booking_changes_email_at_idx").on(t.email, t.at)],
);

/**
 * Webhook deliveries already taken (replay refusal): the provider and the delivery's own key (its id, or
 * its signature where the provider sends no id). Kept a day, far longer than a signature is accepted.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    provider: text("provider").notNull(),
    deliveryKey: text("delivery_key").notNull(),
    receivedAt: at("received_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.deliveryKey] }), index("webhook_deliveries_received_idx").on(t.receivedAt)],
);

/** The team's mail templates for writing to a lead (issue 23): placeholders filled when sent. */
export const leadMailTemplates = pgTable("lead_mail_templates", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  position: integer("position").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Follow-up sequences (issue 23, decision 049): one per trigger ('audit-requested' | 'report-sent' |
 * 'chat-lead', src/shared/schemas/lead-sequences.ts), its steps ({ delayDays, subject, body }) in order.
 */
export const leadSequences = pgTable("lead_sequences", {
  trigger: text("trigger").primaryKey(),
  active: boolean("active").notNull().default(false),
  steps: jsonb("steps")
    .$type<{ delayDays: number; subject: string; body: string }[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  updatedAt: updatedAt(),
});

/**
 * A person in a sequence: once per trigger and person. `nextStep` is the index of the step to send next;
 * its job in `jobs` is `sequence-step:<id>:<step>`. Ends 'completed' after the last step, or 'stopped'
 * (booked, replied, unsubscribed, a client or not a fit, the sequence turned off).
 */
export const leadSequenceEnrollments = pgTable(
  "lead_sequence_enrollments",
  {
    id: text("id").primaryKey(),
    trigger: text("trigger").notNull(),
    /** Lower-cased, as the leads pages key a person. */
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    /** The audit request or conversation that enrolled them. */
    refId: text("ref_id"),
    /** When they agreed to be contacted on the form that enrolled them. */
    consentedAt: at("consented_at").notNull(),
    enrolledAt: at("enrolled_at").notNull().defaultNow(),
    nextStep: integer("next_step").notNull().default(0),
    /** When the next step is due (quiet hours applied when it is queued); null once ended. */
    nextAt: at("next_at"),
    /** 'active' | 'completed' | 'stopped' */
    status: text("status").notNull().default("active"),
    /** SEQUENCE_STOP_LABELS' keys when stopped. */
    stopReason: text("stop_reason").notNull().default(""),
    endedAt: at("ended_at"),
  },
  (t) => [uniqueIndex("lead_sequence_enrollments_trigger_email_idx").on(t.trigger, t.email), index("lead_sequence_enrollments_email_idx").on(t.email)],
);

/** Each step of an enrolment sent (or skipped) once: the key makes a second send impossible. */
export const leadSequenceSends = pgTable(
  "lead_sequence_sends",
  {
    enrollmentId: text("enrollment_id")
      .notNull()
      .references(() => leadSequenceEnrollments.id, { onDelete: "cascade" }),
    step: integer("step").notNull(),
    /** The queued mail; null when the step was skipped (skipReason). */
    mailId: text("mail_id"),
    skipReason: text("skip_reason").notNull().default(""),
    at: at("at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.enrollmentId, t.step] })],
);

/**
 * An address's unsubscribe link (one per address, its token stored hashed) and whether it was used: an
 * unsubscribed address gets no sequence mail again.
 */
export const mailUnsubscribes = pgTable("mail_unsubscribes", {
  email: text("email").primaryKey(),
  tokenHash: text("token_hash").notNull().unique(),
  unsubscribedAt: at("unsubscribed_at"),
  createdAt: createdAt(),
});

/**
 * A person's other address (issue 39): two people merged into one keep the other's lower-cased address here,
 * so a later lead event with it joins the person it was merged into. One row per address merged away.
 */
export const leadAliases = pgTable(
  "lead_aliases",
  {
    alias: text("alias").primaryKey(),
    /** The person's address now (lower-cased, as lead_people.email). */
    email: text("email").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("lead_aliases_email_idx").on(t.email)],
);

/** The team's notes on a person (issue 23): never shown or sent to the person. */
export const leadNotes = pgTable(
  "lead_notes",
  {
    id: text("id").primaryKey(),
    /** Lower-cased, as lead_people.email; a note may come before any stage is set. */
    email: text("email").notNull(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    /** Kept when the author's account is deleted. */
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("lead_notes_email_idx").on(t.email, t.createdAt)],
);

/**
 * The automatic check of a requester's website (issue 22): one row per run, queued when the request
 * arrives and again on "Run again" (the history shows what changed). A site that does not answer is a
 * finished run whose checks say so; `failed` is for runs the server itself could not finish.
 */
export const siteAuditRuns = pgTable(
  "site_audit_runs",
  {
    id: text("id").primaryKey(),
    requestId: text("request_id")
      .notNull()
      .references(() => auditRequests.id, { onDelete: "cascade" }),
    /** The address audited, normalised (scheme added, IDN host in punycode). */
    url: text("url").notNull(),
    /** 'queued' | 'running' | 'done' | 'failed' */
    status: text("status").notNull().default("queued"),
    /** The admin who asked for it again; null for the run made when the request arrived. */
    requestedBy: text("requested_by").references(() => users.id, {
      onDelete: "set null",
    }),
    createdAt: createdAt(),
    startedAt: at("started_at"),
    finishedAt: at("finished_at"),
    /** 0–100, null until done (or when nothing could be scored). */
    score: integer("score"),
    /** AuditFindings (checks, category scores) as the checks concluded. */
    findings: jsonb("findings"),
    /** What was fetched (the SiteSnapshot without page bodies): the pages, files and timings behind the findings. */
    fetched: jsonb("fetched"),
    error: text("error"),
  },
  (t) => [index("site_audit_runs_request_idx").on(t.requestId, t.createdAt)],
);

/**
 * The owner's working copy of a request's report (issue 22): a summary, a note per check and the checks left
 * out, keyed by the checks' stable ids so they carry over to a run made again. One row per request.
 */
export const auditReportDrafts = pgTable("audit_report_drafts", {
  requestId: text("request_id")
    .primaryKey()
    .references(() => auditRequests.id, { onDelete: "cascade" }),
  summary: text("summary").notNull().default(""),
  /** { [checkId]: note } */
  notes: jsonb("notes").$type<Record<string, string>>().notNull().default({}),
  /** Check ids left out of the report. */
  hidden: jsonb("hidden").$type<string[]>().notNull().default([]),
  updatedAt: at("updated_at").notNull().defaultNow(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
});

/**
 * A report as sent: the run it shows and the draft as it was, frozen, behind a private link whose token is
 * stored only as its SHA-256 (the link cannot be rebuilt from the database). Opening it is counted here.
 */
export const auditReports = pgTable(
  "audit_reports",
  {
    id: text("id").primaryKey(),
    requestId: text("request_id")
      .notNull()
      .references(() => auditRequests.id, { onDelete: "cascade" }),
    runId: text("run_id")
      .notNull()
      .references(() => siteAuditRuns.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    summary: text("summary").notNull(),
    notes: jsonb("notes").$type<Record<string, string>>().notNull(),
    hidden: jsonb("hidden").$type<string[]>().notNull(),
    sentTo: text("sent_to").notNull(),
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    sentAt: at("sent_at").notNull().defaultNow(),
    expiresAt: at("expires_at").notNull(),
    firstOpenedAt: at("first_opened_at"),
    lastOpenedAt: at("last_opened_at"),
    openCount: integer("open_count").notNull().default(0),
  },
  (t) => [index("audit_reports_request_idx").on(t.requestId, t.sentAt)],
);

/**
 * The one durable job queue (decision 042): mail delivery and website audits today. Every server process
 * runs the worker; a job is claimed by one process at a time (`FOR UPDATE SKIP LOCKED`) and leased until
 * `running_until`, so a process that dies mid-job leaves it to be taken again once the lease runs out.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    /** 'mail' | 'site-audit' | 'lead-reminders' */
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    /** Not taken before this time (the first run, or the next try after a failure). */
    runAt: at("run_at").notNull().defaultNow(),
    /** Set while a process works on it: the lease's end. */
    runningUntil: at("running_until"),
    lastError: text("last_error"),
    finishedAt: at("finished_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`${t.finishedAt} is null`),
    index("jobs_kind_running_idx").on(t.kind, t.runningUntil).where(sql`${t.finishedAt} is null`),
  ],
);

/**
 * Mail that must not be lost (audit confirmations, admin notifications, chat leads): written in the same
 * transaction as what it is about, with a 'mail' job in `jobs` that sends it with retries and backoff.
 */
export const mailQueue = pgTable(
  "mail_queue",
  {
    id: text("id").primaryKey(),
    /** What it is about, for the logs: 'audit-confirmation', 'audit-notification', 'chat-lead' … */
    kind: text("kind").notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull().default(""),
    /** Where replies go ('' = the site's From): the admin who wrote a mail to a lead. */
    replyTo: text("reply_to").notNull().default(""),
    /** Extra headers (a sequence mail's List-Unsubscribe and List-Unsubscribe-Post). */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** Delivery attempts and the last failure, for the lead's timeline (the job in `jobs` schedules them). */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: at("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // The emails a person was sent (their lead timeline).
    index("mail_queue_to_created_idx").on(sql`lower(${t.to})`, t.createdAt),
  ],
);

/**
 * A lead notice an admin did not get on its own (decision 057): past LEAD_NOTICES_PER_HOUR in an hour, the
 * hour's other notices wait here for one digest mail (its id set once queued). The leads themselves are in
 * the admin lists either way; this is only who was told what by mail.
 */
export const leadNoticeHolds = pgTable(
  "lead_notice_holds",
  {
    id: text("id").primaryKey(),
    adminId: text("admin_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** 'audit-request' | 'chat-lead' */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    /** The audit request's business name ('' for a chat lead). */
    detail: text("detail").notNull().default(""),
    /** The request's or the conversation's admin page. */
    url: text("url").notNull(),
    createdAt: createdAt(),
    digestMailId: text("digest_mail_id"),
  },
  (t) => [index("lead_notice_holds_waiting_idx").on(t.adminId, t.createdAt).where(sql`${t.digestMailId} is null`)],
);

/**
 * One chat conversation: a visitor's (by a hash of the random id their browser keeps in local storage) or
 * a member's. While an admin has taken it over the assistant stays quiet.
 */
export const chatConversations = pgTable(
  "chat_conversations",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the visitor's local-storage id: the raw id is the visitor's key and is never stored. */
    visitorKey: text("visitor_key"),
    userId: text("user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    /** 'open' | 'handled' */
    status: text("status").notNull().default("open"),
    takenOverBy: text("taken_over_by").references(() => users.id, {
      onDelete: "set null",
    }),
    takenOverAt: at("taken_over_at"),
    /** Contact details left in the chat (a lead once an email is given). */
    contactName: text("contact_name").notNull().default(""),
    contactEmail: text("contact_email").notNull().default(""),
    contactMessage: text("contact_message").notNull().default(""),
    contactAt: at("contact_at"),
    /** When the visitor ticked "Email me follow-ups" on the contact form (a chat-lead sequence may enrol them). */
    contactConsentAt: at("contact_consent_at"),
    /** Messages from the visitor no admin has read yet. */
    unreadForAdmin: integer("unread_for_admin").notNull().default(0),
    /** The newest message the visitor's open widget was given (its history, the stream or a poll). */
    visitorSeenSeq: bigint("visitor_seen_seq", { mode: "number" }).notNull().default(0),
    /** The newest team reply emailed to the contact address because the visitor was not there (issue 35). */
    emailedSeq: bigint("emailed_seq", { mode: "number" }).notNull().default(0),
    attribution: jsonb("attribution")
      .$type<Attribution>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    lastMessageAt: at("last_message_at").notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index("chat_conversations_visitor_idx").on(t.visitorKey),
    index("chat_conversations_user_idx").on(t.userId),
    index("chat_conversations_last_idx").on(t.lastMessageAt),
  ],
);

export interface ChatSource {
  title: string;
  href: string;
}

export const chatMessages = pgTable(
  "chat_messages",
  {
    /** Increasing: a listener resumes after the last one it has (SSE Last-Event-ID). */
    seq: bigint("seq", { mode: "number" })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => chatConversations.id, { onDelete: "cascade" }),
    /** 'visitor' | 'assistant' | 'admin' | 'system' */
    author: text("author").notNull(),
    adminId: text("admin_id").references(() => users.id, {
      onDelete: "set null",
    }),
    /** Plain text, always shown as text. */
    body: text("body").notNull(),
    sources: jsonb("sources")
      .$type<ChatSource[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [index("chat_messages_conversation_idx").on(t.conversationId, t.seq)],
);

/**
 * Every lead event in one place: an audit request, a chat lead, a sign-up, a book-a-call click, with the
 * page it happened on and the UTM parameters of the visit. The admin overview counts them per day and source.
 */
export const leadEvents = pgTable(
  "lead_events",
  {
    id: text("id").primaryKey(),
    at: at("at").notNull().defaultNow(),
    /** LEAD_KINDS of src/shared/lead-events.ts: 'audit-request' | 'chat-lead' | 'sign-up' | 'book-call' | 'call-booked' | 'report-opened' */
    kind: text("kind").notNull(),
    email: text("email").notNull().default(""),
    name: text("name").notNull().default(""),
    userId: text("user_id").references(() => users.id, {
      onDelete: "set null",
    }),
    /** The audit request, conversation or user the event is about. */
    refId: text("ref_id"),
    sourcePage: text("source_page").notNull().default(""),
    referrer: text("referrer").notNull().default(""),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    utmTerm: text("utm_term").notNull().default(""),
    utmContent: text("utm_content").notNull().default(""),
  },
  (t) => [
    index("lead_events_at_idx").on(t.at),
    index("lead_events_kind_at_idx").on(t.kind, t.at),
    index("lead_events_email_idx").on(t.email),
    // A person's events (the leads pages group by the lower-cased email).
    index("lead_events_person_at_idx").on(sql`lower(${t.email})`, t.at),
  ],
);

/**
 * Each person's lead events summed up (decision 050), one row per lower-cased email and account ('' for
 * events without one), so the leads list groups 20,000 rows instead of 200,000 events and still leaves out
 * the team's events by the same rule (the account's role now, the email an admin's). Kept by triggers on
 * lead_events (drizzle/0020_lead_person_stats.sql) whoever writes: never written by the app.
 */
export const leadPersonStats = pgTable(
  "lead_person_stats",
  {
    email: text("email").notNull(),
    /** lead_events.user_id, or '' for events without an account. */
    userKey: text("user_key").notNull(),
    firstAt: at("first_at").notNull(),
    lastAt: at("last_at").notNull(),
    total: integer("total").notNull(),
    audits: integer("audits").notNull().default(0),
    chats: integer("chats").notNull().default(0),
    signUps: integer("sign_ups").notNull().default(0),
    bookCalls: integer("book_calls").notNull().default(0),
    callsBooked: integer("calls_booked").notNull().default(0),
    reportsOpened: integer("reports_opened").notNull().default(0),
    /** The distinct names given, one per line: what the list's search reads. */
    names: text("names").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.email, t.userKey] }), index("lead_person_stats_last_idx").on(t.lastAt)],
);

/**
 * What sells, per person (issue 35): the business, phone and website they gave on their newest audit
 * request (each the newest non-empty one), the newest finished website check's score, and their newest
 * report's sending and opening. One row per lower-cased email with an audit request, kept by PostgreSQL
 * triggers on audit_requests, site_audit_runs and audit_reports (migration 0023), so every writer is
 * covered and the leads list sorts 20,000 people by score from one index.
 */
export const leadProfiles = pgTable(
  "lead_profiles",
  {
    email: text("email").primaryKey(),
    businessName: text("business_name").notNull().default(""),
    phone: text("phone").notNull().default(""),
    website: text("website").notNull().default(""),
    /** The newest audit request (the list links the score to its check). */
    requestId: text("request_id"),
    /** 0–100 of the newest finished check with a score, null when none. */
    score: integer("score"),
    scoreRequestId: text("score_request_id"),
    checkedAt: at("checked_at"),
    reportSentAt: at("report_sent_at"),
    /** The newest report's latest opening. */
    reportOpenedAt: at("report_opened_at"),
  },
  (t) => [index("lead_profiles_score_idx").on(t.score)],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * What the chat answers from (decision 012): one row per service, package, article and FAQ, with the
 * plain text to answer with and its weighted tsvector computed once on write. PostgreSQL triggers on the
 * four content tables keep it current (insert, update incl. id/slug renames and visibility, delete,
 * truncate), so every writer is covered: the content engine, the import, the seed. Never written by the app.
 */
export const searchDocuments = pgTable(
  "search_documents",
  {
    /** 'faq' | 'service' | 'package' | 'article' */
    kind: text("kind").notNull(),
    /** The source row's id. */
    refId: text("ref_id").notNull(),
    title: text("title").notNull(),
    /** Where the answer links to: "/#faq-…", "/service/…", "/package/…", "/article/<slug>". */
    href: text("href").notNull(),
    /** Plain text (tags stripped, entities decoded) the assistant answers with. */
    snippet: text("snippet").notNull().default(""),
    /** Shown to visitors: an active package, a published article; services and FAQs always. */
    visible: boolean("visible").notNull().default(true),
    /** Title A, short texts B, long text C (english). */
    document: tsvector("document").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.refId] }),
    index("search_documents_document_idx").using("gin", t.document),
  ],
);

/**
 * The seed's pageViews sub-collection: a signed-in member's time on a page (decision 014). One row per
 * save (route change, tab hidden, unload, every 30 s); `at` is when the measured stretch began, `durationMs`
 * is capped on the server at the time really elapsed since then. `sessionId` is the tab's id, not the
 * auth session. Deleted with the member.
 */
export const pageTimes = pgTable(
  "page_times",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pagePath: text("page_path").notNull(),
    durationMs: integer("duration_ms").notNull(),
    at: at("at").notNull(),
    sessionId: text("session_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("page_times_user_at_idx").on(t.userId, t.at)],
);

/**
 * Each member's page-time per path, summed over page_times: total time, records and the latest one. What
 * the admin's user page shows (the top paths, the record count) without reading a member's 100,000 rows
 * on every view. PostgreSQL triggers on page_times keep it exact (insert, update incl. the import's upsert,
 * delete incl. a member's, truncate; drizzle/0011_page_time_totals.sql), so every writer is covered.
 * Never written by the app.
 */
export const pageTimeTotals = pgTable(
  "page_time_totals",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    pagePath: text("page_path").notNull(),
    totalMs: bigint("total_ms", { mode: "number" }).notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
    lastSeen: at("last_seen").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.pagePath] })],
);

/*
 * First-party analytics (decision 014): counted per UTC day, never per person. A visitor is a hash of
 * (the day's random salt, address, user agent, host); the hashes of a day are kept only to tell a new
 * visitor from a returning one that day, and are deleted with the day's salt afterwards.
 */

/** One random salt per UTC day, shared by every server process; deleted after two days. */
export const analyticsSalts = pgTable("analytics_salts", {
  day: date("day", { mode: "string" }).primaryKey(),
  salt: text("salt").notNull(),
});

/** The visitors seen on a day (salted hashes only), to count each once a day. */
export const analyticsVisitors = pgTable(
  "analytics_visitors",
  {
    day: date("day", { mode: "string" }).notNull(),
    visitorHash: text("visitor_hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.visitorHash] })],
);

/** Per day: page views, visits (entries from outside the site or direct) and unique visitors. */
export const analyticsDays = pgTable("analytics_days", {
  day: date("day", { mode: "string" }).primaryKey(),
  views: integer("views").notNull().default(0),
  visits: integer("visits").notNull().default(0),
  visitors: integer("visitors").notNull().default(0),
});

/** Page views per day and path. */
export const analyticsPages = pgTable(
  "analytics_pages",
  {
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.path] })],
);

/**
 * Visits (entries) per day by where they came from: the referrer's host ('' = direct or unknown) and the
 * visit's UTM source, medium and campaign ('' when absent).
 */
export const analyticsSources = pgTable(
  "analytics_sources",
  {
    day: date("day", { mode: "string" }).notNull(),
    referrerHost: text("referrer_host").notNull().default(""),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    visits: integer("visits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.referrerHost, t.utmSource, t.utmMedium, t.utmCampaign] })],
);

/*
 * The same page views and visits summed per week (`week` = the Monday of the days' week): what the
 * overview's top pages, sources and campaigns read for the whole weeks of a period, with only the days
 * at its ends from the per-day tables. Kept equal to the sums of those tables by PostgreSQL triggers on
 * them (insert, the ingest's increments, update, delete, truncate; drizzle/0012_analytics_weeks.sql).
 * Never written by the app.
 */

/** Page views per week and path. */
export const analyticsPageWeeks = pgTable(
  "analytics_page_weeks",
  {
    week: date("week", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
    /** How many per-day rows the week holds: the week's row goes when the last one does. */
    dayRows: integer("day_rows").notNull(),
  },
  (t) => [primaryKey({ columns: [t.week, t.path] })],
);

/** Visits per week by where they came from (as analytics_sources). */
export const analyticsSourceWeeks = pgTable(
  "analytics_source_weeks",
  {
    week: date("week", { mode: "string" }).notNull(),
    referrerHost: text("referrer_host").notNull(),
    utmSource: text("utm_source").notNull(),
    utmMedium: text("utm_medium").notNull(),
    utmCampaign: text("utm_campaign").notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    dayRows: integer("day_rows").notNull(),
  },
  (t) => [primaryKey({ columns: [t.week, t.referrerHost, t.utmSource, t.utmMedium, t.utmCampaign] })],
);

/** Page views per day by device class: 'mobile' | 'tablet' | 'desktop'. */
export const analyticsDevices = pgTable(
  "analytics_devices",
  {
    day: date("day", { mode: "string" }).notNull(),
    device: text("device").notNull(),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.device] })],
);

/**
 * CDN purges waiting to be sent (docs/decisions/024): one row per tag invalidation, written by
 * invalidateTags. The worker claims every due row at once (FOR UPDATE SKIP LOCKED: one process sends
 * them), sends their tags in one purge and deletes them; a failed purge stays with its error and a growing
 * wait, and the admin overview shows it.
 */
export const cdnPurges = pgTable(
  "cdn_purges",
  {
    id: text("id").primaryKey(),
    tags: text("tags").array().notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    lastError: text("last_error"),
    /** When sending it first failed: the admin's "failing since". */
    firstFailedAt: at("first_failed_at"),
    createdAt: createdAt(),
  },
  (t) => [index("cdn_purges_due_idx").on(t.nextAttemptAt)],
);
