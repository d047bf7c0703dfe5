/**
 * The web console: its users, their sessions and failed sign-ins (migration 0024), the
 * accounts each user may see when regwatch serves an accounts file (migration 0026), and the
 * addresses each user signed in from (migration 0047), company sign-in (migration 0052) and its
 * start limit per address (migration 0054).
 */
import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, primaryKey, text, unique } from "drizzle-orm/pg-core";
import { createdNow, instant, regwatch } from "./columns.ts";

/** People who may sign in to the console, each with a role. */
export const consoleUsers = regwatch.table(
  "console_users",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    role: text("role").notNull(),
    /** scrypt$N$r$p$salt$hash: the parameters travel with the hash. */
    passwordHash: text("password_hash").notNull(),
    /** en or hu; null: the browser's Accept-Language, else REGWATCH_LOCALE (migration 0031). */
    locale: text("locale"),
    /** Company sign-in (migration 0052): "<issuer> <sub>" of the person; null for a local user. */
    externalSubject: text("external_subject"),
    createdAt: createdNow("created_at"),
    updatedAt: createdNow("updated_at"),
  },
  (t) => [
    unique("console_users_name").on(t.name),
    check("console_users_role", sql`${t.role} in ('reader', 'reviewer', 'admin')`),
    // Latin letters with accents (issue 49): the ranges USER_NAME (src/console/users-admin.ts) allows.
    check(
      "console_users_name_shape",
      sql`${t.name} ~ '^[A-Za-z0-9._@\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u1E00-\u1EFF-]{1,64}$'`,
    ),
    check("console_users_locale", sql`${t.locale} in ('en', 'hu')`),
    unique("console_users_external_subject").on(t.externalSubject),
  ],
);

/** Signed-in sessions; the id is the SHA-256 of the cookie's token. */
export const consoleSessions = regwatch.table(
  "console_sessions",
  {
    id: text("id").primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => consoleUsers.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    createdAt: createdNow("created_at"),
    expiresAt: instant("expires_at").notNull(),
    lastSeenAt: createdNow("last_seen_at"),
    /** The account the session shows (fleet mode); null: the user's first account. */
    currentAccount: text("current_account"),
  },
  (t) => [index("console_sessions_user").on(t.userId), index("console_sessions_expires").on(t.expiresAt)],
);

/** Failed sign-ins per user name and address, for the sign-in limits (per pair, per address, per name). */
export const consoleLoginFailures = regwatch.table(
  "console_login_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    username: text("username").notNull(),
    address: text("address").notNull(),
    at: createdNow("at"),
  },
  (t) => [
    index("console_login_failures_who").on(t.username, t.address, t.at),
    index("console_login_failures_address").on(t.address, t.at),
  ],
);

/** Addresses a user signed in from: the sign-in limits across names and addresses spare them. */
export const consoleLoginAddresses = regwatch.table(
  "console_login_addresses",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => consoleUsers.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    lastAt: createdNow("last_at"),
  },
  (t) => [primaryKey({ name: "console_login_addresses_pkey", columns: [t.userId, t.address] })],
);

/** Which accounts of the accounts file each user may see (fleet mode; empty without a file). */
export const consoleUserAccounts = regwatch.table(
  "console_user_accounts",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => consoleUsers.id, { onDelete: "cascade" }),
    account: text("account").notNull(),
    grantedAt: createdNow("granted_at"),
  },
  (t) => [
    primaryKey({ name: "console_user_accounts_pkey", columns: [t.userId, t.account] }),
    check("console_user_accounts_account_shape", sql`${t.account} ~ '^[a-z][a-z0-9_]{0,29}$'`),
  ],
);

/** Company sign-ins under way (migration 0052): state, nonce and PKCE verifier, each used once. */
export const consoleOidcLogins = regwatch.table(
  "console_oidc_logins",
  {
    /** SHA-256 of the random token in the browser's pending-sign-in cookie. */
    id: text("id").primaryKey(),
    state: text("state").notNull(),
    nonce: text("nonce").notNull(),
    codeVerifier: text("code_verifier").notNull(),
    expiresAt: instant("expires_at").notNull(),
    /** The client address that started it, and when (the database's clock): the start limit (migration 0054). */
    address: text("address").notNull().default(""),
    createdAt: createdNow("created_at"),
  },
  (t) => [
    index("console_oidc_logins_expires").on(t.expiresAt),
    index("console_oidc_logins_address").on(t.address, t.createdAt),
  ],
);
