import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);
import {
  closestRoute,
  createVenueData,
  repairLinks
} from "./chunk-7TOBDR27.js";
import {
  readRoutes
} from "./chunk-VP4IMZ74.js";
import {
  __name
} from "./chunk-D2NJZ3J4.js";

// server/main.ts
import http2 from "node:http";
import os2 from "node:os";
import path14 from "node:path";

// server/app.ts
import Koa from "koa";

// server/platform/auth/context.ts
var ANONYMOUS = Object.freeze({
  role: "public",
  authSource: "anonymous",
  permissions: [],
  identity: {}
});

// server/platform/auth/roles.ts
var RANK = { public: 0, staff: 1, admin: 2, superuser: 3 };
var canUseStaffRoutes = /* @__PURE__ */ __name((role) => role === "superuser" || role === "admin" || role === "staff", "canUseStaffRoutes");
var isBanInForce = /* @__PURE__ */ __name((banned, expiresAt) => banned && (!expiresAt || new Date(expiresAt) > /* @__PURE__ */ new Date()), "isBanInForce");
var isPrivileged = canUseStaffRoutes;
function roleAtLeast(role, minimum) {
  return RANK[role] >= RANK[minimum];
}
__name(roleAtLeast, "roleAtLeast");
function roleForMembership(memberRole) {
  switch (memberRole) {
    case "owner":
      return "superuser";
    case "admin":
      return "admin";
    case "member":
    case "kitchen_pos":
      return "staff";
    default:
      return "public";
  }
}
__name(roleForMembership, "roleForMembership");

// server/platform/auth/secrets.ts
import { createHash, hash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
var sha256 = /* @__PURE__ */ __name((value) => createHash("sha256").update(value, "utf8").digest(), "sha256");
var sha256Hex = /* @__PURE__ */ __name((value) => hash("sha256", value, "hex"), "sha256Hex");
var randomToken = /* @__PURE__ */ __name((bytes2 = 32) => randomBytes(bytes2).toString("base64url"), "randomToken");
function matchDigest(presented, digests) {
  const digest4 = sha256(presented);
  let found = -1;
  digests.forEach((candidate, index) => {
    if (timingSafeEqual(digest4, candidate) && found < 0) found = index;
  });
  return found;
}
__name(matchDigest, "matchDigest");
var SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 };
function scryptAsync(password, salt, keylen, options) {
  return new Promise(
    (resolve, reject) => scrypt(password, salt, keylen, options, (err, key) => err ? reject(err) : resolve(key))
  );
}
__name(scryptAsync, "scryptAsync");
async function hashPassword(password) {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize("NFKC"), salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), key.toString("base64")].join("$");
}
__name(hashPassword, "hashPassword");
async function verifyPassword(password, stored) {
  const parts = (stored ?? "").split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") {
    await hashPassword(password);
    return false;
  }
  const [, N, r, p, salt, hash2] = parts;
  const expected2 = Buffer.from(hash2, "base64");
  const key = await scryptAsync(password.normalize("NFKC"), Buffer.from(salt, "base64"), expected2.length, {
    N: Number(N),
    r: Number(r),
    p: Number(p)
  });
  return timingSafeEqual(key, expected2);
}
__name(verifyPassword, "verifyPassword");

// server/platform/auth/identity.ts
var SESSION_COOKIE = "venue_session";
function identityResolver(options) {
  const tokenDigests = options.superuserApiTokens.map(sha256);
  function fromSuperuserToken(raw4) {
    if (tokenDigests.length === 0) return void 0;
    const index = matchDigest(raw4, tokenDigests);
    if (index < 0) return void 0;
    return { role: "superuser", authSource: "api-token", permissions: [], identity: { superuserTokenIndex: index } };
  }
  __name(fromSuperuserToken, "fromSuperuserToken");
  async function fromSession(token2) {
    const row = await options.knex("sessions as s").join("accounts as a", "a.id", "s.account_id").leftJoin("organization_members as m", /* @__PURE__ */ __name(function joinMembership() {
      this.on("m.organization_id", "=", "s.active_organization_id").andOn("m.account_id", "=", "s.account_id");
    }, "joinMembership")).where("s.token_hash", sha256Hex(token2)).andWhere("s.expires_at", ">", options.knex.fn.now()).first("s.id as session_id", "s.expires_at", "s.active_organization_id", "a.id as account_id", "a.email", "a.name", "a.role as account_role", "a.banned", "a.ban_expires_at", "m.role as member_role");
    if (!row) return void 0;
    if (isBanInForce(row.banned, row.ban_expires_at)) return void 0;
    return {
      // The account role is never consulted here: only the membership in the active organization.
      role: roleForMembership(row.member_role),
      authSource: "session",
      permissions: [],
      identity: {
        accountId: row.account_id,
        email: row.email,
        name: row.name,
        accountRole: row.account_role,
        sessionId: row.session_id,
        sessionExpiresAt: new Date(row.expires_at),
        activeOrganizationId: row.active_organization_id,
        memberRole: row.member_role
      }
    };
  }
  __name(fromSession, "fromSession");
  const resolve = /* @__PURE__ */ __name(async (ctx) => {
    const apiKey = ctx.get("x-api-key");
    if (apiKey) {
      const auth = await options.credentials.resolve(apiKey);
      if (auth) return auth;
    }
    const bearer2 = /^Bearer\s+(.+)$/i.exec(ctx.get("authorization"))?.[1]?.trim();
    for (const token2 of [ctx.get("x-api-token"), bearer2]) {
      if (!token2) continue;
      const auth = fromSuperuserToken(token2);
      if (auth) return auth;
    }
    const cookie2 = ctx.headers.cookie ? ctx.cookies.get(SESSION_COOKIE) : void 0;
    if (cookie2) {
      const auth = await fromSession(cookie2);
      if (auth) return auth;
    }
    return ANONYMOUS;
  }, "resolve");
  const middleware = /* @__PURE__ */ __name((ctx, next) => {
    const { headers } = ctx;
    if (!(headers["x-api-key"] || headers["x-api-token"] || headers.authorization || headers.cookie)) return next();
    const apiKey = headers["x-api-key"];
    if (typeof apiKey === "string" && apiKey !== "") {
      const auth = options.credentials.resolveRemembered(apiKey);
      if (auth) {
        ctx.state.auth = auth;
        return next();
      }
    }
    return resolve(ctx).then((auth) => {
      ctx.state.auth = auth;
      return next();
    });
  }, "middleware");
  return { resolve, middleware };
}
__name(identityResolver, "identityResolver");

// server/platform/auth/permissions.ts
function flattenPermissions(map) {
  const out = [];
  for (const [resource, actions] of Object.entries(map ?? {})) {
    for (const action of actions ?? []) out.push(`${resource}:${action}`);
  }
  return out.sort();
}
__name(flattenPermissions, "flattenPermissions");

// server/platform/auth/apiKeyCredentials.ts
var MAX_CACHED_KEYS = 1e4;
var CREDENTIALS_TOPIC = "credentials";
function toAuthContext(key) {
  return Object.freeze({
    role: "superuser",
    authSource: "api-key",
    permissions: key.permissions,
    identity: Object.freeze({
      accountId: key.accountId,
      email: key.email,
      name: key.accountName,
      accountRole: key.accountRole,
      apiKeyId: key.id,
      apiKeyName: key.name,
      apiKeyStart: key.start,
      apiKeyExpiresAt: key.expiresAt
    })
  });
}
__name(toAuthContext, "toAuthContext");
var ApiKeyCredentials = class {
  constructor(knex, logger, cacheMs, flushMs, now = Date.now, notifications) {
    this.knex = knex;
    this.logger = logger;
    this.cacheMs = cacheMs;
    this.flushMs = flushMs;
    this.now = now;
    this.notifications = notifications;
    notifications?.subscribe(CREDENTIALS_TOPIC, { handle: /* @__PURE__ */ __name((payload) => this.forget(payload), "handle"), reset: /* @__PURE__ */ __name(() => this.invalidate(), "reset") });
  }
  knex;
  logger;
  cacheMs;
  flushMs;
  now;
  notifications;
  static {
    __name(this, "ApiKeyCredentials");
  }
  cache = /* @__PURE__ */ new Map();
  /** Uses not yet written, by key id; `lastUsedAt` in epoch milliseconds (a Date is made only when written). */
  pending = /* @__PURE__ */ new Map();
  timer;
  flushing = Promise.resolve();
  /** Bumped by `invalidate`: a lookup that began before it may have read the old state, so it is not remembered. */
  generation = 0;
  /**
   * Announces a change to a key or an account inside `trx` (the command's transaction): after the commit every
   * process forgets what it remembered of it; a rollback announces nothing.
   */
  async changed(change, trx) {
    if (this.notifications) await this.notifications.publish(CREDENTIALS_TOPIC, change, trx);
    else trx.executionPromise.then(() => this.forget(change), () => {
    });
  }
  /** Forgets the remembered keys a change names (every key when it names none). */
  forget(change) {
    const apiKeyId = typeof change?.apiKeyId === "string" ? change.apiKeyId : void 0;
    const accountId = typeof change?.accountId === "string" ? change.accountId : void 0;
    if (!apiKeyId && !accountId) return this.invalidate();
    this.generation += 1;
    for (const [hash2, entry] of this.cache) {
      if (entry.identity.id === apiKeyId || entry.identity.accountId === accountId) this.cache.delete(hash2);
    }
  }
  /** The identity an API key resolves to (role superuser, its permissions), or undefined when it is not accepted. */
  async resolve(rawKey) {
    const hash2 = sha256Hex(rawKey);
    const now = this.now();
    let entry = this.remembered(hash2, now);
    if (!entry) {
      const generation = this.generation;
      const identity = await this.load(hash2);
      if (!identity) return void 0;
      entry = { identity, auth: toAuthContext(identity), until: now + this.cacheMs };
      if (this.cacheMs > 0 && generation === this.generation) {
        if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value);
        this.cache.set(hash2, entry);
      }
    }
    return this.accept(entry, now);
  }
  /**
   * `resolve` without waiting, for a key remembered from an earlier request (almost every keyed request): its
   * identity, counted as a use; undefined when the key is not remembered or not accepted, and `resolve` decides.
   */
  resolveRemembered(rawKey) {
    const now = this.now();
    const entry = this.remembered(sha256Hex(rawKey), now);
    return entry ? this.accept(entry, now) : void 0;
  }
  /** The remembered entry for a key hash while it is fresh; a stale one is dropped. */
  remembered(hash2, now) {
    const entry = this.cache.get(hash2);
    if (entry && entry.until > now) return entry;
    if (entry) this.cache.delete(hash2);
    return void 0;
  }
  /** The key's own expiry is checked on every request; an accepted use is counted. */
  accept(entry, now) {
    if (entry.identity.expiresAt && entry.identity.expiresAt.getTime() <= now) return void 0;
    this.recordUse(entry.identity.id);
    return entry.auth;
  }
  /**
   * Forget every remembered key: called after any change to keys or accounts has been committed (called before
   * the commit, a concurrent request could read and remember the old row again). A lookup still in flight when
   * this is called is used for its request but not remembered.
   */
  invalidate() {
    this.generation += 1;
    this.cache.clear();
  }
  async load(hash2) {
    const row = await this.knex("api_keys as k").join("accounts as a", "a.id", "k.account_id").where("k.key_hash", hash2).first("k.id", "k.name", "k.start", "k.enabled", "k.expires_at", "k.permissions", "k.account_id", "a.email", "a.name as account_name", "a.role as account_role", "a.banned", "a.ban_expires_at");
    if (!row || !row.enabled) return void 0;
    if (row.account_role !== "SUPERUSER" || isBanInForce(row.banned, row.ban_expires_at)) return void 0;
    return {
      id: row.id,
      name: row.name,
      start: row.start,
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
      permissions: flattenPermissions(typeof row.permissions === "string" ? JSON.parse(row.permissions) : row.permissions),
      accountId: row.account_id,
      email: row.email,
      accountName: row.account_name,
      accountRole: row.account_role
    };
  }
  recordUse(id) {
    const entry = this.pending.get(id);
    const at2 = Date.now();
    if (entry) {
      entry.count += 1;
      entry.lastUsedAt = at2;
    } else {
      this.pending.set(id, { count: 1, lastUsedAt: at2 });
    }
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = void 0;
        void this.flush();
      }, this.flushMs);
      this.timer.unref();
    }
  }
  /** Writes the counted uses; resolves when they are written (or failed and were put back). */
  flush() {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }
  async write() {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending.clear();
    for (const [id, { count, lastUsedAt: at2 }] of batch) {
      const lastUsedAt = new Date(at2);
      try {
        await this.knex("api_keys").where("id", id).update({
          request_count: this.knex.raw("request_count + ?", [count]),
          last_used_at: this.knex.raw("greatest(coalesce(last_used_at, ?), ?)", [lastUsedAt, lastUsedAt])
        });
      } catch (err) {
        this.logger.warn({ err, apiKeyId: id, count }, "api key usage update failed; kept for the next flush");
        const later = this.pending.get(id);
        this.pending.set(id, { count: count + (later?.count ?? 0), lastUsedAt: later?.lastUsedAt ?? at2 });
      }
    }
  }
  /** Stops the timer and writes what is counted. */
  async close() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = void 0;
    await this.flush();
  }
};

// server/platform/http/rateLimit.ts
import net from "node:net";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

// server/platform/http/problem.ts
var Problem = class extends Error {
  static {
    __name(this, "Problem");
  }
  status;
  code;
  title;
  detail;
  errors;
  headers;
  constructor(status, code, title, options = {}) {
    super(options.detail ?? title, options.cause === void 0 ? void 0 : { cause: options.cause });
    this.name = "Problem";
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers;
  }
};
var WWW_AUTHENTICATE = 'ApiKey realm="venue", header="x-api-key", Bearer realm="venue", Cookie realm="venue", cookie-name="venue_session"';
var ValidationFailed = /* @__PURE__ */ __name((errors, detail = "The request has invalid fields.") => new Problem(400, "validation_failed", "Invalid request", { detail, errors }), "ValidationFailed");
var MalformedBody = /* @__PURE__ */ __name((detail) => new Problem(400, "malformed_body", "Malformed request body", { detail }), "MalformedBody");
var BodyTooDeep = /* @__PURE__ */ __name((maxDepth) => new Problem(400, "body_too_deep", "Malformed request body", { detail: `The body nests more than ${maxDepth} levels deep.` }), "BodyTooDeep");
var Unauthenticated = /* @__PURE__ */ __name((detail = "Sign in or present a valid credential.") => new Problem(401, "unauthenticated", "Authentication required", { detail }), "Unauthenticated");
var NoActiveMembership = /* @__PURE__ */ __name(() => new Problem(401, "no_active_membership", "Authentication required", {
  detail: "Your session has no membership in its active organization; switch organization or sign in again."
}), "NoActiveMembership");
var InvalidCredentials = /* @__PURE__ */ __name(() => new Problem(401, "invalid_credentials", "Invalid credentials", { detail: "The identifier or password is wrong." }), "InvalidCredentials");
var Forbidden = /* @__PURE__ */ __name((code, detail) => new Problem(403, code, "Forbidden", { detail }), "Forbidden");
var NotFound = /* @__PURE__ */ __name((detail = "No such resource.") => new Problem(404, "not_found", "Not found", { detail }), "NotFound");
var MethodNotAllowed = /* @__PURE__ */ __name((allowed) => new Problem(405, "method_not_allowed", "Method not allowed", {
  detail: `Allowed: ${allowed.join(", ")}.`,
  headers: { Allow: allowed.join(", ") }
}), "MethodNotAllowed");
var Conflict = /* @__PURE__ */ __name((code, detail) => new Problem(409, code, "Conflict", { detail }), "Conflict");
var PayloadTooLarge = /* @__PURE__ */ __name((limit) => new Problem(413, "payload_too_large", "Payload too large", { detail: `The body is over ${limit} bytes.` }), "PayloadTooLarge");
var UnsupportedMediaType = /* @__PURE__ */ __name((accepted) => new Problem(415, "unsupported_media_type", "Unsupported media type", {
  detail: `This operation takes ${accepted.join(", ")}.`
}), "UnsupportedMediaType");
var Unprocessable = /* @__PURE__ */ __name((code, detail, errors) => new Problem(422, code, "Unprocessable content", { detail, errors }), "Unprocessable");
var UnprocessableFields = /* @__PURE__ */ __name((detail, errors) => new Problem(422, errors[0].code, "Unprocessable content", { detail, errors }), "UnprocessableFields");
var TooManyRequests = /* @__PURE__ */ __name((retryAfterSeconds, detail) => new Problem(429, "too_many_requests", "Too many requests", {
  detail,
  headers: { "Retry-After": String(retryAfterSeconds) }
}), "TooManyRequests");
var ServiceUnavailable = /* @__PURE__ */ __name((code, detail) => new Problem(503, code, "Service unavailable", { detail }), "ServiceUnavailable");

// server/platform/http/rateLimit.ts
var RATE_LIMIT_TABLE = "rate_limits";
function rateLimitStoreFor(db) {
  return db.kind === "postgres" ? { kind: "postgres", knex: db.knex } : { kind: "memory" };
}
__name(rateLimitStoreFor, "rateLimitStoreFor");
var RateLimit = class {
  constructor(rule, store) {
    this.rule = rule;
    const options = { keyPrefix: rule.name, points: rule.points, duration: rule.windowSeconds };
    this.limiter = store.kind === "postgres" ? new RateLimiterPostgres({ ...options, storeClient: store.knex, storeType: "knex", tableName: RATE_LIMIT_TABLE, tableCreated: true }) : new RateLimiterMemory(options);
  }
  rule;
  static {
    __name(this, "RateLimit");
  }
  limiter;
  /**
   * Spends `points` of `key`'s budget. Atomic in both stores: of N concurrent calls at most `points` per window
   * are allowed, whatever their interleaving. Spent points count even when refused. A store failure rejects.
   */
  async consume(key, points = 1) {
    try {
      const res = await this.limiter.consume(hashKey(key), points);
      return { allowed: true, remaining: res.remainingPoints };
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: retryAfter(refused.msBeforeNext) };
      throw refused;
    }
  }
  /** Gives `points` back to `key` (an attempt that turned out fine). */
  async reward(key, points = 1) {
    await this.limiter.reward(hashKey(key), points);
  }
  /** Forgets `key` entirely. */
  async reset(key) {
    await this.limiter.delete(hashKey(key));
  }
};
async function consumeOrThrow(checks, detail) {
  for (const [limit, key] of checks) {
    const decision = await limit.consume(key);
    if (!decision.allowed) throw TooManyRequests(decision.retryAfterSeconds, detail);
  }
}
__name(consumeOrThrow, "consumeOrThrow");
var retryAfter = /* @__PURE__ */ __name((ms) => Math.max(1, Math.ceil(ms / 1e3)), "retryAfter");
var hashKey = /* @__PURE__ */ __name((key) => sha256Hex(key), "hashKey");
function addressKey(ip) {
  const bare = ip.split("%")[0];
  if (bare.toLowerCase().startsWith("::ffff:") && net.isIPv4(bare.slice(7))) return bare.slice(7);
  if (!net.isIPv6(bare)) return bare;
  const [head, tail] = bare.toLowerCase().split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups = tail === void 0 ? front : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(":")}::/64`;
}
__name(addressKey, "addressKey");

// server/platform/auth/throttle.ts
var SignInThrottle = class {
  static {
    __name(this, "SignInThrottle");
  }
  pairs;
  addresses;
  constructor(options, store) {
    this.pairs = new RateLimit({ name: "sign-in-pair", points: options.maxFailures, windowSeconds: options.windowSeconds }, store);
    this.addresses = new RateLimit({ name: "sign-in-address", points: options.maxFailuresPerAddress, windowSeconds: options.windowSeconds }, store);
  }
  /** Counts the attempt; throws 429 (Retry-After) when the pair or the address has none left. */
  async begin(identifier, address) {
    await consumeOrThrow(
      [
        [this.pairs, pairKey(identifier, address)],
        [this.addresses, addressKey(address)]
      ],
      "Too many failed sign-ins; try again later."
    );
  }
  /** The password was right: that pair starts over, and the address gets this attempt back. */
  async succeeded(identifier, address) {
    await Promise.all([this.pairs.reset(pairKey(identifier, address)), this.addresses.reward(addressKey(address))]);
  }
};
var pairKey = /* @__PURE__ */ __name((identifier, address) => JSON.stringify([identifier, addressKey(address)]), "pairKey");

// server/platform/integrations/analytics.ts
import { randomUUID } from "node:crypto";
import { PostHog } from "posthog-node";
var DISABLED = Object.freeze({
  enabled: false,
  capture() {
  },
  captureException() {
  },
  flush: /* @__PURE__ */ __name(() => Promise.resolve(), "flush"),
  shutdown: /* @__PURE__ */ __name(() => Promise.resolve(), "shutdown")
});
function createAnalytics(options, logger) {
  if (!options.enabled || !options.apiKey) {
    logger.info("analytics disabled (ANALYTICS_ENABLED is not true): no events are sent");
    return DISABLED;
  }
  const log = logger.child({ component: "analytics" });
  const flushIntervalMs = options.flushIntervalMs ?? 1e4;
  const flushAt = options.flushAt ?? 20;
  const client = new PostHog(options.apiKey, {
    host: options.host,
    // The library's own batching would log failures to the console; it is turned off and done below instead.
    flushAt: Number.MAX_SAFE_INTEGER,
    flushInterval: 0,
    maxQueueSize: 1e4,
    requestTimeout: options.timeoutMs,
    fetchRetryCount: 1,
    fetchRetryDelay: options.retryDelayMs ?? 1e3,
    disableGeoip: true,
    enableExceptionAutocapture: false
  });
  let queued = 0;
  let timer;
  let closed = false;
  function flush() {
    if (timer) clearTimeout(timer);
    timer = void 0;
    queued = 0;
    return new Promise((resolve) => setImmediate(resolve)).then(() => client.flush()).then(
      () => void 0,
      (err) => log.warn({ err: describe(err) }, "analytics events could not be sent")
    );
  }
  __name(flush, "flush");
  function queuedOne() {
    queued += 1;
    if (queued >= flushAt) void flush();
    else if (!timer) {
      timer = setTimeout(() => void flush(), flushIntervalMs);
      timer.unref();
    }
  }
  __name(queuedOne, "queuedOne");
  return {
    enabled: true,
    capture({ distinctId, event: event2, properties }) {
      if (closed) return;
      try {
        client.capture({ distinctId, event: event2, properties: { ...properties, $process_person_profile: Boolean(distinctId) } });
        queuedOne();
      } catch (err) {
        log.warn({ err: describe(err), event: event2 }, "analytics event dropped");
      }
    },
    captureException(err, context) {
      if (closed) return;
      try {
        const properties = {
          $exception_list: exceptionList(err),
          $exception_level: "error",
          $process_person_profile: false,
          requestId: context.requestId,
          method: context.method,
          route: context.route,
          status: context.status
        };
        client.capture({ distinctId: context.requestId ?? randomUUID(), event: "$exception", properties });
        queuedOne();
      } catch (failure) {
        log.warn({ err: describe(failure) }, "analytics exception dropped");
      }
    },
    flush,
    async shutdown() {
      if (closed) return;
      closed = true;
      let bound;
      const expired = new Promise((resolve) => {
        bound = setTimeout(() => {
          log.warn("analytics: shutdown time-out, events not sent are dropped");
          resolve();
        }, options.shutdownTimeoutMs ?? 5e3);
        bound.unref();
      });
      await Promise.race([flush(), expired]);
      clearTimeout(bound);
    }
  };
}
__name(createAnalytics, "createAnalytics");
var MAX_TEXT = 1e3;
var clip = /* @__PURE__ */ __name((text) => text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 3)}...` : text, "clip");
function exceptionList(err) {
  const list = [];
  let current3 = err;
  while (list.length < 5 && current3 !== void 0 && current3 !== null) {
    const error = current3 instanceof Error ? current3 : new Error(typeof current3 === "string" ? current3 : "Non-error thrown");
    const frames = parseStack(error.stack ?? "");
    list.push({
      type: error.name || "Error",
      value: clip(error.message ?? ""),
      mechanism: { type: "generic", handled: true, synthetic: !(current3 instanceof Error) },
      ...frames.length ? { stacktrace: { type: "raw", frames } } : {}
    });
    current3 = current3 instanceof Error ? current3.cause : void 0;
  }
  return list;
}
__name(exceptionList, "exceptionList");
function parseStack(stack) {
  const frames = [];
  for (const line of stack.split("\n").slice(1, 51)) {
    const match = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!match) continue;
    const filename = match[2].replace(/^file:\/\//, "");
    frames.push({
      platform: "node:javascript",
      function: match[1] ?? "?",
      filename,
      lineno: Number(match[3]),
      colno: Number(match[4]),
      in_app: !filename.includes("node_modules") && !filename.startsWith("node:")
    });
  }
  return frames.reverse();
}
__name(parseStack, "parseStack");
function describe(err) {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
__name(describe, "describe");

// server/platform/integrations/mail.ts
import { randomUUID as randomUUID2 } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
function createMailer(options, logger) {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.timeoutMs) : outboxMailer(path.join(options.dataDir, "outbox"), logger);
}
__name(createMailer, "createMailer");
function toNodemailer(mail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    attachments: (mail.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
      ...a.contentId ? { cid: a.contentId, contentDisposition: "inline" } : {}
    })),
    // Header values are never taken from an address's display name as raw text: nodemailer encodes them.
    disableFileAccess: true,
    disableUrlAccess: true
  };
}
__name(toNodemailer, "toNodemailer");
function lazyTransport(make) {
  let made;
  let closed = false;
  return {
    get: /* @__PURE__ */ __name(() => made ??= import("nodemailer").then((loaded) => make(loaded.default)), "get"),
    close: /* @__PURE__ */ __name(() => {
      if (closed) return;
      closed = true;
      void made?.then((transport) => transport.close(), () => void 0);
    }, "close")
  };
}
__name(lazyTransport, "lazyTransport");
function smtpMailer(url, timeoutMs) {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // One connection per message: sends come from the job queue at a modest rate, and a broken pooled
    // connection would fail the next message for a reason of its own.
    pool: false
  }));
  return {
    kind: "smtp",
    async send(mail) {
      const info = await (await transport.get()).sendMail(toNodemailer(mail));
      return { messageId: info.messageId, response: String(info.response ?? "") };
    },
    close: /* @__PURE__ */ __name(() => transport.close(), "close")
  };
}
__name(smtpMailer, "smtpMailer");
function outboxMailer(dir, logger) {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" }));
  return {
    kind: "outbox",
    async send(mail) {
      const info = await (await transport.get()).sendMail(toNodemailer(mail));
      await fs.mkdir(dir, { recursive: true });
      const stamp = (/* @__PURE__ */ new Date()).toISOString().replace(/[:.]/g, "-");
      const file = path.join(dir, `${stamp}-${randomUUID2()}.eml`);
      await fs.writeFile(file, info.message, { mode: 384 });
      logger.info({ file }, "e-mail written to the development outbox");
      return { messageId: info.messageId, response: `outbox ${file}` };
    },
    close: /* @__PURE__ */ __name(() => transport.close(), "close")
  };
}
__name(outboxMailer, "outboxMailer");

// server/platform/storage/index.ts
import path3 from "node:path";

// server/platform/storage/local.ts
import { randomUUID as randomUUID3 } from "node:crypto";
import fs2 from "node:fs";
import fsp from "node:fs/promises";
import path2 from "node:path";
import { pipeline } from "node:stream/promises";

// server/platform/storage/driver.ts
import { Readable } from "node:stream";
async function* listAll(driver, prefix = "") {
  let startAfter;
  for (; ; ) {
    const page = await driver.list(prefix, { startAfter, limit: 1e3 });
    yield* page.objects;
    if (!page.nextStartAfter) return;
    startAfter = page.nextStartAfter;
  }
}
__name(listAll, "listAll");
var InvalidStorageKey = class extends Error {
  static {
    __name(this, "InvalidStorageKey");
  }
  constructor(key) {
    super(`storage key ${JSON.stringify(key.slice(0, 100))} is not allowed`);
    this.name = "InvalidStorageKey";
  }
};
var SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
function isSafeKey(key) {
  return typeof key === "string" && key.length <= 1024 && SAFE_KEY.test(key);
}
__name(isSafeKey, "isSafeKey");
function assertSafeKey(key) {
  if (!isSafeKey(key)) throw new InvalidStorageKey(key);
}
__name(assertSafeKey, "assertSafeKey");
function assertSafePrefix(prefix) {
  if (prefix !== "" && !isSafeKey(prefix.replace(/\/$/, ""))) throw new InvalidStorageKey(prefix);
}
__name(assertSafePrefix, "assertSafePrefix");
var toReadable = /* @__PURE__ */ __name((body) => body instanceof Readable ? body : Readable.from([Buffer.from(body)]), "toReadable");

// server/platform/storage/local.ts
var TMP = ".tmp";
var LocalStorage = class {
  static {
    __name(this, "LocalStorage");
  }
  kind = "local";
  root;
  constructor(root) {
    this.root = path2.resolve(root);
  }
  /** The file of a key, refused when it would land outside the root (belt and braces after the key check). */
  file(key) {
    assertSafeKey(key);
    const file = path2.resolve(this.root, ...key.split("/"));
    if (!file.startsWith(this.root + path2.sep)) throw new Error(`storage key ${key} escapes the storage root`);
    return file;
  }
  async put(key, body, _options) {
    const target = this.file(key);
    const tmpDir = path2.join(this.root, TMP);
    await fsp.mkdir(tmpDir, { recursive: true });
    const tmp = path2.join(tmpDir, randomUUID3());
    try {
      await pipeline(toReadable(body), fs2.createWriteStream(tmp, { flags: "wx", mode: 384 }));
      await fsp.mkdir(path2.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const stat = await fsp.stat(target);
    return { key, size: stat.size, lastModified: stat.mtime };
  }
  async get(key) {
    const file = this.file(key);
    let handle;
    try {
      handle = await fsp.open(file, "r");
    } catch (err) {
      if (isMissing(err)) return void 0;
      throw err;
    }
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return void 0;
    }
    return { stream: handle.createReadStream(), size: stat.size };
  }
  async head(key) {
    try {
      const stat = await fsp.stat(this.file(key));
      return stat.isFile() ? { key, size: stat.size, lastModified: stat.mtime } : void 0;
    } catch (err) {
      if (isMissing(err)) return void 0;
      throw err;
    }
  }
  async delete(key) {
    const file = this.file(key);
    try {
      await fsp.unlink(file);
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
    for (let dir = path2.dirname(file); dir !== this.root && dir.startsWith(this.root); dir = path2.dirname(dir)) {
      try {
        await fsp.rmdir(dir);
      } catch {
        break;
      }
    }
    return true;
  }
  async list(prefix = "", options = {}) {
    assertSafePrefix(prefix);
    const limit = options.limit ?? 1e3;
    const keys = [];
    await this.walk("", prefix, keys);
    keys.sort();
    const after = options.startAfter;
    const selected = keys.filter((key) => after === void 0 || key > after).slice(0, limit + 1);
    const page = selected.slice(0, limit);
    const objects = [];
    for (const key of page) {
      const info = await this.head(key);
      if (info) objects.push(info);
    }
    return { objects, nextStartAfter: selected.length > limit ? page[page.length - 1] : void 0 };
  }
  /** Files under `relative`, skipping folders that cannot hold a key with the prefix (and `.tmp`). */
  async walk(relative, prefix, out) {
    let entries;
    try {
      entries = await fsp.readdir(path2.join(this.root, relative), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (!isSafeKey(key)) continue;
      if (entry.isDirectory()) {
        if (prefix.startsWith(key + "/") || key.startsWith(prefix) || (key + "/").startsWith(prefix)) await this.walk(key, prefix, out);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        out.push(key);
      }
    }
  }
};
var isMissing = /* @__PURE__ */ __name((err) => ["ENOENT", "ENOTDIR"].includes(err?.code ?? ""), "isMissing");

// server/platform/storage/s3.ts
import { Readable as Readable2 } from "node:stream";
var S3Storage = class {
  static {
    __name(this, "S3Storage");
  }
  kind = "s3";
  bucket;
  config;
  loaded;
  constructor(options) {
    this.bucket = options.bucket;
    const config = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3
    };
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    }
    if (options.timeoutMs) config.requestHandler = { requestTimeout: options.timeoutMs, connectionTimeout: options.timeoutMs };
    this.config = config;
  }
  /** The SDK and the client, made on first use. */
  sdk() {
    this.loaded ??= import("@aws-sdk/client-s3").then((sdk) => ({ sdk, client: new sdk.S3Client(this.config) }));
    return this.loaded;
  }
  async put(key, body, options) {
    assertSafeKey(key);
    const bytes2 = body instanceof Readable2 ? await collect(body) : Buffer.from(body);
    const { sdk, client } = await this.sdk();
    await client.send(
      new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes2, ContentType: options.contentType, ContentLength: bytes2.length })
    );
    return { key, size: bytes2.length, lastModified: /* @__PURE__ */ new Date(), contentType: options.contentType };
  }
  async get(key) {
    assertSafeKey(key);
    const { sdk, client } = await this.sdk();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { stream: out.Body, size: Number(out.ContentLength ?? 0), contentType: out.ContentType };
    } catch (err) {
      if (isNotFound(err)) return void 0;
      throw err;
    }
  }
  async head(key) {
    assertSafeKey(key);
    const { sdk, client } = await this.sdk();
    try {
      const out = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: Number(out.ContentLength ?? 0), lastModified: out.LastModified ?? /* @__PURE__ */ new Date(0), contentType: out.ContentType };
    } catch (err) {
      if (isNotFound(err)) return void 0;
      throw err;
    }
  }
  async delete(key) {
    const existed = await this.head(key) !== void 0;
    if (existed) {
      const { sdk, client } = await this.sdk();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    }
    return existed;
  }
  async list(prefix = "", options = {}) {
    assertSafePrefix(prefix);
    const { sdk, client } = await this.sdk();
    const out = await client.send(
      new sdk.ListObjectsCommand({
        Bucket: this.bucket,
        Prefix: prefix || void 0,
        Marker: options.startAfter,
        MaxKeys: Math.min(options.limit ?? 1e3, 1e3)
      })
    );
    const objects = (out.Contents ?? []).map((o) => ({ key: o.Key, size: Number(o.Size ?? 0), lastModified: o.LastModified ?? /* @__PURE__ */ new Date(0) }));
    return { objects, nextStartAfter: out.IsTruncated && objects.length ? objects[objects.length - 1].key : void 0 };
  }
  async close() {
    if (this.loaded) (await this.loaded).client.destroy();
  }
};
async function collect(stream2) {
  const chunks = [];
  for await (const chunk of stream2) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
__name(collect, "collect");
function isNotFound(err) {
  const e = err;
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}
__name(isNotFound, "isNotFound");

// server/platform/storage/index.ts
function createStorage(config) {
  if (config.storageDriver === "s3") {
    return new S3Storage({
      bucket: config.storageS3Bucket,
      region: config.storageS3Region,
      endpoint: config.storageS3Endpoint,
      accessKeyId: config.storageS3AccessKeyId,
      secretAccessKey: config.storageS3SecretAccessKey,
      forcePathStyle: config.storageS3ForcePathStyle,
      timeoutMs: 3e4
    });
  }
  return new LocalStorage(path3.join(config.dataDir, "blobs"));
}
__name(createStorage, "createStorage");

// server/platform/db/notifications.ts
import { randomUUID as randomUUID4 } from "node:crypto";
var INVALIDATION_CHANNEL = "venue_invalidate";
var MIN_BACKOFF_MS = 100;
var MAX_BACKOFF_MS = 5e3;
var Channel = class {
  constructor(kind, knex, logger, databaseUrl) {
    this.kind = kind;
    this.knex = knex;
    this.logger = logger;
    this.databaseUrl = databaseUrl;
    this.listening = new Promise((resolve) => {
      this.markListening = resolve;
    });
    if (kind === "in-process") this.markListening();
    else void this.connect(false);
  }
  kind;
  knex;
  logger;
  databaseUrl;
  static {
    __name(this, "Channel");
  }
  subscribers = /* @__PURE__ */ new Map();
  origin = randomUUID4();
  client;
  closed = false;
  backoffMs = MIN_BACKOFF_MS;
  retry;
  listening;
  markListening = /* @__PURE__ */ __name(() => {
  }, "markListening");
  subscribe(topic, subscription) {
    const entry = typeof subscription === "function" ? { handle: subscription, reset: /* @__PURE__ */ __name(() => subscription(void 0), "reset") } : subscription;
    let set = this.subscribers.get(topic);
    if (!set) this.subscribers.set(topic, set = /* @__PURE__ */ new Set());
    set.add(entry);
    return () => set.delete(entry);
  }
  async publish(topic, payload, trx) {
    if (this.kind === "postgres") {
      const envelope = { o: this.origin, t: topic, ...payload === void 0 ? {} : { p: payload } };
      await (trx ?? this.knex).raw("select pg_notify(?, ?)", [INVALIDATION_CHANNEL, JSON.stringify(envelope)]);
    }
    if (!trx) {
      this.deliver(topic, payload);
      return;
    }
    let root = trx;
    while (root.parentTransaction) root = root.parentTransaction;
    root.executionPromise.then(
      () => this.deliver(topic, payload),
      () => {
      }
    );
  }
  ready() {
    return this.listening;
  }
  deliver(topic, payload) {
    for (const subscription of this.subscribers.get(topic) ?? []) {
      try {
        subscription.handle(payload);
      } catch (err) {
        this.logger.error({ err, topic }, "invalidation subscriber failed");
      }
    }
  }
  resetAll() {
    for (const set of this.subscribers.values()) {
      for (const subscription of set) {
        try {
          subscription.reset();
        } catch (err) {
          this.logger.error({ err }, "invalidation subscriber reset failed");
        }
      }
    }
  }
  onNotification = /* @__PURE__ */ __name((message) => {
    if (message.channel !== INVALIDATION_CHANNEL || !message.payload) return;
    let envelope;
    try {
      envelope = JSON.parse(message.payload);
    } catch {
      this.logger.warn({ payload: message.payload.slice(0, 200) }, "invalidation message is not JSON; ignored");
      return;
    }
    if (envelope.o === this.origin || typeof envelope.t !== "string") return;
    this.deliver(envelope.t, envelope.p);
  }, "onNotification");
  async connect(again) {
    if (this.closed) return;
    const { default: pgModule } = await import("pg");
    const client = new pgModule.Client({ connectionString: this.databaseUrl, application_name: "venue invalidation listener" });
    let dropped = false;
    const drop = /* @__PURE__ */ __name((err) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = void 0;
      client.removeAllListeners("notification");
      client.end().catch(() => {
      });
      if (this.closed) return;
      this.logger.warn({ err, retryInMs: this.backoffMs }, "invalidation listener lost its connection; reconnecting");
      this.scheduleReconnect();
    }, "drop");
    client.on("error", drop);
    client.on("end", () => drop());
    client.on("notification", this.onNotification);
    try {
      await client.connect();
      await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch (err) {
      drop(err);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {
      });
      return;
    }
    this.client = client;
    this.backoffMs = MIN_BACKOFF_MS;
    client.connection?.stream?.unref?.();
    if (again) {
      this.logger.info("invalidation listener reconnected; caches cleared");
      this.resetAll();
    }
    this.markListening();
  }
  scheduleReconnect() {
    if (this.retry || this.closed) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
    this.retry = setTimeout(() => {
      this.retry = void 0;
      void this.connect(true);
    }, delay);
    this.retry.unref();
  }
  /** The listening connection's server process id (tests end it to check the reconnection). */
  get listenerPid() {
    return this.client?.processID;
  }
  async close() {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = void 0;
    const client = this.client;
    this.client = void 0;
    if (client) {
      client.removeAllListeners();
      client.on("error", () => {
      });
      await client.end().catch(() => {
      });
    }
  }
};
function createNotifications(db, logger, databaseUrl) {
  return db.kind === "postgres" && databaseUrl ? new Channel("postgres", db.knex, logger, databaseUrl) : new Channel("in-process", db.knex, logger, void 0);
}
__name(createNotifications, "createNotifications");

// server/platform/observability/metrics.ts
import { createRequire } from "node:module";
var DURATION_BUCKETS = [5e-3, 0.025, 0.1, 0.25, 1, 2.5, 10];
var JOB_SCHEMA = "pgboss";
var promClient;
var loadPromClient = /* @__PURE__ */ __name(() => promClient ??= createRequire(new URL("../server/platform/observability/metrics.ts", import.meta.url).href)("prom-client"), "loadPromClient");
var RequestStats = class {
  static {
    __name(this, "RequestStats");
  }
  /** operation → status → cell; bounded: the contract's operations × the statuses they answer. */
  cells = /* @__PURE__ */ new Map();
  observe(operation, status, seconds) {
    let byStatus = this.cells.get(operation);
    if (!byStatus) this.cells.set(operation, byStatus = /* @__PURE__ */ new Map());
    let cell = byStatus.get(status);
    if (!cell) byStatus.set(status, cell = { count: 0, sum: 0, buckets: new Float64Array(DURATION_BUCKETS.length + 1) });
    cell.count += 1;
    cell.sum += seconds;
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i++;
    cell.buckets[i] += 1;
  }
  *each() {
    for (const [operation, byStatus] of this.cells) for (const [status, cell] of byStatus) yield { labels: { operation, status: String(status) }, cell };
  }
  /** A metric as prom-client's registry reads one (`get()` → name, help, type, values). */
  counter(name, help) {
    const get = /* @__PURE__ */ __name(() => ({ name, help, type: "counter", aggregator: "sum", values: [...this.each()].map(({ labels, cell }) => ({ labels, value: cell.count })) }), "get");
    return { name, help, type: "counter", aggregator: "sum", get };
  }
  histogram(name, help) {
    const get = /* @__PURE__ */ __name(() => {
      const values = [];
      for (const { labels, cell } of this.each()) {
        let cumulative = 0;
        for (let i = 0; i <= DURATION_BUCKETS.length; i++) {
          cumulative += cell.buckets[i];
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: i < DURATION_BUCKETS.length ? DURATION_BUCKETS[i] : "+Inf" }, value: cumulative });
        }
        values.push({ metricName: `${name}_sum`, labels, value: cell.sum });
        values.push({ metricName: `${name}_count`, labels, value: cell.count });
      }
      return { name, help, type: "histogram", aggregator: "sum", values };
    }, "get");
    return { name, help, type: "histogram", aggregator: "sum", get };
  }
};
function createMetrics(options) {
  if (!options.enabled) return void 0;
  const client = loadPromClient();
  const registry = new client.Registry();
  const log = options.logger.child({ component: "metrics" });
  client.collectDefaultMetrics({ register: registry });
  const requests = new RequestStats();
  registry.registerMetric(requests.counter("venue_http_requests_total", "HTTP requests answered, by operationId and status."));
  registry.registerMetric(
    requests.histogram("venue_http_request_duration_seconds", "Time to answer an HTTP request (until the handler has set the response), by operationId and status.")
  );
  const jobRuns = new client.Counter({ name: "venue_job_runs_total", help: "Jobs run by this process's workers, by queue and result.", labelNames: ["queue", "result"], registers: [registry] });
  const jobDurations = new client.Histogram({ name: "venue_job_duration_seconds", help: "Time a job's handler took, by queue.", labelNames: ["queue"], buckets: DURATION_BUCKETS, registers: [registry] });
  const collectors = [];
  const onScrape = /* @__PURE__ */ __name((collect2) => void collectors.push(collect2), "onScrape");
  const depth = new client.Gauge({ name: "venue_job_queue_depth", help: "Jobs waiting to run now (created or retry, due), by queue.", labelNames: ["queue"], registers: [registry] });
  const oldest = new client.Gauge({ name: "venue_job_queue_oldest_age_seconds", help: "Age of the oldest job waiting to run now, by queue (0: none waiting).", labelNames: ["queue"], registers: [registry] });
  const active = new client.Gauge({ name: "venue_job_active", help: "Jobs being run, by queue.", labelNames: ["queue"], registers: [registry] });
  const failed = new client.Gauge({ name: "venue_job_failed", help: "Failed jobs still in the live table (failed jobs are archived after 12 h), by queue.", labelNames: ["queue"], registers: [registry] });
  onScrape(async () => {
    const rows2 = await jobQueueFigures(options.db.knex);
    for (const gauge of [depth, oldest, active, failed]) gauge.reset();
    for (const row of rows2) {
      depth.set({ queue: row.queue }, row.waiting);
      oldest.set({ queue: row.queue }, row.oldestSeconds);
      active.set({ queue: row.queue }, row.active);
      failed.set({ queue: row.queue }, row.failed);
    }
  });
  const pool = new client.Gauge({ name: "venue_db_pool_connections", help: "The app's database connections by state: used, free, pending (requests waiting for one).", labelNames: ["state"], registers: [registry] });
  const poolMax = new client.Gauge({ name: "venue_db_pool_max", help: "The most connections the app's pool opens (embedded database: 1).", registers: [registry] });
  onScrape(async () => {
    const figures = poolFigures(options.db);
    pool.set({ state: "used" }, figures.used);
    pool.set({ state: "free" }, figures.free);
    pool.set({ state: "pending" }, figures.pending);
    poolMax.set(figures.max);
  });
  return {
    registry,
    client,
    contentType: registry.contentType,
    observeRequest(operation, status, seconds) {
      requests.observe(operation, status, seconds);
    },
    observeJob(queue, result, seconds) {
      jobRuns.inc({ queue, result });
      jobDurations.observe({ queue }, seconds);
    },
    onScrape,
    async scrape() {
      await Promise.all(
        collectors.map(
          (collect2) => collect2().catch((err) => {
            log.warn({ err }, "a metrics collector failed; its series keep their last values");
          })
        )
      );
      return registry.metrics();
    }
  };
}
__name(createMetrics, "createMetrics");
async function jobQueueFigures(knex) {
  const result = await knex.raw(
    `select q.name as queue,
            count(j.id) filter (where j.state in ('created', 'retry') and j.start_after <= now())::int as waiting,
            coalesce(extract(epoch from now() - min(j.created_on) filter (where j.state in ('created', 'retry') and j.start_after <= now())), 0)::float8 as oldest,
            count(j.id) filter (where j.state = 'active')::int as active,
            count(j.id) filter (where j.state = 'failed')::int as failed
       from ${JOB_SCHEMA}.queue q left join ${JOB_SCHEMA}.job j on j.name = q.name
      where q.name not like '\\_\\_pgboss\\_\\_%'
      group by q.name`
  );
  return result.rows.map((row) => ({
    queue: row.queue,
    waiting: Number(row.waiting),
    oldestSeconds: Math.max(0, Number(row.oldest)),
    active: Number(row.active),
    failed: Number(row.failed)
  }));
}
__name(jobQueueFigures, "jobQueueFigures");
function poolFigures(db) {
  const tarn = db.knex.client.pool;
  if (!tarn) return { used: 0, free: 0, pending: 0, max: db.kind === "embedded" ? 1 : 0 };
  return { used: tarn.numUsed(), free: tarn.numFree(), pending: tarn.numPendingAcquires(), max: db.kind === "embedded" ? 1 : tarn.max };
}
__name(poolFigures, "poolFigures");

// server/platform/context.ts
function createAppContext(deps) {
  const { additions, ...given } = deps;
  const { config, logger } = given;
  const notifications = deps.notifications ?? createNotifications(deps.db, logger, config.databaseUrl);
  const platform = {
    ...given,
    analytics: deps.analytics ?? createAnalytics(
      { enabled: config.analyticsEnabled, apiKey: config.posthogApiKey, host: config.posthogHost, timeoutMs: config.analyticsTimeoutMs },
      logger
    ),
    mailer: deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, timeoutMs: config.smtpTimeoutMs }, logger),
    storage: deps.storage ?? createStorage(config),
    signInThrottle: new SignInThrottle(
      {
        maxFailures: deps.config.signInMaxFailures,
        maxFailuresPerAddress: deps.config.signInMaxFailuresPerAddress,
        windowSeconds: deps.config.signInWindowSeconds
      },
      rateLimitStoreFor(deps.db)
    ),
    notifications,
    credentials: new ApiKeyCredentials(deps.db.knex, deps.logger, deps.config.apiKeyCacheMs, deps.config.apiKeyUsageFlushMs, Date.now, notifications),
    startedAt: Date.now(),
    metrics: createMetrics({ enabled: config.metrics.enabled, db: deps.db, logger }),
    tracing: deps.tracing
  };
  return { ...additions(platform), ...platform };
}
__name(createAppContext, "createAppContext");

// server/platform/http/contract.ts
import { createHash as createHash2 } from "node:crypto";
import fs3 from "node:fs";
import path4 from "node:path";
import { createRequire as createRequire2 } from "node:module";
import { fileURLToPath } from "node:url";

// server/platform/http/access.ts
var HUMAN_LEVELS = ["session", "staff", "admin", "superuser"];
var TOKEN_LEVELS = ["service-token", "chat-webhook-token", "messaging-verify-token", "metrics-token"];
var ACCESS_LEVELS = ["public", ...HUMAN_LEVELS, ...TOKEN_LEVELS, "disabled"];
var bearer = /* @__PURE__ */ __name((ctx) => /^Bearer\s+(.+)$/i.exec(ctx.get("authorization"))?.[1]?.trim(), "bearer");
var firstQueryValue = /* @__PURE__ */ __name((value) => Array.isArray(value) ? value[0] : value, "firstQueryValue");
var TOKEN_RULES = {
  // The internal assistant service (spec §5.4 `SVC_LLM_SERVICE_TOKEN`); the spec leaves the header open.
  "service-token": {
    variable: "SVC_LLM_SERVICE_TOKEN",
    schemes: ["serviceToken"],
    read: /* @__PURE__ */ __name((ctx) => ctx.get("x-service-token") || void 0, "read"),
    refuse: /* @__PURE__ */ __name(() => new Problem(401, "invalid_service_token", "Authentication required", { detail: "Present the service token in x-service-token." }), "refuse")
  },
  // The chat-automation platform's webhook (spec §5.4): header x-svc-chat-token or Authorization: Bearer.
  "chat-webhook-token": {
    variable: "CHAT_WEBHOOK_TOKEN",
    schemes: ["chatWebhookToken", "chatWebhookBearer"],
    read: /* @__PURE__ */ __name((ctx) => ctx.get("x-svc-chat-token") || bearer(ctx) || void 0, "read"),
    refuse: /* @__PURE__ */ __name(() => new Problem(401, "invalid_webhook_token", "Authentication required", {
      detail: "Present the webhook token in x-svc-chat-token or as a Bearer token."
    }), "refuse")
  },
  // The messaging platform's verification handshake (`hub.verify_token`); it expects 403 on a mismatch.
  "messaging-verify-token": {
    variable: "MESSAGING_VERIFY_TOKEN",
    schemes: ["messagingVerifyToken"],
    read: /* @__PURE__ */ __name((ctx) => firstQueryValue(ctx.query["hub.verify_token"]) || void 0, "read"),
    refuse: /* @__PURE__ */ __name(() => Forbidden("invalid_verify_token", "The verify token does not match."), "refuse")
  },
  // A Prometheus scraper (issue 25 §5): `Authorization: Bearer <METRICS_TOKEN>`. Unset (or metrics served on their own
  // METRICS_PORT instead), the API has no metrics endpoint at all: 404, as for any unknown path.
  "metrics-token": {
    variable: "METRICS_TOKEN",
    schemes: ["metricsBearer"],
    read: /* @__PURE__ */ __name((ctx) => bearer(ctx) || void 0, "read"),
    refuse: /* @__PURE__ */ __name(() => new Problem(401, "invalid_metrics_token", "Authentication required", { detail: "Present the metrics token as a Bearer token." }), "refuse"),
    unconfigured: /* @__PURE__ */ __name(() => NotFound("Metrics are not served here (METRICS_TOKEN is unset, or METRICS_PORT serves them)."), "unconfigured")
  }
};
var SESSION_SCHEMES = ["sessionCookie"];
var SUPERUSER_SCHEMES = ["superuserToken", "superuserBearer"];
var API_KEY_SCHEMES = ["apiKey"];
function schemesFor(op) {
  switch (op.access) {
    case "public":
    case "disabled":
      return [];
    case "session":
      return SESSION_SCHEMES;
    case "staff":
    case "admin":
    case "superuser":
      return [...SESSION_SCHEMES, ...SUPERUSER_SCHEMES, ...op.apiKey === "deny" ? [] : API_KEY_SCHEMES];
    default:
      return TOKEN_RULES[op.access].schemes;
  }
}
__name(schemesFor, "schemesFor");
var isTokenLevel = /* @__PURE__ */ __name((access) => TOKEN_LEVELS.includes(access), "isTokenLevel");
function accessDenial(op, auth) {
  switch (op.access) {
    case "public":
      return void 0;
    case "session":
      return auth.authSource === "session" ? void 0 : Unauthenticated("Sign in to the dashboard first.");
    case "staff":
    case "admin":
    case "superuser": {
      if (auth.role === "public") {
        return auth.authSource === "session" ? NoActiveMembership() : Unauthenticated();
      }
      if (!roleAtLeast(auth.role, op.access)) {
        return Forbidden("insufficient_role", `This operation needs the ${op.access} role.`);
      }
      if (auth.authSource === "api-key") {
        if (op.apiKey === "deny") return Forbidden("api_key_not_allowed", "API keys cannot call this operation.");
        if (op.apiKey === "any") return void 0;
        if (!op.permission || !auth.permissions.includes(op.permission)) {
          return Forbidden("missing_permission", `This API key lacks the ${op.permission} permission.`);
        }
      }
      return void 0;
    }
    default:
      return Forbidden("operation_disabled", "This operation is disabled.");
  }
}
__name(accessDenial, "accessDenial");
function accessGuard(op, tokens = {}) {
  if (op.access === "public") return void 0;
  if (isTokenLevel(op.access)) {
    const rule = TOKEN_RULES[op.access];
    const configured = tokens[op.access];
    if (!configured) {
      return () => {
        throw rule.unconfigured?.() ?? ServiceUnavailable("not_configured", `This operation is not configured on this server (${rule.variable} is unset).`);
      };
    }
    const digests = [sha256(configured)];
    return (ctx, next) => {
      const presented = rule.read(ctx);
      if (presented === void 0 || matchDigest(presented, digests) < 0) throw rule.refuse();
      return next();
    };
  }
  return (ctx, next) => {
    const denial = accessDenial(op, ctx.state.auth);
    if (denial) throw denial;
    return next();
  };
}
__name(accessGuard, "accessGuard");
function checkSecurity(op) {
  const expected2 = schemesFor(op).sort();
  const declared = Array.isArray(op.security) ? op.security.flatMap((requirement) => Object.keys(requirement ?? {})).sort() : void 0;
  if (declared === void 0) return `${op.operationId}: no security declared (x-access ${op.access} admits ${expected2.join(", ") || "no scheme"})`;
  if (declared.join(",") !== expected2.join(",")) {
    return `${op.operationId}: security [${declared.join(", ")}] disagrees with x-access ${op.access}, which admits [${expected2.join(", ")}]`;
  }
  return void 0;
}
__name(checkSecurity, "checkSecurity");

// server/platform/http/contract.ts
var CONTRACT_PATH = path4.resolve(path4.dirname(fileURLToPath(new URL("../server/platform/http/contract.ts", import.meta.url).href)), "../../../openapi.yaml");
var CONTRACT_CACHE_PATH = path4.resolve(path4.dirname(fileURLToPath(new URL("../server/platform/http/contract.ts", import.meta.url).href)), "../../../.build/openapi.json");
var parse = /* @__PURE__ */ __name((text) => createRequire2(new URL("../server/platform/http/contract.ts", import.meta.url).href)("yaml").parse(text), "parse");
var digest = /* @__PURE__ */ __name((text) => createHash2("sha256").update(text).digest("hex"), "digest");
function cachedDocument(text, cacheFile) {
  let raw4;
  try {
    raw4 = fs3.readFileSync(cacheFile, "utf8");
  } catch {
    return void 0;
  }
  const match = /^\{"sha256":"([0-9a-f]{64})",/.exec(raw4.slice(0, 90));
  if (!match || match[1] !== digest(text)) return void 0;
  try {
    return JSON.parse(raw4).document;
  } catch {
    return void 0;
  }
}
__name(cachedDocument, "cachedDocument");
var METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
var ContractError = class extends Error {
  constructor(problems) {
    super(`openapi.yaml is not servable:
  - ${problems.join("\n  - ")}`);
    this.problems = problems;
  }
  problems;
  static {
    __name(this, "ContractError");
  }
};
var pointerSegment = /* @__PURE__ */ __name((key) => key.replace(/~/g, "~0").replace(/\//g, "~1"), "pointerSegment");
function resolveRefAt(document2, node, pointer) {
  let current3 = node;
  let at2 = pointer;
  for (let hops = 0; current3 && typeof current3.$ref === "string"; hops++) {
    if (hops >= 10) throw new ContractError([`$ref ${current3.$ref}: more than 10 hops`]);
    const ref = current3.$ref;
    if (!ref.startsWith("#/")) throw new ContractError([`$ref ${ref} points outside openapi.yaml: bundle the contract (npm run contract:bundle)`]);
    at2 = ref.slice(1);
    current3 = ref.slice(2).split("/").reduce((acc, key) => acc?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document2);
    if (current3 === void 0) throw new ContractError([`$ref ${ref} points at nothing`]);
  }
  return { node: current3, pointer: at2 };
}
__name(resolveRefAt, "resolveRefAt");
function externalRefs(node, out = []) {
  const stack = [node];
  while (stack.length) {
    const current3 = stack.pop();
    if (Array.isArray(current3)) stack.push(...current3);
    else if (current3 && typeof current3 === "object") {
      for (const [key, value] of Object.entries(current3)) {
        if (key === "$ref" && typeof value === "string" && !value.startsWith("#/")) out.push(value);
        else if (value && typeof value === "object") stack.push(value);
      }
    }
  }
  return out;
}
__name(externalRefs, "externalRefs");
function loadContract(file = CONTRACT_PATH, cacheFile = file === CONTRACT_PATH ? CONTRACT_CACHE_PATH : void 0) {
  const text = fs3.readFileSync(file, "utf8");
  const cached = cacheFile ? cachedDocument(text, cacheFile) : void 0;
  const document2 = cached ?? parse(text);
  const problems = [];
  const operations = [];
  const aliases = [];
  const external = cached ? [] : [...new Set(externalRefs(document2))];
  if (external.length) {
    throw new ContractError([`${path4.basename(file)} refers to other files (${external.slice(0, 5).join(", ")}): serve the bundle written by npm run contract:bundle`]);
  }
  const resolve = /* @__PURE__ */ __name((node, pointer) => resolveRefAt(document2, node, pointer), "resolve");
  const parameterList = /* @__PURE__ */ __name((list, pointer) => (list ?? []).map((raw4, index) => {
    const { node: p, pointer: at2 } = resolve(raw4, `${pointer}/parameters/${index}`);
    return { name: p.name, in: p.in, required: Boolean(p.required), schema: p.schema ?? {}, pointer: `${at2}/schema` };
  }), "parameterList");
  for (const [routePath, rawItem] of Object.entries(document2.paths ?? {})) {
    const { node: pathItem, pointer: itemPointer } = resolve(rawItem, `/paths/${pointerSegment(routePath)}`);
    const shared = parameterList(pathItem.parameters, itemPointer);
    for (const method of METHODS) {
      const op = pathItem[method];
      if (!op) continue;
      const opPointer = `${itemPointer}/${method}`;
      const where = `${method.toUpperCase()} ${routePath}`;
      if (!op.operationId) problems.push(`${where}: no operationId`);
      const access = op["x-access"];
      if (!ACCESS_LEVELS.includes(access)) problems.push(`${where}: x-access must be one of ${ACCESS_LEVELS.join(", ")}`);
      const apiKey = op["x-api-key"] ?? "allow";
      if (!["allow", "deny", "any"].includes(apiKey)) problems.push(`${where}: x-api-key must be allow, deny or any`);
      const needsPermission = ["staff", "admin", "superuser"].includes(access) && apiKey !== "any";
      if (apiKey === "any" && op["x-permission"] !== void 0) problems.push(`${where}: x-api-key any admits every key whatever it holds: declare no x-permission`);
      if (apiKey === "any" && !["staff", "admin", "superuser"].includes(access)) problems.push(`${where}: x-api-key any applies to staff, admin and superuser operations only`);
      if (needsPermission && !/^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/.test(op["x-permission"] ?? "")) {
        problems.push(`${where}: x-access ${access} needs x-permission <resource>:<action>`);
      }
      if (isTokenLevel(access) && op["x-permission"]) problems.push(`${where}: x-access ${access} is a token level; x-permission applies to human and API-key callers only`);
      if (op["x-log-path"] !== void 0 && op["x-log-path"] !== "template") problems.push(`${where}: x-log-path must be template`);
      if ((op.tags ?? []).length !== 1) problems.push(`${where}: needs exactly one tag (its module: server/modules/<tag>/)`);
      const own = parameterList(op.parameters, opPointer);
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const body = op.requestBody ? resolve(op.requestBody, `${opPointer}/requestBody`) : void 0;
      const responses = {};
      const responsePointers = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const { node: resolved, pointer: at2 } = resolve(response, `${opPointer}/responses/${pointerSegment(status)}`);
        responses[status] = {};
        for (const [type, media] of Object.entries(resolved?.content ?? {})) {
          responses[status][type] = media.schema;
          if (media.schema) responsePointers[`${status} ${type}`] = `${at2}/content/${pointerSegment(type)}/schema`;
        }
      }
      const operation = {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path: routePath,
        tags: op.tags ?? [],
        access,
        permission: op["x-permission"],
        apiKey: apiKey === "deny" || apiKey === "any" ? apiKey : "allow",
        security: op.security,
        parameters,
        requestBody: body ? readRequestBody(op, body.node, body.pointer, where, problems) : void 0,
        responses,
        responsePointers,
        ...op["x-log-path"] === "template" ? { logTemplate: true } : {}
      };
      if (op["x-deprecated-alias"] !== void 0) aliases.push({ operation, declared: op["x-deprecated-alias"], deprecated: op.deprecated === true, where });
      if (ACCESS_LEVELS.includes(access)) {
        const mismatch = checkSecurity(operation);
        if (mismatch) problems.push(`${where}: ${mismatch}`);
      }
      operations.push(operation);
    }
  }
  problems.push(...linkAliases(operations, aliases));
  if (operations.length === 0) problems.push(`${path4.basename(file)} declares no operation`);
  const seen = /* @__PURE__ */ new Set();
  for (const op of operations) {
    if (seen.has(op.operationId)) problems.push(`operationId ${op.operationId} is used twice`);
    seen.add(op.operationId);
  }
  if (problems.length) throw new ContractError(problems);
  return { text, document: document2, operations };
}
__name(loadContract, "loadContract");
function linkAliases(operations, aliases) {
  const problems = [];
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const aliased = new Set(aliases.map((a) => a.operation.operationId));
  for (const { operation, declared, deprecated, where } of aliases) {
    const of = declared?.of;
    const since = typeof declared?.since === "string" && /^\d{4}-\d{2}-\d{2}$/.test(declared.since) ? /* @__PURE__ */ new Date(`${declared.since}T00:00:00Z`) : void 0;
    const successor = typeof of === "string" ? byId.get(of) : void 0;
    const prefix = `${where}: x-deprecated-alias`;
    if (!deprecated) problems.push(`${prefix} needs deprecated: true`);
    if (!since || Number.isNaN(since.getTime())) problems.push(`${prefix}.since must be a date (YYYY-MM-DD)`);
    if (!successor) {
      problems.push(`${prefix}.of must name an operation (got ${JSON.stringify(of)})`);
      continue;
    }
    if (aliased.has(successor.operationId)) problems.push(`${prefix}.of names ${successor.operationId}, itself an alias: name the current operation`);
    if (successor.method !== operation.method) problems.push(`${prefix}.of names ${successor.operationId}, a ${successor.method}: an alias keeps the method`);
    for (const key of ["access", "permission", "apiKey"]) {
      if (successor[key] !== operation[key]) problems.push(`${prefix}: ${key} ${operation[key]} differs from ${successor.operationId}'s ${successor[key]}`);
    }
    const pathParams = /* @__PURE__ */ __name((op) => op.parameters.filter((p) => p.in === "path").map((p) => p.name).sort().join(","), "pathParams");
    if (pathParams(successor) !== pathParams(operation)) problems.push(`${prefix}: path parameters differ from ${successor.operationId}'s`);
    if (since) operation.alias = { of: successor.operationId, since, successorPath: successor.path };
  }
  return problems;
}
__name(linkAliases, "linkAliases");
var byteLimit = /* @__PURE__ */ __name((value, where, problems) => {
  if (value === void 0) return void 0;
  if (Number.isSafeInteger(value) && value > 0) return value;
  problems.push(`${where}: x-max-upload-bytes must be a positive whole number of bytes`);
  return void 0;
}, "byteLimit");
function readRequestBody(op, body, pointer, where, problems) {
  const media = {};
  const pointers = {};
  for (const [type, m] of Object.entries(body.content ?? {})) {
    const encoding = {};
    for (const [field, enc] of Object.entries(m?.encoding ?? {})) {
      encoding[field] = {
        contentType: typeof enc?.contentType === "string" ? enc.contentType.split(",").map((t) => t.trim().toLowerCase()).filter(Boolean) : void 0
      };
    }
    media[type.toLowerCase()] = { schema: m?.schema ?? {}, maxBytes: byteLimit(m?.["x-max-upload-bytes"], `${where} ${type}`, problems), encoding };
    pointers[type.toLowerCase()] = `${pointer}/content/${pointerSegment(type)}/schema`;
  }
  if (op["x-raw-body"] !== void 0 && typeof op["x-raw-body"] !== "boolean") problems.push(`${where}: x-raw-body must be true or false`);
  return {
    required: Boolean(body.required),
    content: Object.fromEntries(Object.entries(media).map(([t, m]) => [t, m.schema])),
    pointers,
    media,
    maxBytes: byteLimit(op["x-max-upload-bytes"], where, problems),
    rawBody: op["x-raw-body"] === true
  };
}
__name(readRequestBody, "readRequestBody");
function toRouterPath(openApiPath) {
  return openApiPath.replace(/\{([^}]+)\}/g, ":$1");
}
__name(toRouterPath, "toRouterPath");
function grantablePermissions(contract) {
  const map = /* @__PURE__ */ new Map();
  for (const op of contract.operations) {
    if (!op.permission || op.apiKey !== "allow" || op.access === "disabled") continue;
    map.set(op.permission, [...map.get(op.permission) ?? [], op.operationId]);
  }
  return new Map([...map.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
__name(grantablePermissions, "grantablePermissions");

// server/platform/http/cors.ts
import cors from "@koa/cors";
var SERVER_ACCESS = /* @__PURE__ */ new Set(["service-token", "chat-webhook-token", "messaging-verify-token", "disabled"]);
var BASE_REQUEST_HEADERS = ["Content-Type", "Authorization", "If-None-Match", "x-request-id"];
var BASE_EXPOSED_HEADERS = ["x-request-id", "Allow"];
var NOT_EXPOSABLE = /* @__PURE__ */ new Set(["set-cookie", "set-cookie2"]);
function corsHeadersFrom(contract, serverOnlyPaths = []) {
  const { document: document2 } = contract;
  const serverOnly = new Set(serverOnlyPaths.map((p) => p.toLowerCase()));
  const schemes = document2.components?.securitySchemes ?? {};
  const allow = /* @__PURE__ */ new Map();
  const add = /* @__PURE__ */ __name((target, name) => {
    if (!target.has(name.toLowerCase())) target.set(name.toLowerCase(), name);
  }, "add");
  for (const name of BASE_REQUEST_HEADERS) add(allow, name);
  for (const op of contract.operations) {
    if (SERVER_ACCESS.has(op.access) || serverOnly.has(op.path.toLowerCase())) continue;
    for (const param of op.parameters) if (param.in === "header") add(allow, param.name);
    for (const requirement of op.security ?? []) {
      for (const schemeName of Object.keys(requirement)) {
        const scheme = schemes[schemeName];
        if (scheme?.type === "apiKey" && scheme.in === "header" && scheme.name) add(allow, scheme.name);
      }
    }
  }
  const expose = /* @__PURE__ */ new Map();
  for (const name of BASE_EXPOSED_HEADERS) add(expose, name);
  const resolve = /* @__PURE__ */ __name((node) => {
    let current3 = node;
    for (let hops = 0; current3 && typeof current3 === "object" && typeof current3.$ref === "string" && hops < 10; hops++) {
      current3 = current3.$ref.replace(/^#\//, "").split("/").map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~")).reduce((at2, key) => at2?.[key], document2);
    }
    return current3;
  }, "resolve");
  const collect2 = /* @__PURE__ */ __name((response) => {
    for (const name of Object.keys(resolve(response)?.headers ?? {})) if (!NOT_EXPOSABLE.has(name.toLowerCase())) add(expose, name);
  }, "collect");
  for (const response of Object.values(document2.components?.responses ?? {})) collect2(response);
  for (const item of Object.values(document2.paths ?? {})) {
    for (const op of Object.values(resolve(item) ?? {})) {
      for (const response of Object.values(op?.responses ?? {})) collect2(response);
    }
  }
  return { allow: [...allow.values()], expose: [...expose.values()] };
}
__name(corsHeadersFrom, "corsHeadersFrom");
function corsPolicy(options) {
  const { allowedOrigin, headers, serverOnlyPaths = [] } = options;
  const serverOnly = new Set(serverOnlyPaths.map((p) => p.toLowerCase()));
  const listed = allowedOrigin.split(",").map((origin) => origin.trim()).filter(Boolean);
  const wildcard = listed.includes("*");
  const dashboards = new Set(options.credentialOrigins);
  const withOrigin = cors({
    origin: /* @__PURE__ */ __name((ctx) => {
      const origin = ctx.get("Origin");
      return wildcard || listed.includes(origin) || dashboards.has(origin) ? origin : "";
    }, "origin"),
    credentials: /* @__PURE__ */ __name((ctx) => dashboards.has(ctx.get("Origin")), "credentials"),
    keepHeadersOnError: true,
    exposeHeaders: headers.expose,
    allowHeaders: headers.allow,
    allowMethods: ["GET", "HEAD", "PUT", "POST", "PATCH", "DELETE", "OPTIONS"],
    maxAge: 600
  });
  const isServerOnly = /* @__PURE__ */ __name((path15) => {
    if (serverOnly.has(path15)) return true;
    const lower = path15.toLowerCase();
    if (lower === path15 && path15.charCodeAt(path15.length - 1) !== 47) return false;
    return serverOnly.has(lower.replace(/\/+$/, ""));
  }, "isServerOnly");
  return (ctx, next) => {
    if (serverOnly.size && isServerOnly(ctx.path)) return next();
    if (ctx.headers.origin !== void 0) return withOrigin(ctx, next);
    if (ctx.res.hasHeader("Vary")) ctx.vary("Origin");
    else ctx.res.setHeader("Vary", "Origin");
    return next();
  };
}
__name(corsPolicy, "corsPolicy");

// server/modules/chatNotifications/publicPolicy.ts
var policy = [{ path: "/api/ai/customer-support/chat-notifications", match: "exact", methods: ["POST"], level: "public" }];
var SERVER_ONLY_PATHS = ["/api/ai/customer-support/chat-notifications"];

// server/platform/http/errors.ts
import os from "node:os";
import path5 from "node:path";
import { fileURLToPath as fileURLToPath2 } from "node:url";

// server/platform/db/connectionErrors.ts
var CODES = /* @__PURE__ */ new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, and the connection exceptions (class 08).
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006"
]);
var MESSAGES = [
  /^Knex: Timeout acquiring a connection/,
  /Connection terminated/,
  /Connection ended unexpectedly/,
  /Client has encountered a connection error and is not queryable/,
  /terminating connection due to administrator command/,
  /the database system is (starting up|shutting down|in recovery mode)/
];
function isDatabaseUnavailable(thrown) {
  let err = thrown;
  for (let depth = 0; err && typeof err === "object" && depth < 5; depth++) {
    if (typeof err.code === "string" && CODES.has(err.code)) return true;
    if (typeof err.message === "string" && MESSAGES.some((pattern) => pattern.test(err.message))) return true;
    err = err.cause;
  }
  return false;
}
__name(isDatabaseUnavailable, "isDatabaseUnavailable");

// server/platform/http/errors.ts
var PROBLEM_TYPE_BASE = "https://venue.local/problems/";
function errorBoundary(options) {
  const { onServerError } = options;
  return (ctx, next) => next().catch((thrown) => {
    const problem = toProblem(thrown, options.jsonBodyLimitBytes);
    if (problem.status >= 500) {
      ctx.state.log?.error({ err: thrown }, "request failed");
      if (onServerError) reportServerError(onServerError, thrown, ctx, problem.status);
    }
    renderProblem(ctx, problem, thrown);
  });
}
__name(errorBoundary, "errorBoundary");
function reportServerError(report, thrown, ctx, status) {
  try {
    const route = ctx._matchedRoute;
    report(thrown, { requestId: ctx.state.requestId, method: ctx.method, route: typeof route === "string" ? route : ctx.path, status });
  } catch (err) {
    ctx.state.log?.warn({ err }, "server error report failed");
  }
}
__name(reportServerError, "reportServerError");
function renderProblem(ctx, problem, thrown = problem) {
  const body = {
    type: PROBLEM_TYPE_BASE + problem.code,
    title: problem.title,
    status: problem.status,
    code: problem.code,
    requestId: ctx.state.requestId
  };
  if (problem.detail !== void 0) body.detail = withoutServerPaths(problem.detail);
  if (problem.errors?.length) body.errors = problem.errors;
  if (isPrivileged(ctx.state.auth?.role) && thrown instanceof Error) body.debug = describe2(thrown);
  ctx.status = problem.status;
  if (problem.status === 401) ctx.set("WWW-Authenticate", WWW_AUTHENTICATE);
  for (const [name, value] of Object.entries(problem.headers ?? {})) ctx.set(name, value);
  ctx.type = "application/problem+json";
  ctx.body = body;
}
__name(renderProblem, "renderProblem");
function toProblem(thrown, limit) {
  if (thrown instanceof Problem) return thrown;
  const err = thrown;
  const status = err?.status ?? err?.statusCode;
  if (status === 413) return PayloadTooLarge(limit);
  if (status === 415) return UnsupportedMediaType(["application/json; charset=utf-8"]);
  if (status === 400 && err.expose) {
    return MalformedBody(err.type === "entity.parse.failed" ? "The body is not valid JSON." : String(err.message));
  }
  if (status && status >= 400 && status < 500 && err.expose) {
    return new Problem(status, "bad_request", "Bad request", { detail: String(err.message) });
  }
  if (isDatabaseUnavailable(thrown)) {
    return new Problem(503, "database_unavailable", "Service unavailable", {
      detail: "The database does not answer at the moment; nothing was changed. Try again shortly.",
      headers: { "Retry-After": "5" }
    });
  }
  return new Problem(500, "internal_error", "Internal server error", {
    detail: "An unexpected error occurred. Quote the request id when reporting it."
  });
}
__name(toProblem, "toProblem");
function describe2(error) {
  const cause = [];
  let next = error.cause;
  while (next instanceof Error && cause.length < 10) {
    cause.push({ name: next.name, message: withoutServerPaths(next.message), stack: scrubStack(next.stack) });
    next = next.cause;
  }
  return { name: error.name, message: withoutServerPaths(error.message), stack: scrubStack(error.stack), ...cause.length ? { cause } : {} };
}
__name(describe2, "describe");
var PROJECT_ROOT = path5.resolve(path5.dirname(fileURLToPath2(new URL("../server/platform/http/errors.ts", import.meta.url).href)), "../../..");
var SERVER_DIRS = [
  ...[.../* @__PURE__ */ new Set([PROJECT_ROOT, process.cwd()])].sort((a, b) => b.length - a.length).flatMap((dir) => [[`file://${dir}/`, ""], [`${dir}/`, ""]]),
  [`${os.tmpdir()}/`, "<tmp>/"],
  [`${os.homedir()}/`, "~/"]
].filter(([dir]) => dir.length > 2);
function withoutServerPaths(text) {
  let out = text;
  for (const [dir, replacement] of SERVER_DIRS) out = out.split(dir).join(replacement);
  return out;
}
__name(withoutServerPaths, "withoutServerPaths");
function scrubStack(stack) {
  if (stack === void 0) return void 0;
  return withoutServerPaths(stack).replace(/(?<=^|[\s(])(?:file:\/\/)?(?:\/[^\s()/]+)+\/([^\s()/]+:\d+:\d+)/gm, "$1");
}
__name(scrubStack, "scrubStack");

// server/platform/jobs/engine.ts
import { randomUUID as randomUUID5 } from "node:crypto";
import { createRequire as createRequire3 } from "node:module";
import pg from "pg";
import PgBoss from "pg-boss";

// server/platform/jobs/adapter.ts
import { createHash as createHash3 } from "node:crypto";
var StatementTracker = class {
  static {
    __name(this, "StatementTracker");
  }
  pending = /* @__PURE__ */ new Set();
  closed = false;
  get size() {
    return this.pending.size;
  }
  track(promise) {
    this.pending.add(promise);
    const forget = /* @__PURE__ */ __name(() => this.pending.delete(promise), "forget");
    promise.then(forget, forget);
    return promise;
  }
  /** Resolves once nothing is under way (statements started meanwhile included), or after `timeoutMs`. */
  async drain(timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (this.pending.size) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await Promise.race([Promise.allSettled([...this.pending]), new Promise((resolve) => setTimeout(resolve, left).unref())]);
    }
    return true;
  }
};
function lastResult(result) {
  if (!Array.isArray(result)) return result;
  for (let i = result.length - 1; i >= 0; i--) if (result[i].fields?.length || result[i].rows?.length) return result[i];
  return result[result.length - 1] ?? { rows: [] };
}
__name(lastResult, "lastResult");
var names = /* @__PURE__ */ new Map();
function prepared(text, values) {
  if (!values?.length) return text;
  let name = names.get(text);
  if (!name) {
    if (names.size >= 1e3) names.clear();
    names.set(text, name = `pgboss_${createHash3("sha1").update(text).digest("hex")}`);
  }
  return { name, text, values };
}
__name(prepared, "prepared");
function knexAdapter(knex, tracker) {
  const client = knex.client;
  const ownTransaction = !knex.isTransaction;
  const run = /* @__PURE__ */ __name(async (text, values) => {
    const connection = await client.acquireConnection();
    try {
      if (connection.exec) {
        if (!values?.length) return lastResult(await connection.exec(text));
        return lastResult(await connection.query(text, values));
      }
      return lastResult(await connection.query(prepared(text, values)));
    } catch (err) {
      if (ownTransaction && (connection.isInTransaction?.() ?? true)) {
        await connection.query("ROLLBACK").catch(() => void 0);
      }
      throw err;
    } finally {
      await client.releaseConnection(connection);
    }
  }, "run");
  return {
    executeSql(text, values) {
      if (!tracker) return run(text, values);
      if (tracker.closed) return Promise.resolve({ rows: [] });
      return tracker.track(run(text, values));
    }
  };
}
__name(knexAdapter, "knexAdapter");
function poolAdapter(pool, tracker) {
  const run = /* @__PURE__ */ __name(async (text, values) => {
    if (values?.length) return lastResult(await pool.query(prepared(text, values)));
    const client = await pool.connect();
    let broken;
    const onError = /* @__PURE__ */ __name((err) => broken = err, "onError");
    client.on("error", onError);
    try {
      return lastResult(await client.query(text));
    } catch (err) {
      await client.query("ROLLBACK").catch((rollback) => broken ??= rollback);
      throw err;
    } finally {
      client.removeListener("error", onError);
      client.release(broken);
    }
  }, "run");
  return {
    executeSql(text, values) {
      if (tracker.closed) return Promise.resolve({ rows: [] });
      return tracker.track(run(text, values));
    }
  };
}
__name(poolAdapter, "poolAdapter");

// server/platform/observability/tracing.ts
var tracingLoaded = false;
async function loadTracing(config, logger) {
  const { endpoint, serviceName } = config.tracing;
  if (!endpoint) return void 0;
  const { createTracing } = await import("./otel-YU2OI7UW.js");
  tracingLoaded = true;
  return createTracing({ endpoint, serviceName, logger });
}
__name(loadTracing, "loadTracing");

// server/platform/observability/server.ts
import { createHash as createHash4, timingSafeEqual as timingSafeEqual2 } from "node:crypto";
import http from "node:http";
var digest2 = /* @__PURE__ */ __name((value) => createHash4("sha256").update(value).digest(), "digest");
async function startMetricsServer(metrics2, options) {
  const expected2 = options.token ? digest2(options.token) : void 0;
  const log = options.logger.child({ component: "metrics" });
  const server = http.createServer((req, res) => {
    const path15 = (req.url ?? "/").split("?")[0].replace(/\/+$/, "") || "/";
    const answer2 = /* @__PURE__ */ __name((status, text, headers = {}) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers });
      res.end(req.method === "HEAD" ? void 0 : text);
    }, "answer");
    if (path15 !== "/metrics") return answer2(404, "Not found: metrics are at /metrics.\n");
    if (req.method !== "GET" && req.method !== "HEAD") return answer2(405, "Method not allowed.\n", { allow: "GET, HEAD" });
    if (expected2) {
      const presented = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim();
      if (!presented || !timingSafeEqual2(digest2(presented), expected2)) return answer2(401, "Present the metrics token as a Bearer token.\n", { "www-authenticate": 'Bearer realm="metrics"' });
    }
    metrics2.scrape().then(
      (text) => {
        res.writeHead(200, { "content-type": metrics2.contentType, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? void 0 : text);
      },
      (err) => {
        log.error({ err }, "metrics scrape failed");
        answer2(500, "The metrics could not be collected.\n");
      }
    );
  });
  server.keepAliveTimeout = 65e3;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = server.address().port;
  const host = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
  log.info({ port, host: options.host, token: Boolean(expected2) }, "metrics served on their own port");
  return {
    port,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/metrics`,
    close: /* @__PURE__ */ __name(() => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }), "close")
  };
}
__name(startMetricsServer, "startMetricsServer");

// server/platform/observability/index.ts
function observeRequests(metrics2) {
  return (ctx, next) => {
    const started = performance.now();
    return next().then(
      () => metrics2.observeRequest(ctx.state.operation?.operationId ?? "unmatched", ctx.status, (performance.now() - started) / 1e3),
      (err) => {
        metrics2.observeRequest(ctx.state.operation?.operationId ?? "unmatched", 500, (performance.now() - started) / 1e3);
        throw err;
      }
    );
  };
}
__name(observeRequests, "observeRequests");
function observeJob(observers, queue, job, run) {
  const metrics2 = observers?.metrics;
  const tracing = observers?.tracing;
  if (!metrics2 && !tracing) return run();
  const started = performance.now();
  const running = tracing ? tracing.runJob(queue, job, run) : run();
  if (!metrics2) return running;
  return running.then(
    (result) => {
      metrics2.observeJob(queue, "completed", (performance.now() - started) / 1e3);
      return result;
    },
    (err) => {
      metrics2.observeJob(queue, "failed", (performance.now() - started) / 1e3);
      throw err;
    }
  );
}
__name(observeJob, "observeJob");

// server/platform/jobs/engine.ts
var JOB_SCHEMA2 = "pgboss";
var STATES = ["created", "retry", "active", "completed", "cancelled", "failed"];
var POOL_MAX = 4;
var plans = createRequire3(new URL("../server/platform/jobs/engine.ts", import.meta.url).href)("pg-boss/src/plans.js");
var UNAWAITED = /* @__PURE__ */ new Set([plans.completeJobs(JOB_SCHEMA2), plans.failJobsById(JOB_SCHEMA2)]);
var FETCHES = new Set(
  [false, true].flatMap(
    (includeMetadata) => [false, true].flatMap((priority) => [false, true].map((ignoreStartAfter) => plans.fetchNextJob(JOB_SCHEMA2)({ includeMetadata, priority, ignoreStartAfter })))
  )
);
var attorney = createRequire3(new URL("../server/platform/jobs/engine.ts", import.meta.url).href)("pg-boss/src/attorney.js");
var QUEUE_FIELDS = ["policy", "retryLimit", "retryDelay", "retryBackoff", "expireInSeconds", "retentionMinutes", "deadLetter"];
function queueMatches(stored, settings) {
  if (!stored) return false;
  const wanted = attorney.checkQueueArgs(settings.name, { ...settings });
  return QUEUE_FIELDS.every((field) => wanted[field] === void 0 || wanted[field] === null || wanted[field] === stored[field]);
}
__name(queueMatches, "queueMatches");
function withWrites(base, writes) {
  const natives = writes.map((write) => write.toSQL().toNative());
  return {
    executeSql(text, values = []) {
      const head = /^\s*with\s/i.exec(text);
      if (!head) throw new Error("pg-boss's job insert no longer starts with WITH; writes alongside it need another form");
      const all2 = [...values];
      const ctes = natives.map((native, i) => {
        const offset = all2.length;
        all2.push(...native.bindings);
        return `w${i} as (${native.sql.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + offset}`)})`;
      });
      return base.executeSql(`with ${ctes.join(", ")}, ${text.slice(head[0].length)}`, all2);
    }
  };
}
__name(withWrites, "withWrites");
function startAfterText(startAfter) {
  if (startAfter === void 0) return void 0;
  if (startAfter instanceof Date) return startAfter.toISOString();
  if (typeof startAfter === "number") return `${startAfter} seconds`;
  return new Date(startAfter).toISOString();
}
__name(startAfterText, "startAfterText");
var ALONGSIDE_BATCH = 50;
function errorMessage(output) {
  if (!output || typeof output !== "object") return output == null ? null : String(output);
  const record39 = output;
  if (typeof record39.message === "string") return record39.message;
  if (typeof record39.value === "string") return record39.value;
  if (record39.value && typeof record39.value === "object" && typeof record39.value.message === "string") {
    return record39.value.message;
  }
  return JSON.stringify(output);
}
__name(errorMessage, "errorMessage");
var iso = /* @__PURE__ */ __name((value) => (value instanceof Date ? value : new Date(String(value))).toISOString(), "iso");
var PgBossJobEngine = class {
  constructor(options) {
    this.options = options;
    this.queues = /* @__PURE__ */ new Map();
    for (const queue of options.queues) {
      if (this.queues.has(queue.name)) throw new Error(`Job queue "${queue.name}" is registered twice`);
      if (!/^[\w.-]+$/.test(queue.name)) throw new Error(`Job queue name "${queue.name}": use letters, digits, _, - and .`);
      this.queues.set(queue.name, queue);
    }
    this.log = options.logger.child({ component: "jobs" });
  }
  options;
  static {
    __name(this, "PgBossJobEngine");
  }
  boss;
  pool;
  tracker = new StatementTracker();
  queues;
  workerIds = /* @__PURE__ */ new Map();
  running = /* @__PURE__ */ new Set();
  state = "new";
  starting;
  runWorkers = false;
  app;
  log;
  alongside = [];
  flushingAlongside = false;
  reclaimTimer;
  queuesReady = false;
  reclaiming;
  get started() {
    return this.state === "started";
  }
  get workers() {
    return this.state === "started" && this.runWorkers;
  }
  get pollingIntervalSeconds() {
    return this.options.pollingIntervalSeconds ?? this.options.config.jobPollIntervalSeconds;
  }
  get shutdownTimeoutMs() {
    return this.options.shutdownTimeoutMs ?? this.options.config.jobShutdownTimeoutMs;
  }
  start(options = {}) {
    if (this.state !== "new") return this.starting ?? Promise.reject(new Error("The job engine was stopped; create another"));
    this.state = "starting";
    this.starting = this.boot(options).then(
      () => {
        this.state = "started";
      },
      async (err) => {
        this.state = "stopped";
        clearInterval(this.reclaimTimer);
        await this.boss?.stop({ graceful: false, close: false }).catch(() => void 0);
        this.tracker.closed = true;
        await this.pool?.end().catch(() => void 0);
        throw err;
      }
    );
    return this.starting;
  }
  async boot(options) {
    const { config, db } = this.options;
    this.runWorkers = options.workers ?? config.jobWorkers;
    this.app = options.app;
    let adapter;
    if (db.kind === "postgres") {
      const connection = db.knex.client.config.connection;
      if (!connection || typeof connection !== "string" && typeof connection !== "object") throw new Error("The job engine cannot tell which PostgreSQL database knex uses");
      const target = typeof connection === "string" ? { connectionString: connection } : connection;
      this.pool = new pg.Pool({ ...target, max: POOL_MAX, application_name: "venue-jobs" });
      this.pool.on("error", (err) => this.log.error({ err }, "job engine connection error"));
      adapter = poolAdapter(this.pool, this.tracker);
    } else {
      adapter = knexAdapter(db.knex, this.tracker);
    }
    const guarded = {
      executeSql: /* @__PURE__ */ __name((text, values) => {
        const result = adapter.executeSql(text, values);
        if (FETCHES.has(text)) {
          const queue = this.queues.get(String(values?.[0]));
          if (!queue || this.expiryOf(queue) === queue.expireInSeconds) return result;
          return result.then((answer2) => {
            for (const row of answer2.rows) row.expireInSeconds = queue.expireInSeconds;
            return answer2;
          });
        }
        if (!UNAWAITED.has(text)) return result;
        return result.catch((err) => {
          this.log.error({ err, jobIds: values?.[1] }, "could not record the end of a job; it will run again");
          return { rows: [{ count: 0 }] };
        });
      }, "executeSql")
    };
    const boss = new PgBoss({
      db: guarded,
      schema: JOB_SCHEMA2,
      // No cron schedules yet: the timekeeper would poll a queue of its own for nothing.
      schedule: false,
      // Maintenance (expiring, archiving, deleting) only where workers run; a process that only enqueues leaves it to them.
      supervise: this.runWorkers,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? config.jobMaintenanceIntervalSeconds,
      pollingIntervalSeconds: this.pollingIntervalSeconds
    });
    boss.on("error", (err) => this.log.error({ err }, "job engine error"));
    this.boss = boss;
    await boss.start();
    const existing = new Map((await boss.getQueues()).map((stored) => [stored.name, stored]));
    for (const queue of this.queues.values()) {
      const settings = {
        name: queue.name,
        policy: queue.policy ?? "standard",
        retryLimit: queue.retryLimit,
        retryDelay: queue.retryDelay,
        retryBackoff: queue.retryBackoff,
        expireInSeconds: this.expiryOf(queue),
        ...queue.retentionMinutes ? { retentionMinutes: queue.retentionMinutes } : {}
      };
      if (queueMatches(existing.get(queue.name), settings)) continue;
      if (!existing.has(queue.name)) await retryOnDeadlock(() => boss.createQueue(queue.name, settings));
      await retryOnDeadlock(() => boss.updateQueue(queue.name, settings));
    }
    this.queuesReady = true;
    if (!this.runWorkers) return;
    if (db.kind === "embedded") await this.failOrphans(boss);
    for (const queue of this.queues.values()) {
      const ids = [];
      for (let i = 0; i < Math.max(1, queue.concurrency ?? 1); i++) ids.push(await this.work(boss, queue));
      this.workerIds.set(queue.name, ids);
    }
    if (db.kind === "postgres") {
      await this.reclaimLost().catch((err) => this.log.error({ err }, "reclaiming lost jobs failed"));
      this.reclaimTimer = setInterval(() => {
        if (this.reclaiming || this.state !== "started") return;
        this.reclaiming = this.reclaimLost().catch((err) => this.log.error({ err }, "reclaiming lost jobs failed")).finally(() => this.reclaiming = void 0);
      }, this.sweepSeconds * 1e3);
      this.reclaimTimer.unref();
    }
    this.log.info({ queues: [...this.queues.keys()], database: db.kind }, "job workers started");
  }
  /** Seconds of silence after which a run on PostgreSQL is lost (its process died or lost the database). */
  get lostAfterSeconds() {
    return this.options.lostAfterSeconds ?? this.options.config.jobLostAfterSeconds;
  }
  /** How often a running job's heartbeat is written: a third of the silence allowed. */
  get beatSeconds() {
    return Math.max(1, Math.floor(this.lostAfterSeconds / 3));
  }
  /** How often a worker sweeps for lost jobs: as often as it beats, or as maintenance runs when that is more often. */
  get sweepSeconds() {
    const maintenance = this.options.maintenanceIntervalSeconds ?? this.options.config.jobMaintenanceIntervalSeconds;
    return Math.max(1, Math.min(this.beatSeconds, Math.ceil(maintenance)));
  }
  /**
   * Seconds added to a job's stored `expire_in` on PostgreSQL beyond the moment this engine reclaims it: pg-boss's own
   * maintenance expires a job at its stored expiry and retries it only after the queue's `retryDelay`, so the engine's
   * sweep (every sweepSeconds, at once) must come first.
   */
  get graceSeconds() {
    return 2 * this.sweepSeconds;
  }
  /** PostgreSQL, and the queue's honest run is longer than the silence allowed: its runs send heartbeats. */
  heartbeats(queue) {
    return this.options.db.kind === "postgres" && queue.expireInSeconds > this.lostAfterSeconds;
  }
  /**
   * The `expire_in` a queue's jobs are created with. On PostgreSQL: the silence allowed (jobLostAfterSeconds, or the
   * queue's `expireInSeconds` when shorter) plus graceSeconds; a live run renews it by heartbeats (see heartbeat) up
   * to `expireInSeconds`, so a slow honest run keeps its job while the job of a process that died is reclaimed
   * jobLostAfterSeconds after its last heartbeat. On the embedded database one process owns the jobs and its restart
   * fails those it left active: the queue's `expireInSeconds` as it is.
   */
  expiryOf(queue) {
    if (this.options.db.kind !== "postgres") return queue.expireInSeconds;
    return (this.heartbeats(queue) ? this.lostAfterSeconds : queue.expireInSeconds) + this.graceSeconds;
  }
  /**
   * While a handler runs (a queue that heartbeats), every third of jobLostAfterSeconds: the job's expiry is moved to
   * jobLostAfterSeconds from now (never past `expireInSeconds` after its start), plus graceSeconds. A failed write is
   * logged; the run goes on (should the job be reclaimed meanwhile, its handler is idempotent).
   */
  heartbeat(queue, jobId, log) {
    if (!this.boss || !this.heartbeats(queue)) return () => void 0;
    const db = this.boss.getDb();
    const timer = setInterval(() => {
      db.executeSql(
        `update ${JOB_SCHEMA2}.job
            set expire_in = least($3::float8 * interval '1 second', now() - started_on + $4::float8 * interval '1 second') + $5::float8 * interval '1 second'
          where name = $1 and id = $2 and state = 'active'`,
        [queue.name, jobId, queue.expireInSeconds, this.lostAfterSeconds, this.graceSeconds]
      ).catch((err) => log.warn({ err }, "job heartbeat failed"));
    }, this.beatSeconds * 1e3);
    timer.unref();
    return () => clearInterval(timer);
  }
  /**
   * PostgreSQL: puts back the jobs whose run fell silent (its process died, or lost the database for longer than
   * jobLostAfterSeconds), or outlived its queue's `expireInSeconds`, to run again AT ONCE, on any worker, while
   * attempts remain (else failed). pg-boss's own maintenance would do the same graceSeconds later, and retry only after
   * the queue's `retryDelay` with backoff (half a minute and more for e-mail): that delay is for a handler that
   * failed, not for a process that vanished. One statement, taking only the rows no one else holds: several workers
   * sweeping at once never put a job back twice. Standard-policy queues of this app only (the others are left to
   * pg-boss's maintenance).
   */
  async reclaimLost() {
    if (!this.boss) return [];
    const names2 = [...this.queues.values()].filter((queue) => (queue.policy ?? "standard") === "standard").map((queue) => queue.name);
    const { rows: rows2 } = await this.boss.getDb().executeSql(
      `with lost as (
         select name, id from ${JOB_SCHEMA2}.job
          where state = 'active' and started_on + expire_in - $2::float8 * interval '1 second' < now() and name = any($1::text[])
          for update skip locked
       )
       update ${JOB_SCHEMA2}.job j
          set state = case when j.retry_count < j.retry_limit then 'retry'::${JOB_SCHEMA2}.job_state else 'failed'::${JOB_SCHEMA2}.job_state end,
              start_after = case when j.retry_count < j.retry_limit then now() else j.start_after end,
              completed_on = case when j.retry_count < j.retry_limit then null else now() end,
              output = jsonb_build_object('value', jsonb_build_object('message', 'lost: the process running it stopped answering, or the run outlived its expireInSeconds'))
         from lost
        where j.name = lost.name and j.id = lost.id
       returning j.name, j.id, j.state::text as state`,
      [names2, this.graceSeconds]
    );
    const reclaimed = rows2;
    if (reclaimed.length) {
      this.log.warn({ jobs: reclaimed }, "jobs lost by a process that stopped answering: put back to run again");
      for (const queue of new Set(reclaimed.filter((job) => job.state === "retry").map((job) => job.name))) this.wake(queue);
    }
    return reclaimed;
  }
  /** Embedded database only: the jobs a dead process left active are failed, so retried while attempts remain. */
  async failOrphans(boss) {
    const { rows: rows2 } = await boss.getDb().executeSql(`select name, id from ${JOB_SCHEMA2}.job where state = 'active'`, []);
    const byQueue = /* @__PURE__ */ new Map();
    for (const row of rows2) byQueue.set(row.name, [...byQueue.get(row.name) ?? [], row.id]);
    for (const [name, ids] of byQueue) {
      for (const id of ids) await boss.fail(name, id, { message: "interrupted: the process stopped while the job was active" });
      this.log.warn({ queue: name, jobIds: ids }, "jobs interrupted by a stop were failed, to be retried");
    }
  }
  async work(boss, queue) {
    let workerId;
    const id = await boss.work(
      queue.name,
      { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: this.pollingIntervalSeconds },
      ([job]) => {
        const attempt = job.retryCount + 1;
        const log = this.log.child({ queue: queue.name, jobId: job.id, attempt });
        const run = observeJob(this.app, queue.name, { id: job.id, attempt }, async () => {
          const stopHeartbeat = this.heartbeat(queue, job.id, log);
          try {
            const result = await queue.handler(job.data, { id: job.id, queue: queue.name, attempt, retryLimit: job.retryLimit, createdOn: job.createdOn, log, app: this.app });
            log.debug("job completed");
            return result;
          } catch (err) {
            log.warn({ err }, attempt > job.retryLimit ? "job failed: no attempts left" : "job failed; it will be retried");
            throw err;
          } finally {
            stopHeartbeat();
            if (workerId && this.state === "started") boss.notifyWorker(workerId);
          }
        });
        this.running.add(run);
        const forget = /* @__PURE__ */ __name(() => this.running.delete(run), "forget");
        run.then(forget, forget);
        return run;
      }
    );
    workerId = id;
    return id;
  }
  wake(queue) {
    if (this.state !== "started") return;
    for (const id of this.workerIds.get(queue) ?? []) this.boss?.notifyWorker(id);
  }
  async enqueue(queue, data, options = {}) {
    if (!(this.state === "started" || this.state === "starting" && this.queuesReady) || !this.boss) throw new Error(`Cannot enqueue on "${queue}": the job engine is not started`);
    if (!this.queues.has(queue)) throw new Error(`Unknown job queue "${queue}" (declare it in its module's record)`);
    const { trx, startAfter, singletonKey, alongside } = options;
    if (trx?.isCompleted()) throw new Error(`Cannot enqueue on "${queue}": the transaction has ended`);
    if (alongside) {
      if (trx || singletonKey !== void 0 || (this.queues.get(queue)?.policy ?? "standard") !== "standard") {
        throw new Error(`Cannot enqueue on "${queue}" alongside a write: not inside a transaction, nor with a singleton policy`);
      }
      const entry = { id: randomUUID5(), queue, data, write: alongside, startAfter: startAfterText(startAfter) };
      return new Promise((resolve, reject) => {
        this.alongside.push({ ...entry, resolve, reject });
        if (!this.flushingAlongside) void this.flushAlongside();
      });
    }
    const id = await this.boss.send(queue, data, {
      ...trx ? { db: knexAdapter(trx) } : {},
      ...startAfter !== void 0 ? { startAfter } : {},
      ...singletonKey !== void 0 ? { singletonKey } : {}
    });
    if (id && startAfter === void 0 && this.workerIds.has(queue)) {
      if (trx) trx.executionPromise.then(() => this.wake(queue), () => void 0);
      else this.wake(queue);
    }
    return id;
  }
  /**
   * Group commit for `alongside` enqueues: the first goes at once, in a statement of its own; those that arrive
   * while a statement is in flight wait for it, then go together in the next one (a job and a write each, in one
   * statement, at most ALONGSIDE_BATCH). A lone request waits for nothing extra; under a burst (a chat platform's
   * broadcast) the requests share one round trip and one commit instead of taking one each. Should a batch fail
   * (one member's write refused), each of its members is written alone, so only that one fails.
   */
  async flushAlongside() {
    this.flushingAlongside = true;
    try {
      while (this.alongside.length) {
        const batch = this.alongside.splice(0, ALONGSIDE_BATCH);
        const settle = /* @__PURE__ */ __name(async (members) => {
          await this.writeAlongside(members);
          for (const member of members) member.resolve(member.id);
        }, "settle");
        await settle(batch).catch(async (err) => {
          if (batch.length === 1) return batch[0].reject(err);
          await Promise.all(batch.map((member) => settle([member]).catch((alone) => member.reject(alone))));
        });
        for (const queue of new Set(batch.filter((member) => member.startAfter === void 0).map((member) => member.queue))) {
          if (this.workerIds.has(queue)) this.wake(queue);
        }
      }
    } finally {
      this.flushingAlongside = false;
    }
  }
  async writeAlongside(members) {
    if (!this.boss) throw new Error("The job engine is not started");
    const jobs8 = members.map((member) => ({ id: member.id, name: member.queue, data: member.data, ...member.startAfter ? { startAfter: member.startAfter } : {} }));
    await this.boss.insert(jobs8, { db: withWrites(knexAdapter(this.options.db.knex), members.map((member) => member.write)) });
  }
  async stats(options = {}) {
    if (!this.boss || this.state === "new" || this.state === "stopped") throw new Error("The job engine is not started");
    const limit = Math.max(0, Math.min(options.failures ?? 20, 500));
    const db = this.boss.getDb();
    const counted = await db.executeSql(
      `select q.name, j.state::text as state, count(j.id)::int as count
         from ${JOB_SCHEMA2}.queue q left join ${JOB_SCHEMA2}.job j on j.name = q.name
        where q.name not like '\\_\\_pgboss\\_\\_%'
        group by q.name, j.state order by q.name`,
      []
    );
    const queues = /* @__PURE__ */ new Map();
    for (const row of counted.rows) {
      let entry = queues.get(row.name);
      if (!entry) queues.set(row.name, entry = { name: row.name, counts: Object.fromEntries(STATES.map((s) => [s, 0])) });
      if (row.state) entry.counts[row.state] = Number(row.count);
    }
    let failures = [];
    if (limit) {
      const failed = await db.executeSql(
        `select id, name, completed_on, output, retry_count, started_on from (
           select id, name, completed_on, output, retry_count, started_on from ${JOB_SCHEMA2}.job where state = 'failed'
           union all
           select id, name, completed_on, output, retry_count, started_on from ${JOB_SCHEMA2}.archive where state = 'failed'
         ) f order by completed_on desc nulls last limit $1`,
        [limit]
      );
      failures = failed.rows.map(
        (row) => ({
          id: row.id,
          queue: row.name,
          failedAt: iso(row.completed_on),
          error: errorMessage(row.output),
          attempts: row.started_on ? Number(row.retry_count) + 1 : 0
        })
      );
    }
    return { queues: [...queues.values()], failures };
  }
  async health(options = {}) {
    const base = { started: this.started, workers: this.workers };
    if (!this.started || !this.boss) return { ...base, ok: false, error: "not started" };
    let timer;
    try {
      await Promise.race([
        this.boss.getDb().executeSql(`select version from ${JOB_SCHEMA2}.version`, []),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error("no answer in time")), options.timeoutMs ?? 2e3);
        })
      ]);
      return { ...base, ok: true };
    } catch (err) {
      return { ...base, ok: false, error: err.message };
    } finally {
      clearTimeout(timer);
    }
  }
  async stop() {
    if (this.state === "starting") await this.starting?.catch(() => void 0);
    if (this.state !== "started") return;
    this.state = "stopping";
    const deadline = Date.now() + this.shutdownTimeoutMs;
    const boss = this.boss;
    clearInterval(this.reclaimTimer);
    await this.reclaiming;
    await boss.stop({ graceful: true, wait: true, close: false, timeout: this.shutdownTimeoutMs }).catch((err) => this.log.error({ err }, "job engine stop"));
    while (this.running.size && Date.now() < deadline) {
      await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => setTimeout(resolve, deadline - Date.now()).unref())]);
    }
    if (this.running.size) this.log.warn({ running: this.running.size }, "jobs still running after the shutdown timeout; they will run again");
    await this.tracker.drain(Math.max(1e3, deadline - Date.now()));
    this.tracker.closed = true;
    await this.pool?.end().catch((err) => this.log.error({ err }, "job engine pool end"));
    this.state = "stopped";
    if (this.runWorkers) this.log.info("job workers stopped");
  }
};
function createJobEngine(options) {
  return new PgBossJobEngine(options);
}
__name(createJobEngine, "createJobEngine");
async function retryOnDeadlock(statement) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (err) {
      if (err.code !== "40P01" || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt + Math.floor(Math.random() * 25)));
    }
  }
}
__name(retryOnDeadlock, "retryOnDeadlock");

// server/platform/jobs/registry.ts
function collectQueues(lists) {
  const seen = /* @__PURE__ */ new Set();
  const all2 = [];
  for (const list of lists) {
    for (const queue of list) {
      if (seen.has(queue.name)) throw new Error(`Job queue "${queue.name}" is declared by two modules`);
      seen.add(queue.name);
      all2.push(queue);
    }
  }
  return all2;
}
__name(collectQueues, "collectQueues");

// server/platform/http/operations.ts
import { Readable as Readable3, Stream } from "node:stream";
import { ReadableStream as WebReadableStream } from "node:stream/web";
import Router from "@koa/router";
import compose from "koa-compose";

// server/platform/http/body.ts
import busboy from "busboy";
function refuse(ctx, limit) {
  ctx.set("Connection", "close");
  ctx.req.unpipe();
  ctx.req.resume();
  return PayloadTooLarge(limit);
}
__name(refuse, "refuse");
function readBody(ctx, limit) {
  const declared = Number(ctx.get("content-length") || NaN);
  if (declared > limit) return Promise.reject(refuse(ctx, limit));
  return new Promise((resolve, reject) => {
    const chunks = [];
    let total = 0;
    const req = ctx.req;
    const cleanup = /* @__PURE__ */ __name(() => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    }, "cleanup");
    const onData = /* @__PURE__ */ __name((chunk) => {
      total += chunk.length;
      if (total > limit) {
        cleanup();
        reject(refuse(ctx, limit));
        return;
      }
      chunks.push(chunk);
    }, "onData");
    const onEnd = /* @__PURE__ */ __name(() => {
      cleanup();
      resolve(Buffer.concat(chunks, total));
    }, "onEnd");
    const onError = /* @__PURE__ */ __name((err) => {
      cleanup();
      reject(MalformedBody(`The body could not be read: ${err.message}`));
    }, "onError");
    const onAborted = /* @__PURE__ */ __name(() => onError(new Error("the client went away")), "onAborted");
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}
__name(readBody, "readBody");
function typeMatches(type, patterns) {
  return patterns.some((p) => p === "*/*" || p === type || p.endsWith("/*") && type.startsWith(p.slice(0, -1)));
}
__name(typeMatches, "typeMatches");
var fileType;
async function checkFileType(bytes2, declared, where, allowed) {
  if (allowed && allowed.length && !typeMatches(declared, allowed)) {
    throw new Problem(415, "unsupported_media_type", "Unsupported media type", {
      detail: `${where} is ${declared}; accepted: ${allowed.join(", ")}.`,
      errors: [{ path: where, message: `must be one of: ${allowed.join(", ")}`, code: "unsupported_file_type" }]
    });
  }
  const { fileTypeFromBuffer, supportedMimeTypes } = await (fileType ??= import("file-type"));
  const detected = (await fileTypeFromBuffer(bytes2))?.mime;
  if (declared === "application/octet-stream") return detected;
  const mismatch = detected ? detected !== declared : supportedMimeTypes.has(declared);
  if (mismatch) {
    const seen = detected ? `it looks like ${detected}` : "its signature is missing";
    throw new Problem(400, "file_type_mismatch", "Content does not match its type", {
      detail: `${where} is declared as ${declared}, but ${seen}.`,
      errors: [{ path: where, message: `content is not ${declared} (${seen})`, code: "file_type_mismatch" }]
    });
  }
  return detected;
}
__name(checkFileType, "checkFileType");
function fileFields(schema) {
  const out = /* @__PURE__ */ new Map();
  const isFile = /* @__PURE__ */ __name((s) => s && typeof s === "object" && (s.format === "binary" || s.contentMediaType !== void 0 || s.contentEncoding !== void 0), "isFile");
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (isFile(prop)) out.set(name, { many: false });
    else if (prop?.type === "array" && isFile(prop.items)) out.set(name, { many: true });
  }
  return out;
}
__name(fileFields, "fileFields");
var MAX_FIELDS = 100;
var MAX_FIELD_BYTES = 64 * 1024;
function parseMultipart(ctx, media, limit) {
  const declared = Number(ctx.get("content-length") || NaN);
  if (declared > limit) return Promise.reject(refuse(ctx, limit));
  const fileProps = fileFields(media.schema);
  const arrays = new Set(Object.entries(media.schema.properties ?? {}).filter(([, p]) => p?.type === "array").map(([n]) => n));
  let parser;
  try {
    parser = busboy({ headers: ctx.req.headers, limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, fileSize: limit, parts: MAX_FIELDS + 20 } });
  } catch (err) {
    return Promise.reject(MalformedBody(`The multipart body cannot be read: ${err.message}.`));
  }
  return new Promise((resolve, reject) => {
    const fields = {};
    const files = {};
    const errors = [];
    let settled = false;
    let total = 0;
    const fail = /* @__PURE__ */ __name((problem) => {
      if (settled) return;
      settled = true;
      ctx.req.off("data", count);
      ctx.req.unpipe(parser);
      parser.removeAllListeners();
      parser.on("error", () => {
      });
      ctx.req.resume();
      reject(problem);
    }, "fail");
    const count = /* @__PURE__ */ __name((chunk) => {
      total += chunk.length;
      if (total > limit) fail(refuse(ctx, limit));
    }, "count");
    const put = /* @__PURE__ */ __name((name, value) => {
      if (arrays.has(name)) (fields[name] ??= []).push(value);
      else if (name in fields) errors.push({ path: `body/${name}`, message: "must be sent once", code: "duplicate_field" });
      else fields[name] = value;
    }, "put");
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) errors.push({ path: `body/${name}`, message: `is over ${MAX_FIELD_BYTES} bytes`, code: "maxLength" });
      if (fileProps.has(name)) errors.push({ path: `body/${name}`, message: "must be a file", code: "file_required" });
      else put(name, value);
    });
    parser.on("file", (name, stream2, info) => {
      const chunks = [];
      let size = 0;
      stream2.on("data", (chunk) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      stream2.on("limit", () => fail(refuse(ctx, limit)));
      stream2.on("end", () => {
        if (settled) return;
        if (!fileProps.has(name)) {
          errors.push({ path: `body/${name}`, message: "is not a file field", code: "unexpected_file" });
          return;
        }
        const file = {
          field: name,
          filename: info.filename ?? "",
          contentType: (info.mimeType || "application/octet-stream").toLowerCase().split(";")[0].trim(),
          size,
          bytes: Buffer.concat(chunks, size)
        };
        (files[name] ??= []).push(file);
        put(name, file.filename);
      });
    });
    parser.on("filesLimit", () => fail(new Problem(413, "payload_too_large", "Payload too large", { detail: "Too many files." })));
    parser.on("fieldsLimit", () => fail(new Problem(413, "payload_too_large", "Payload too large", { detail: `More than ${MAX_FIELDS} fields.` })));
    parser.on("partsLimit", () => fail(new Problem(413, "payload_too_large", "Payload too large", { detail: "Too many parts." })));
    parser.on("error", (err) => fail(MalformedBody(`The multipart body cannot be read: ${err.message}.`)));
    parser.on("close", () => {
      if (settled) return;
      ctx.req.off("data", count);
      (async () => {
        if (errors.length) throw ValidationFailed(errors);
        for (const [field, list] of Object.entries(files)) {
          for (const [index, file] of list.entries()) {
            const where = fileProps.get(field).many ? `body/${field}/${index}` : `body/${field}`;
            file.detectedType = await checkFileType(file.bytes, file.contentType, where, media.encoding[field]?.contentType);
          }
        }
        return { fields, files };
      })().then(
        (result) => {
          settled = true;
          resolve(result);
        },
        (problem) => {
          settled = true;
          reject(problem);
        }
      );
    });
    ctx.req.on("data", count);
    ctx.req.on("aborted", () => fail(MalformedBody("The client went away.")));
    ctx.req.pipe(parser);
  });
}
__name(parseMultipart, "parseMultipart");
var isJsonType = /* @__PURE__ */ __name((type) => type === "application/json" || /^application\/[\w.-]+\+json$/.test(type), "isJsonType");

// server/platform/http/handler.ts
var json = /* @__PURE__ */ __name((status, body, headers) => ({ status, body, headers }), "json");
var noContent = /* @__PURE__ */ __name((headers) => ({ status: 204, headers }), "noContent");
function bytes(body, contentType, options = {}) {
  const headers = { ...options.headers };
  if (options.filename !== void 0) headers["Content-Disposition"] = contentDisposition(options.filename, options.inline);
  return { status: options.status ?? 200, body, contentType, headers, cookies: options.cookies };
}
__name(bytes, "bytes");
function stream(body, contentType, options = {}) {
  const headers = { ...options.headers };
  if (options.length !== void 0) headers["Content-Length"] = String(options.length);
  if (options.filename !== void 0) headers["Content-Disposition"] = contentDisposition(options.filename, options.inline);
  if (contentType.startsWith("text/event-stream")) {
    headers["Cache-Control"] ??= "no-cache";
    headers["X-Accel-Buffering"] ??= "no";
  }
  return { status: options.status ?? 200, body, contentType, headers, cookies: options.cookies };
}
__name(stream, "stream");
function redirect(location, status, options = {}) {
  return { status: status ?? 302, headers: { ...options.headers, Location: location }, cookies: options.cookies };
}
__name(redirect, "redirect");
var notModified = /* @__PURE__ */ __name((headers) => ({ status: 304, headers }), "notModified");
function etagMatches(ifNoneMatch, etag) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}
__name(etagMatches, "etagMatches");
var cookie = /* @__PURE__ */ __name((name, value, options) => ({ name, value, options }), "cookie");
var expiredCookie = /* @__PURE__ */ __name((name, options = {}) => ({ name, value: "", options: { ...options, maxAge: 0 } }), "expiredCookie");
function withCookies(reply, ...cookies) {
  return { ...reply, cookies: [...reply.cookies ?? [], ...cookies] };
}
__name(withCookies, "withCookies");
function contentDisposition(filename, inline = false) {
  const kind = inline ? "inline" : "attachment";
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  if (ascii === filename) return `${kind}; filename="${ascii}"`;
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())}`;
}
__name(contentDisposition, "contentDisposition");
var COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
var COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
function serializeCookie(entry, requestIsSecure) {
  const { name, value, options = {} } = entry;
  if (!COOKIE_NAME.test(name)) throw new TypeError(`cookie name ${JSON.stringify(name)} is not a token`);
  if (!COOKIE_VALUE.test(value)) throw new TypeError(`cookie ${name}: the value has characters a cookie cannot carry`);
  const parts = [`${name}=${value}`, `Path=${options.path ?? "/"}`];
  if (options.domain) parts.push(`Domain=${options.domain}`);
  if (options.maxAge !== void 0) {
    const seconds = Math.max(0, Math.floor(options.maxAge));
    parts.push(`Max-Age=${seconds}`, `Expires=${new Date(seconds === 0 ? 0 : Date.now() + seconds * 1e3).toUTCString()}`);
  }
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure ?? requestIsSecure) parts.push("Secure");
  if (options.sameSite) parts.push(`SameSite=${options.sameSite[0].toUpperCase()}${options.sameSite.slice(1)}`);
  return parts.join("; ");
}
__name(serializeCookie, "serializeCookie");

// server/platform/http/policy.ts
var BASE_POLICY = [
  { path: "/api/sudo/", match: "prefix", level: "superuser" },
  { path: "/api/", match: "prefix", level: "staff" }
];
var FALLBACK = { path: "/", match: "prefix", level: "staff" };
var MIN_PUBLIC_PREFIX_SEGMENTS = 3;
function findPolicy(registry, method, path15) {
  let best;
  for (const entry of registry) {
    if (entry.methods && !entry.methods.includes(method)) continue;
    const hit = entry.match === "exact" ? path15 === entry.path || path15 === samplePath(entry.path) : path15.startsWith(entry.path);
    if (!hit) continue;
    if (!best || specificity(entry) > specificity(best)) best = entry;
  }
  return best ?? FALLBACK;
}
__name(findPolicy, "findPolicy");
var specificity = /* @__PURE__ */ __name((entry) => (entry.match === "exact" ? 1e6 : 0) + entry.path.length, "specificity");
function satisfiesPolicy(auth, level) {
  if (level === "public") return true;
  if (level === "session") return auth.authSource === "session" || auth.role !== "public";
  return roleAtLeast(auth.role, level);
}
__name(satisfiesPolicy, "satisfiesPolicy");
var samplePath = /* @__PURE__ */ __name((openApiPath) => openApiPath.replace(/\{[^}]+\}/g, "x"), "samplePath");
var LEVEL_RANK = { public: 0, session: 1, staff: 2, admin: 3, superuser: 4 };
function checkPolicyRegistry(contract, registry) {
  const problems = [];
  for (const entry of registry) {
    if (entry.level !== "public" || entry.match !== "prefix") continue;
    const segments = entry.path.split("/").filter(Boolean).length;
    if (segments < MIN_PUBLIC_PREFIX_SEGMENTS || !entry.path.endsWith("/")) {
      problems.push(`public prefix ${entry.path} is too broad: name the route family (at least ${MIN_PUBLIC_PREFIX_SEGMENTS} segments, ending in /)`);
    }
  }
  for (const op of contract.operations) {
    if (op.access === "disabled") continue;
    const entry = findPolicy(registry, op.method, samplePath(op.path));
    const open = op.access === "public" || isTokenLevel(op.access);
    if (open && entry.level !== "public") {
      problems.push(`${op.operationId} (${op.method} ${op.path}) is ${op.access} but no explicit public policy entry covers it`);
    }
    if (!open && entry.level === "public") {
      problems.push(`${op.operationId} (${op.method} ${op.path}) is ${op.access} but the public policy entry ${entry.path} covers it: public entries may cover public operations only`);
    }
    if (!open && LEVEL_RANK[entry.level] > LEVEL_RANK[op.access]) {
      problems.push(`${op.operationId} (${op.method} ${op.path}) admits ${op.access} but the policy entry ${entry.path} demands ${entry.level}`);
    }
  }
  return problems;
}
__name(checkPolicyRegistry, "checkPolicyRegistry");
function publicApiPolicy(mode, registry, op) {
  const entry = findPolicy(registry, op.method, samplePath(op.path));
  if (mode === "off" || entry.level === "public") return void 0;
  return (ctx, next) => {
    const auth = ctx.state.auth;
    if (!satisfiesPolicy(auth, entry.level)) {
      const path15 = ctx.state.logPath ?? ctx.path;
      ctx.state.log.warn(
        { policy: entry.path, required: entry.level, role: auth.role, method: ctx.method, path: path15, mode },
        `[public-api-policy] ${ctx.method} ${path15} by ${auth.role} needs ${entry.level} (${entry.path})`
      );
      if (mode === "enforce") {
        if (auth.role === "public") throw auth.authSource === "session" ? NoActiveMembership() : Unauthenticated();
        throw Forbidden("policy_blocked", `The public API policy requires ${entry.level} for this route.`);
      }
    }
    return next();
  };
}
__name(publicApiPolicy, "publicApiPolicy");

// server/platform/http/validation.ts
import { createRequire as createRequire4 } from "node:module";
var ajvModules;
function loadAjv() {
  if (!ajvModules) {
    const load2 = createRequire4(new URL("../server/platform/http/validation.ts", import.meta.url).href);
    const ajv = load2("ajv/dist/2020.js");
    const formats = load2("ajv-formats");
    ajvModules = {
      Ajv2020: ajv.Ajv2020 ?? ajv.default,
      addFormats: formats.default ?? formats,
      fullFormats: load2("ajv-formats/dist/formats.js").fullFormats
    };
  }
  return ajvModules;
}
__name(loadAjv, "loadAjv");
var CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
var rfc3339DateTime;
function isDateTime(value) {
  rfc3339DateTime ??= loadAjv().fullFormats["date-time"].validate;
  if (!rfc3339DateTime(value)) return false;
  const time2 = Date.parse(value);
  if (!Number.isFinite(time2)) return false;
  const year = new Date(time2).getUTCFullYear();
  return year >= 1 && year <= 9999;
}
__name(isDateTime, "isDateTime");
var MAX_BODY_DEPTH = 64;
function nestedDeeperThan(value, max) {
  if (value === null || typeof value !== "object") return false;
  const stack = [{ node: value, depth: 1 }];
  while (stack.length) {
    const { node, depth } = stack.pop();
    if (depth > max) return true;
    for (const key in node) {
      const child = node[key];
      if (child !== null && typeof child === "object") stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}
__name(nestedDeeperThan, "nestedDeeperThan");
var CONTRACT_ID = "openapi.yaml";
var at = /* @__PURE__ */ __name((pointer) => ({ $ref: `${CONTRACT_ID}#${pointer}` }), "at");
function createAjv(contract, options) {
  const { Ajv2020, addFormats } = loadAjv();
  const ajv = new Ajv2020({
    allErrors: options.allErrors,
    coerceTypes: options.coerce ? "array" : false,
    useDefaults: true,
    strict: false,
    validateFormats: true,
    // The OpenAPI document is not itself a JSON Schema: only the schemas inside it are compiled.
    validateSchema: false
  });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  ajv.addFormat("byte", true);
  ajv.addFormat("uuid", CANONICAL_UUID);
  ajv.addFormat("date-time", { type: "string", validate: isDateTime });
  ajv.addSchema(contract.document, CONTRACT_ID);
  return ajv;
}
__name(createAjv, "createAjv");
var LazyValidators = class {
  constructor(operations, compile) {
    this.compile = compile;
    this.operations = new Map(operations.map((op) => [op.operationId, op]));
  }
  compile;
  static {
    __name(this, "LazyValidators");
  }
  compiled = /* @__PURE__ */ new Map();
  operations;
  get(operationId) {
    let validators = this.compiled.get(operationId);
    if (validators === void 0) {
      const op = this.operations.get(operationId);
      if (!op) return void 0;
      this.compiled.set(operationId, validators = this.compile(op));
    }
    return validators;
  }
  /** How many operations have been compiled so far. */
  get compiledCount() {
    return this.compiled.size;
  }
  compileAll() {
    for (const id of this.operations.keys()) this.get(id);
    return this;
  }
};
var requestCache = /* @__PURE__ */ new WeakMap();
var responseCache = /* @__PURE__ */ new WeakMap();
function compileRequestValidators(contract, allErrors) {
  let byMode = requestCache.get(contract);
  if (!byMode) requestCache.set(contract, byMode = /* @__PURE__ */ new Map());
  let compiled2 = byMode.get(allErrors);
  if (!compiled2) byMode.set(allErrors, compiled2 = requestValidatorsFor(contract, allErrors));
  return compiled2;
}
__name(compileRequestValidators, "compileRequestValidators");
function requestValidatorsFor(contract, allErrors) {
  let ajvs;
  return new LazyValidators(contract.operations, (op) => {
    ajvs ??= { paramsAjv: createAjv(contract, { coerce: true, allErrors }), bodyAjv: createAjv(contract, { coerce: false, allErrors }) };
    return compileOperationRequest(op, ajvs.paramsAjv, ajvs.bodyAjv);
  });
}
__name(requestValidatorsFor, "requestValidatorsFor");
function compileOperationRequest(op, paramsAjv, bodyAjv) {
  const groups = {
    path: { type: "object", properties: {}, required: [] },
    query: { type: "object", properties: {}, required: [] },
    headers: { type: "object", properties: {}, required: [] }
  };
  for (const param of op.parameters) {
    if (param.in === "cookie") continue;
    const group = groups[param.in === "header" ? "headers" : param.in];
    const name = param.in === "header" ? param.name.toLowerCase() : param.name;
    group.properties[name] = param.schema.default === void 0 ? at(param.pointer) : { ...at(param.pointer), default: param.schema.default };
    if (param.required || param.in === "path") group.required.push(name);
  }
  const jsonPointer = op.requestBody?.pointers["application/json"];
  const jsonValidate = jsonPointer ? bodyAjv.compile(at(jsonPointer)) : void 0;
  const formPointer = op.requestBody?.pointers["multipart/form-data"];
  const formValidate = formPointer ? paramsAjv.compile(at(formPointer)) : void 0;
  const check2 = /* @__PURE__ */ __name((validate, body) => [
    ...validate(body) ? [] : toFieldErrors(validate.errors, "body"),
    ...nulCharacters(body, "body")
  ], "check");
  const bodyValidate = jsonValidate || formValidate ? (body, mediaType) => mediaType === "multipart/form-data" ? formValidate ? check2(formValidate, body) : [] : jsonValidate && isJsonMedia(mediaType) ? check2(jsonValidate, body) : [] : void 0;
  return {
    parameters: op.parameters.some((param) => param.in !== "cookie") ? parameterValidator(paramsAjv.compile({ type: "object", properties: groups })) : (
      // Nothing declared: no schema can fail and no header is collected; only stray query values are checked.
      (input) => nulCharacters(input.query, "query")
    ),
    body: bodyValidate ? (body, mediaType) => {
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) throw BodyTooDeep(MAX_BODY_DEPTH);
      return bodyValidate(body, mediaType);
    } : void 0
  };
}
__name(compileOperationRequest, "compileOperationRequest");
function parameterValidator(validate) {
  return (input) => {
    const errors = validate(input) ? [] : toFieldErrors(validate.errors, "");
    nulCharacters(input.path, "path", errors);
    nulCharacters(input.query, "query", errors);
    return nulCharacters(input.headers, "header", errors);
  };
}
__name(parameterValidator, "parameterValidator");
function nulCharacters(value, path15, out = []) {
  if (typeof value === "string") {
    if (value.includes("\0")) out.push({ path: path15, message: "must not contain the NUL character", code: "nul_character" });
    return out;
  }
  if (!value || typeof value !== "object" || isEmpty(value)) return out;
  const stack = [{ value, key: path15, parent: void 0 }];
  while (stack.length) {
    const current3 = stack.pop();
    const item = current3.value;
    if (typeof item === "string") {
      if (item.includes("\0")) out.push({ path: pathOf(current3), message: "must not contain the NUL character", code: "nul_character" });
    } else if (item && typeof item === "object") {
      const start = stack.length;
      if (Array.isArray(item)) {
        for (let index = 0; index < item.length; index++) stack.push({ value: item[index], key: String(index), parent: current3 });
      } else {
        for (const key in item) {
          const child = item[key];
          stack.push({ value: key.includes("\0") ? key : child, key: key.replace(/\u0000/g, "\\0"), parent: current3 });
        }
      }
      for (let i = start, j = stack.length - 1; i < j; i++, j--) [stack[i], stack[j]] = [stack[j], stack[i]];
    }
  }
  return out;
}
__name(nulCharacters, "nulCharacters");
function pathOf(entry) {
  const keys = [];
  for (let at2 = entry; at2; at2 = at2.parent) keys.push(at2.key);
  return keys.reverse().join("/");
}
__name(pathOf, "pathOf");
function isEmpty(value) {
  for (const _ in value) return false;
  return true;
}
__name(isEmpty, "isEmpty");
var isJsonMedia = /* @__PURE__ */ __name((type) => type === "application/json" || /^application\/[\w.-]+\+json$/.test(type), "isJsonMedia");
function compileResponseValidators(contract) {
  let compiled2 = responseCache.get(contract);
  if (!compiled2) responseCache.set(contract, compiled2 = responseValidatorsFor(contract));
  return compiled2;
}
__name(compileResponseValidators, "compileResponseValidators");
function responseValidatorsFor(contract) {
  let ajv;
  return new LazyValidators(contract.operations, (op) => {
    ajv ??= createAjv(contract, { coerce: false, allErrors: true });
    const compiled2 = /* @__PURE__ */ new Map();
    for (const [status, media] of Object.entries(op.responses)) {
      for (const type of Object.keys(media)) {
        const pointer = op.responsePointers[`${status} ${type}`];
        compiled2.set(`${status} ${type}`, pointer ? ajv.compile(at(pointer)) : void 0);
      }
    }
    return (status, contentType, body, opaque) => describeMismatch(op, compiled2, status, contentType, body, opaque);
  });
}
__name(responseValidatorsFor, "responseValidatorsFor");
function describeMismatch(op, compiled2, status, contentType, body, opaque = false) {
  const declared = op.responses[String(status)] ?? op.responses.default;
  if (!declared) return `${op.operationId}: status ${status} is not declared`;
  const key = op.responses[String(status)] ? String(status) : "default";
  const types = Object.keys(declared);
  if (types.length === 0) {
    return !opaque && (body === void 0 || body === null || body === "") ? void 0 : `${op.operationId}: ${status} declares no body`;
  }
  const type = contentType?.split(";")[0].trim();
  if (!type || !types.includes(type)) return `${op.operationId}: ${status} content type ${type} is not one of ${types.join(", ")}`;
  const validate = compiled2.get(`${key} ${type}`);
  if (validate && !opaque && isJsonMedia(type) && !validate(body)) {
    return `${op.operationId}: ${status} body does not match: ${toFieldErrors(validate.errors, "body").map((e) => `${e.path} ${e.message}`).join("; ")}`;
  }
  return void 0;
}
__name(describeMismatch, "describeMismatch");
function toFieldErrors(errors, root) {
  const seen = /* @__PURE__ */ new Set();
  const out = [];
  for (const error of errors ?? []) {
    if (error.keyword === "if" || error.keyword === "anyOf" || error.keyword === "oneOf" && out.length) continue;
    let pointer = [root, ...error.instancePath.split("/").filter(Boolean).map(decodeURIComponent)].filter(Boolean);
    let message = error.message ?? "is invalid";
    if (error.keyword === "required") {
      pointer = [...pointer, String(error.params.missingProperty)];
      message = "is required";
    } else if (error.keyword === "additionalProperties") {
      pointer = [...pointer, String(error.params.additionalProperty)];
      message = "is not allowed here";
    } else if (error.keyword === "enum") {
      message = `must be one of: ${error.params.allowedValues.join(", ")}`;
    } else if (error.keyword === "const") {
      message = `must be exactly: ${String(error.params.allowedValue)}`;
    }
    const fieldPath = pointer.join("/").replace(/^headers\//, "header/");
    const key = `${fieldPath} ${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: fieldPath || root || "/", message, code: error.keyword });
  }
  return out;
}
__name(toFieldErrors, "toFieldErrors");

// server/platform/http/operations.ts
function checkHandlers(operations, handlers40) {
  const problems = [];
  const declared = new Set(operations.map((op) => op.operationId));
  for (const op of operations) {
    if (op.access !== "disabled" && !handlers40[op.operationId]) problems.push(`operation ${op.operationId} has no handler`);
  }
  for (const id of Object.keys(handlers40)) {
    if (!declared.has(id)) problems.push(`handler ${id} has no operation in openapi.yaml`);
  }
  return problems;
}
__name(checkHandlers, "checkHandlers");
function mountOperations({ app, handlers: handlers40, registry }) {
  const { contract, config } = app;
  const requestValidators = compileRequestValidators(contract, config.nodeEnv !== "production");
  const responseValidators = config.validateResponses ? compileResponseValidators(contract) : void 0;
  const router = new Router();
  const observed = Boolean(app.metrics || app.tracing);
  const staticRoutes = /* @__PURE__ */ new Map();
  for (const op of contract.operations) {
    if (op.access === "disabled") continue;
    const chain = [
      observed ? markOperation(op) : void 0,
      op.logTemplate ? logAsTemplate(op.path) : void 0,
      op.alias ? deprecationNotice(op.alias) : void 0,
      publicApiPolicy(config.publicApiPolicyMode, registry, op),
      accessGuard(op, config.accessTokens),
      op.requestBody ? bodyParser(op, { json: config.jsonBodyLimitBytes, upload: config.uploadBodyLimitBytes }) : void 0,
      invoke(op, handlers40[op.operationId], requestValidators, responseValidators, app)
    ].filter((middleware) => middleware !== void 0);
    const route = chain.length === 1 ? chain[0] : compose(chain);
    router.register(toRouterPath(op.path), [op.method], route, { name: op.operationId });
    if (!op.path.includes("{")) staticRoutes.set(routeKey(op.method, op.path), route);
  }
  const staticDispatch = /* @__PURE__ */ __name((ctx, next) => {
    const route = staticRoutes.get(routeKey(ctx.method === "HEAD" ? "GET" : ctx.method, ctx.path));
    if (!route) return next();
    ctx.params = {};
    return route(ctx, next);
  }, "staticDispatch");
  const templated = new Map(contract.operations.filter((op) => op.logTemplate).map((op) => [op.operationId, op.path]));
  const fallback = /* @__PURE__ */ __name(async (ctx) => {
    const match = router.match(ctx.path, ctx.method);
    const allowed = [...new Set(match.path.flatMap((layer) => layer.methods))];
    const secret = match.path.find((layer) => layer.name && templated.has(layer.name));
    if (secret) ctx.state.logPath = templated.get(secret.name);
    if (allowed.length === 0) throw NotFound(`No route ${ctx.method} ${ctx.path}.`);
    if (ctx.method === "OPTIONS") {
      ctx.set("Allow", [...allowed, "OPTIONS"].join(", "));
      ctx.status = 204;
      return;
    }
    throw MethodNotAllowed(allowed);
  }, "fallback");
  return [staticDispatch, router.routes(), fallback];
}
__name(mountOperations, "mountOperations");
function markOperation(op) {
  const operation = { operationId: op.operationId, path: op.path };
  return (ctx, next) => {
    ctx.state.operation = operation;
    return next();
  };
}
__name(markOperation, "markOperation");
function logAsTemplate(template) {
  return (ctx, next) => {
    ctx.state.logPath = template;
    return next();
  };
}
__name(logAsTemplate, "logAsTemplate");
function deprecationNotice(alias) {
  const deprecation = `@${Math.floor(alias.since.getTime() / 1e3)}`;
  const templated = alias.successorPath.includes("{");
  const fixedLink = `<${alias.successorPath}>; rel="successor-version"`;
  return (ctx, next) => {
    ctx.set("Deprecation", deprecation);
    const link = templated ? `<${alias.successorPath.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(ctx.params?.[name] ?? "")))}>; rel="successor-version"` : fixedLink;
    ctx.set("Link", link);
    return next();
  };
}
__name(deprecationNotice, "deprecationNotice");
function isNodeReadable(value) {
  return value instanceof Readable3 || value instanceof Stream && typeof value.read === "function";
}
__name(isNodeReadable, "isNodeReadable");
function bodyKind(body) {
  if (body === void 0 || body === null) return "none";
  if (typeof body === "string") return "text";
  if (body instanceof Uint8Array) return "bytes";
  if (isNodeReadable(body) || body instanceof WebReadableStream || body instanceof globalThis.ReadableStream) return "stream";
  return "json";
}
__name(bodyKind, "bodyKind");
function destroyStream(body) {
  if (isNodeReadable(body)) body.destroy();
  else body.cancel().catch(() => {
  });
}
__name(destroyStream, "destroyStream");
function routeKey(method, path15) {
  const trimmed = path15.length > 1 && path15.endsWith("/") ? path15.slice(0, -1) : path15;
  return `${method} ${trimmed.toLowerCase()}`;
}
__name(routeKey, "routeKey");
var koaBodyModule;
function bodyParser(op, limits) {
  const declared = op.requestBody;
  const accepted = Object.keys(declared.media);
  const jsonLimit = declared.media["application/json"]?.maxBytes ?? limits.json;
  let parseJsonMiddleware;
  const makeParser = /* @__PURE__ */ __name((koaBody) => koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: ["POST", "PUT", "PATCH", "DELETE"],
    onError: /* @__PURE__ */ __name((err) => {
      if (err.status === 413) throw PayloadTooLarge(jsonLimit);
      throw MalformedBody(err instanceof SyntaxError || err.status === 400 ? "The body is not valid JSON." : err.message);
    }, "onError")
  }), "makeParser");
  const parseJson = /* @__PURE__ */ __name(async (ctx, next) => {
    parseJsonMiddleware ??= makeParser((await (koaBodyModule ??= import("koa-body"))).koaBody);
    return parseJsonMiddleware(ctx, next);
  }, "parseJson");
  return async (ctx, next) => {
    const hasBody = ctx.request.length > 0 || ctx.get("transfer-encoding") !== "";
    if (!hasBody) return next();
    const key = accepted.find((type2) => ctx.is(type2));
    if (!key) throw UnsupportedMediaType(accepted);
    const media = declared.media[key];
    const type = ctx.request.type.toLowerCase();
    ctx.state.hasBody = true;
    ctx.state.mediaType = type;
    if (isJsonType(key) && !declared.rawBody) return parseJson(ctx, next);
    const encoding = ctx.get("content-encoding").toLowerCase();
    if (encoding && encoding !== "identity") {
      throw new Problem(415, "unsupported_content_encoding", "Unsupported media type", { detail: "Send this body without Content-Encoding." });
    }
    if (isJsonType(key)) {
      const bytes3 = await readBody(ctx, jsonLimit);
      ctx.state.rawBody = bytes3;
      const text = bytes3.toString("utf8");
      if (!/^[\s\uFEFF]*[{[]/.test(text)) throw MalformedBody("The body is not valid JSON.");
      try {
        ctx.request.body = JSON.parse(text.replace(/^\uFEFF/, ""));
      } catch {
        throw MalformedBody("The body is not valid JSON.");
      }
      return next();
    }
    const limit = media.maxBytes ?? declared.maxBytes ?? limits.upload;
    if (key === "multipart/form-data") {
      const { fields, files } = await parseMultipart(ctx, media, limit);
      ctx.request.body = fields;
      ctx.state.files = files;
      return next();
    }
    const bytes2 = await readBody(ctx, limit);
    await checkFileType(bytes2, type, "body");
    ctx.state.rawBody = bytes2;
    return next();
  };
}
__name(bodyParser, "bodyParser");
var HandlerCall = class {
  constructor(operationId, params, query, body, koa, app) {
    this.operationId = operationId;
    this.params = params;
    this.query = query;
    this.body = body;
    this.koa = koa;
    this.app = app;
  }
  operationId;
  params;
  query;
  body;
  koa;
  app;
  static {
    __name(this, "HandlerCall");
  }
  get auth() {
    return this.koa.state.auth;
  }
  get contentType() {
    return this.koa.state.hasBody ? this.koa.state.mediaType : void 0;
  }
  get rawBody() {
    return this.koa.state.rawBody;
  }
  get files() {
    return this.koa.state.files ?? {};
  }
  file(field) {
    return this.koa.state.files?.[field]?.[0];
  }
  cookie(name) {
    return this.koa.cookies.get(name);
  }
  header(name) {
    return this.koa.get(name);
  }
  get ip() {
    return this.koa.ip;
  }
  get requestId() {
    return this.koa.state.requestId;
  }
  get log() {
    return this.koa.state.log;
  }
};
var TEXTUAL = /^(text\/|application\/(json|yaml|[\w.-]+\+json)($|;))/;
var fullContentTypes = /* @__PURE__ */ new Map();
function fullContentType(type) {
  let full = fullContentTypes.get(type);
  if (full === void 0) {
    full = TEXTUAL.test(type) && !type.includes("charset=") ? `${type}; charset=utf-8` : type;
    if (fullContentTypes.size < 64) fullContentTypes.set(type, full);
  }
  return full;
}
__name(fullContentType, "fullContentType");
function invoke(op, handler, requestValidators, responseValidators, app) {
  let requestChecks;
  let responseCheck;
  const headerNames = op.parameters.filter((p) => p.in === "header").map((p) => p.name.toLowerCase());
  const send = /* @__PURE__ */ __name((ctx, reply) => {
    const body = reply.body;
    const kind = bodyKind(body);
    const contentType = kind === "none" ? void 0 : reply.contentType ?? (kind === "json" || kind === "text" ? "application/json" : "application/octet-stream");
    if (responseValidators) {
      const validateResponse = responseCheck ??= responseValidators.get(op.operationId);
      const opaque = kind === "bytes" || kind === "stream";
      const payload = kind === "json" ? JSON.parse(JSON.stringify(body)) : kind === "none" ? void 0 : body;
      const mismatch = validateResponse(reply.status, contentType, opaque ? void 0 : payload, opaque);
      if (mismatch) {
        if (kind === "stream") destroyStream(body);
        throw new Error(`Response does not match openapi.yaml: ${mismatch}`);
      }
    }
    if (kind === "none") ctx.body = null;
    ctx.status = reply.status;
    if (contentType !== void 0) ctx.set("Content-Type", kind === "json" || kind === "text" || contentType === "text/event-stream" ? fullContentType(contentType) : contentType);
    if (kind === "json") ctx.body = JSON.stringify(body);
    else if (kind === "text") ctx.body = body;
    else if (kind === "bytes") ctx.body = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    else if (kind === "stream") {
      const readable = isNodeReadable(body) ? body : Readable3.fromWeb(body);
      readable.once("error", (err) => {
        ctx.state.log.error({ err }, "response stream failed");
        if (ctx.headerSent) ctx.res.destroy(err);
      });
      ctx.body = readable;
    }
    if (reply.headers) for (const name in reply.headers) ctx.set(name, reply.headers[name]);
    if (reply.cookies) for (const entry of reply.cookies) ctx.append("Set-Cookie", serializeCookie(entry, ctx.secure));
  }, "send");
  const bare = op.parameters.length === 0 && !op.requestBody;
  return (ctx) => {
    if (bare && !ctx.querystring) {
      const reply2 = handler(new HandlerCall(op.operationId, {}, {}, void 0, ctx, app));
      if (reply2 instanceof Promise) return reply2.then((settled) => send(ctx, settled));
      send(ctx, reply2);
      return Promise.resolve();
    }
    const input = {
      path: { ...ctx.params },
      query: ctx.querystring ? { ...ctx.query } : {},
      headers: headerNames.length ? Object.fromEntries(headerNames.filter((name) => ctx.get(name) !== "").map((name) => [name, ctx.get(name)])) : {}
    };
    const validators = requestChecks ??= requestValidators.get(op.operationId);
    const errors = validators.parameters(input);
    let body;
    if (op.requestBody) {
      if (ctx.state.hasBody) {
        if (!ctx.state.rawBody || isJsonType(ctx.state.mediaType)) body = ctx.request.body;
        if (validators.body) errors.push(...validators.body(body, ctx.state.mediaType));
      } else if (op.requestBody.required) {
        errors.push({ path: "body", message: "is required", code: "required" });
      }
    }
    if (errors.length) throw ValidationFailed(errors);
    const reply = handler(new HandlerCall(op.operationId, input.path, input.query, body, ctx, app));
    if (reply instanceof Promise) return reply.then((settled) => send(ctx, settled));
    send(ctx, reply);
    return Promise.resolve();
  };
}
__name(invoke, "invoke");

// server/platform/http/requestContext.ts
import { randomUUID as randomUUID6 } from "node:crypto";

// server/platform/logger.ts
import { pino } from "pino";
var CENSOR = "[redacted]";
var REDACTED_HEADER_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'req.headers["x-api-token"]',
  'res.headers["set-cookie"]'
];
var SECRET_KEYS = ["password", "token", "key", "apiKey", "secret"];
var REDACTED_PATHS = [...REDACTED_HEADER_PATHS, ...SECRET_KEYS, ...SECRET_KEYS.map((key) => `*.${key}`)];
var SECRET = new Set(SECRET_KEYS);
function hasSecret(value) {
  for (const key in value) if (SECRET.has(key)) return true;
  return false;
}
__name(hasSecret, "hasSecret");
function censored(value) {
  let copy;
  if (value instanceof Error) {
    copy = Object.create(Object.getPrototypeOf(value));
    Object.assign(copy, value);
    for (const field of ["message", "stack", "cause"]) {
      if (field in value) Object.defineProperty(copy, field, { value: value[field], enumerable: false, writable: true, configurable: true });
    }
  } else {
    copy = { ...value };
  }
  for (const secret of SECRET_KEYS) if (Object.hasOwn(copy, secret)) copy[secret] = CENSOR;
  return copy;
}
__name(censored, "censored");
function redactSecrets(object) {
  let out;
  for (const key in object) {
    const value = object[key];
    if (SECRET.has(key)) {
      out ??= { ...object };
      out[key] = CENSOR;
    } else if (value !== null && typeof value === "object" && !Array.isArray(value) && hasSecret(value)) {
      out ??= { ...object };
      out[key] = censored(value);
    }
  }
  return out ?? object;
}
__name(redactSecrets, "redactSecrets");
var LineBuffer = class {
  constructor(target, minLength = 4096, maxDelayMs = 250) {
    this.target = target;
    this.minLength = minLength;
    this.maxDelayMs = maxDelayMs;
    openBuffers.add(this);
  }
  target;
  minLength;
  maxDelayMs;
  static {
    __name(this, "LineBuffer");
  }
  lines = [];
  size = 0;
  timer;
  write(line) {
    this.lines.push(line);
    this.size += line.length;
    if (this.size >= this.minLength) this.handOn();
    else this.timer ??= setTimeout(this.handOn, this.maxDelayMs).unref();
  }
  handOn = /* @__PURE__ */ __name(() => {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = void 0;
    }
    if (this.lines.length === 0) return;
    const chunk = this.lines.length === 1 ? this.lines[0] : this.lines.join("");
    this.lines = [];
    this.size = 0;
    this.target.write(chunk);
  }, "handOn");
  flush(cb) {
    this.handOn();
    this.target.flush(cb);
  }
  flushSync() {
    this.handOn();
    this.target.flushSync();
  }
  end() {
    this.handOn();
    openBuffers.delete(this);
    this.target.end();
  }
};
var openBuffers = /* @__PURE__ */ new Set();
process.once("exit", () => {
  for (const buffer of openBuffers) {
    try {
      buffer.flushSync();
    } catch {
    }
  }
});
function stdoutDestination() {
  return new LineBuffer(pino.destination({ dest: 1, sync: true }));
}
__name(stdoutDestination, "stdoutDestination");
function rawLineWriter(logger) {
  const destination = logger[pino.symbols.streamSym];
  return (line) => destination.write(line);
}
__name(rawLineWriter, "rawLineWriter");
function createLogger(level, destination) {
  const logger = pino(
    {
      level,
      base: void 0,
      redact: { paths: REDACTED_HEADER_PATHS, censor: CENSOR },
      formatters: {
        level: /* @__PURE__ */ __name((label) => ({ level: label }), "level"),
        log: redactSecrets
      }
    },
    destination ?? stdoutDestination()
  );
  const child = logger.child;
  logger.child = /* @__PURE__ */ __name(function redactedChild(bindings, options) {
    return child.call(this, redactSecrets(bindings), options);
  }, "redactedChild");
  return logger;
}
__name(createLogger, "createLogger");

// server/platform/http/requestContext.ts
var INCOMING_ID = /^[\w.:-]{1,128}$/;
var RequestState = class {
  constructor(requestId, logger) {
    this.requestId = requestId;
    this.logger = logger;
  }
  requestId;
  logger;
  static {
    __name(this, "RequestState");
  }
  auth = ANONYMOUS;
  get log() {
    return this.child ??= this.logger.child({ requestId: this.requestId });
  }
};
var PLAIN = /^[\w\-./~%!$&'()*+,;=:@]*$/;
var jsonString = /* @__PURE__ */ __name((value) => PLAIN.test(value) ? `"${value}"` : JSON.stringify(value), "jsonString");
function accessLine(entry, time2 = Date.now()) {
  return `{"level":"info","time":${time2},"requestId":"${entry.requestId}","method":${jsonString(entry.method)},"path":${jsonString(entry.path)},"status":${entry.status},"ms":${entry.ms},"role":"${entry.role}","msg":"request"}
`;
}
__name(accessLine, "accessLine");
function requestContext(logger) {
  const writeLine = rawLineWriter(logger);
  const writeAccess = /* @__PURE__ */ __name((ctx, state, started) => {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    writeLine(accessLine({ requestId: state.requestId, method: ctx.method, path: state.logPath ?? ctx.path, status: ctx.status, ms, role: state.auth.role }));
  }, "writeAccess");
  return (ctx, next) => {
    const incoming = ctx.headers["x-request-id"];
    const requestId = typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID6();
    const started = performance.now();
    const state = new RequestState(requestId, logger);
    ctx.state = state;
    ctx.res.setHeader("x-request-id", requestId);
    if (!logger.isLevelEnabled("info")) return next();
    return next().then(
      () => writeAccess(ctx, state, started),
      (err) => {
        writeAccess(ctx, state, started);
        throw err;
      }
    );
  };
}
__name(requestContext, "requestContext");

// server/platform/events.ts
var EventBus = class {
  static {
    __name(this, "EventBus");
  }
  byEvent = /* @__PURE__ */ new Map();
  constructor(subscribers6) {
    const names2 = /* @__PURE__ */ new Set();
    for (const subscriber2 of subscribers6) {
      if (names2.has(subscriber2.name)) throw new Error(`event subscriber ${subscriber2.name} is declared twice`);
      names2.add(subscriber2.name);
      this.byEvent.set(subscriber2.event, [...this.byEvent.get(subscriber2.event) ?? [], subscriber2]);
    }
    for (const [event2, list] of this.byEvent) {
      list.sort((a, b) => a.order - b.order);
      for (let i = 1; i < list.length; i++) {
        if (list[i].order === list[i - 1].order) {
          throw new Error(`event ${String(event2)}: subscribers ${list[i - 1].name} and ${list[i].name} share order ${list[i].order}; declare which runs first`);
        }
      }
    }
  }
  /** The subscribers of `event`, in the order they run. */
  subscribersOf(event2) {
    return this.byEvent.get(event2) ?? [];
  }
  /**
   * Runs `event`'s in-transaction subscribers in order (awaiting each) and queues its after-commit ones on the
   * unit of work; answers what each in-transaction subscriber returned.
   */
  async publish(event2, payload, context) {
    const results = [];
    for (const subscriber2 of this.subscribersOf(event2)) {
      if (subscriber2.phase === "in-transaction") {
        results.push({ name: subscriber2.name, result: await subscriber2.handle(payload, context) });
      } else {
        context.afterCommit(() => subscriber2.handle(payload, context));
      }
    }
    return results;
  }
  /** Every event with its subscribers in order: `['<order> <phase> <name>', …]` per event (for the review test). */
  table() {
    const out = {};
    for (const event2 of [...this.byEvent.keys()].map(String).sort()) {
      out[event2] = this.subscribersOf(event2).map((s) => `${s.order} ${s.phase} ${s.name}`);
    }
    return out;
  }
  /**
   * Adds a subscriber for the life of one test (a spec that observes or breaks an event's handling); answers its
   * removal. Production subscribers are declared in module records, never attached.
   */
  attachForTest(subscriber2) {
    const list = [...this.byEvent.get(subscriber2.event) ?? [], subscriber2].sort((a, b) => a.order - b.order);
    this.byEvent.set(subscriber2.event, list);
    return () => {
      this.byEvent.set(
        subscriber2.event,
        (this.byEvent.get(subscriber2.event) ?? []).filter((s) => s !== subscriber2)
      );
    };
  }
};

// server/domain/events.ts
var createDomainEventBus = /* @__PURE__ */ __name((subscribers6) => new EventBus(subscribers6), "createDomainEventBus");
function subscriber(declared) {
  return declared;
}
__name(subscriber, "subscriber");
function publish(context, event2, payload) {
  return context.app.events.publish(event2, payload, context);
}
__name(publish, "publish");

// server/modules/system/docs.ts
import { createHash as createHash5 } from "node:crypto";
import fs4 from "node:fs";
import { createRequire as createRequire5 } from "node:module";
var SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  persistAuth: false,
  defaultOpenAllTags: false,
  pageTitle: "Venue backend API reference"
};
var DOCS_SCRIPT_PATH = "/docs/scalar.js";
var CONTRACT_URL = "/openapi.yaml";
var DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ");
var escapeAttribute = /* @__PURE__ */ __name((value) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;"), "escapeAttribute");
var DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>${SCALAR_CONFIGURATION.pageTitle}</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The contract itself is at <a href="${CONTRACT_URL}">${CONTRACT_URL}</a>.</noscript>
    <script id="api-reference" type="application/json" data-url="${CONTRACT_URL}" data-configuration="${escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    <script src="${DOCS_SCRIPT_PATH}"></script>
  </body>
</html>
`;
var script;
function docsScript() {
  if (!script) {
    const file = createRequire5(new URL("../server/modules/system/docs.ts", import.meta.url).href).resolve("@scalar/api-reference/browser/standalone.js");
    const bytes2 = fs4.readFileSync(file);
    script = { bytes: bytes2, etag: `"${createHash5("sha256").update(bytes2).digest("hex")}"` };
  }
  return script;
}
__name(docsScript, "docsScript");

// server/modules/system/queries.ts
var VISIT_UPSERT = `with day as (
    insert into visit_counters (bucket_type, bucket_key, visit_count) values ('DAY', $1, 1)
    on conflict (bucket_type, bucket_key) do update set visit_count = visit_counters.visit_count + 1, updated_at = now()
    returning 1
  )
  insert into visit_counters (bucket_type, bucket_key, visit_count) select 'WEEK', $2, 1 from day
  on conflict (bucket_type, bucket_key) do update set visit_count = visit_counters.visit_count + 1, updated_at = now()`;
var DEADLOCK = "40P01";
async function countVisit(knex, buckets) {
  const sql = VISIT_UPSERT.replace("$1", "?").replace("$2", "?");
  for (let attempt = 1; ; attempt++) {
    try {
      await knex.raw(sql, [buckets.day, buckets.week]);
      return;
    } catch (err) {
      if (err.code !== DEADLOCK || attempt >= 5) throw err;
    }
  }
}
__name(countVisit, "countVisit");
async function pingDatabase(knex, timeoutMs = 2e3) {
  let timer;
  const ping = knex.raw("select 1").then(() => void 0);
  try {
    await Promise.race([
      ping,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
      })
    ]);
  } finally {
    clearTimeout(timer);
    ping.catch(() => void 0);
  }
}
__name(pingDatabase, "pingDatabase");

// server/modules/system/visits.ts
import { DateTime } from "luxon";

// server/platform/db/model.ts
import { Model, snakeCaseMappers } from "objection";
var RecordModel = class extends Model {
  static {
    __name(this, "RecordModel");
  }
  static get columnNameMappers() {
    return snakeCaseMappers();
  }
};
var BaseModel = class extends RecordModel {
  static {
    __name(this, "BaseModel");
  }
  id;
  createdAt;
  updatedAt;
  $beforeUpdate() {
    if (this.updatedAt === void 0) this.updatedAt = /* @__PURE__ */ new Date();
  }
};

// server/modules/system/models.ts
var VisitCounter = class extends RecordModel {
  static {
    __name(this, "VisitCounter");
  }
  static tableName = "visit_counters";
  static get idColumn() {
    return ["bucket_type", "bucket_key"];
  }
  bucketType;
  bucketKey;
  /** `bigint`: arrives as a string from pg, read as a number. */
  visitCount;
  createdAt;
  updatedAt;
  $parseDatabaseJson(json2) {
    const parsed = super.$parseDatabaseJson(json2);
    if (parsed.visitCount !== void 0 && parsed.visitCount !== null) parsed.visitCount = Number(parsed.visitCount);
    return parsed;
  }
};

// server/modules/system/visits.ts
function visitBuckets(now, zone) {
  const local = DateTime.fromJSDate(now, { zone });
  return { day: local.toISODate(), week: `${local.weekYear}-W${String(local.weekNumber).padStart(2, "0")}` };
}
__name(visitBuckets, "visitBuckets");
async function visitStats(knex, now, zone) {
  const current3 = visitBuckets(now, zone);
  const local = DateTime.fromJSDate(now, { zone });
  const previous = visitBuckets(local.minus({ days: 1 }).toJSDate(), zone);
  const lastWeek = visitBuckets(local.minus({ weeks: 1 }).toJSDate(), zone);
  const rows2 = await VisitCounter.query(knex).where((q) => q.where({ bucket_type: "DAY" }).whereIn("bucket_key", [current3.day, previous.day])).orWhere((q) => q.where({ bucket_type: "WEEK" }).whereIn("bucket_key", [current3.week, lastWeek.week])).select("bucket_type", "bucket_key", "visit_count");
  const count = /* @__PURE__ */ __name((type, key) => ({ key, count: Number(rows2.find((r) => r.bucketType === type && r.bucketKey === key)?.visitCount ?? 0) }), "count");
  return {
    timezone: zone,
    today: count("DAY", current3.day),
    yesterday: count("DAY", previous.day),
    thisWeek: count("WEEK", current3.week),
    lastWeek: count("WEEK", lastWeek.week)
  };
}
__name(visitStats, "visitStats");
function noticeText(notice, buckets) {
  const clip2 = /* @__PURE__ */ __name((value, max) => value.length > max ? `${value.slice(0, max)}\u2026` : value, "clip");
  return [
    `New visit: ${clip2(notice.path, 200)}`,
    `Referrer: ${notice.referrer ? clip2(notice.referrer, 200) : "(none)"}`,
    `From: ${notice.ip}${notice.country ? ` (${notice.country})` : ""}`,
    `Agent: ${clip2(notice.userAgent || "(none)", 200)}`,
    `Day ${buckets.day}, week ${buckets.week}`
  ].join("\n");
}
__name(noticeText, "noticeText");
var VisitNotifier = class {
  constructor(options, log) {
    this.options = options;
    this.log = log;
  }
  options;
  log;
  static {
    __name(this, "VisitNotifier");
  }
  pending = 0;
  inflight = /* @__PURE__ */ new Set();
  dropped = 0;
  sent = 0;
  failed = 0;
  get enabled() {
    return Boolean(this.options.url);
  }
  notify(text) {
    if (!this.options.url) return;
    if (this.pending >= this.options.maxPending) {
      this.dropped++;
      return;
    }
    this.pending++;
    const post = fetch(this.options.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text, content: text }),
      signal: AbortSignal.timeout(this.options.timeoutMs)
    }).then(async (response) => {
      await response.arrayBuffer().catch(() => void 0);
      if (response.ok) this.sent++;
      else {
        this.failed++;
        this.log.warn({ status: response.status }, "visit notification refused");
      }
    }).catch((err) => {
      this.failed++;
      this.log.warn({ error: err.name }, "visit notification failed");
    }).finally(() => {
      this.pending--;
      this.inflight.delete(post);
    });
    this.inflight.add(post);
  }
  /** Resolves once every notification under way has ended (tests, shutdown). */
  async idle() {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }
};
function systemServices(platform) {
  const { config, logger } = platform;
  return {
    visits: {
      limit: new RateLimit({ name: "visit-address", points: config.visitRateLimitPerMinute, windowSeconds: 60 }, { kind: "memory" }),
      notifier: new VisitNotifier(
        { url: config.visitNotificationWebhookUrl, timeoutMs: config.visitNotificationTimeoutMs, maxPending: config.visitNotificationMaxPending },
        logger.child({ component: "visits" })
      )
    }
  };
}
__name(systemServices, "systemServices");
function visitServices(app) {
  return app.visits;
}
__name(visitServices, "visitServices");
async function throttleVisit(app, ip) {
  await consumeOrThrow([[visitServices(app).limit, addressKey(ip)]], "Too many visits from this address; try again later.");
}
__name(throttleVisit, "throttleVisit");
function trustedCountry(trustProxy, header) {
  if (!trustProxy) return void 0;
  const value = (header("cf-ipcountry") || header("x-country-code")).trim().toUpperCase();
  return /^[A-Z]{2}$/.test(value) ? value : void 0;
}
__name(trustedCountry, "trustedCountry");

// server/modules/system/commands/recordVisit.ts
async function recordVisit(app, input) {
  await throttleVisit(app, input.ip);
  const buckets = visitBuckets(/* @__PURE__ */ new Date(), app.config.venueTimezone);
  await countVisit(app.db.knex, buckets);
  const { notifier } = app.visits;
  if (notifier.enabled) {
    const country = trustedCountry(app.config.trustProxy, input.header);
    notifier.notify(noticeText({ path: input.path, referrer: input.referrer, userAgent: input.userAgent, ip: input.ip, country }, buckets));
  }
  return buckets;
}
__name(recordVisit, "recordVisit");

// server/modules/system/handlers.ts
var VERSION = process.env.npm_package_version ?? "0.1.0";
var handlers = {
  getOpenApiDocument: /* @__PURE__ */ __name(({ app }) => ({ status: 200, body: app.contract.text, contentType: "application/yaml" }), "getOpenApiDocument"),
  getApiReference: /* @__PURE__ */ __name(() => ({
    status: 200,
    body: DOCS_HTML,
    contentType: "text/html",
    headers: {
      "Content-Security-Policy": DOCS_CSP,
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer"
    }
  }), "getApiReference"),
  getApiReferenceScript: /* @__PURE__ */ __name((call) => {
    const script2 = docsScript();
    const headers = { ETag: script2.etag, "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff" };
    if (etagMatches(call.header("if-none-match") || void 0, script2.etag)) return notModified(headers);
    return bytes(script2.bytes, "text/javascript; charset=utf-8", { headers });
  }, "getApiReferenceScript"),
  // Prometheus text (issue 25 §5); the token check is the access level's (x-access metrics-token).
  async getMetrics({ app }) {
    if (!app.metrics) throw NotFound("Metrics are off on this server.");
    return { status: 200, body: await app.metrics.scrape(), contentType: app.metrics.contentType, headers: { "Cache-Control": "no-store" } };
  },
  getLiveness: /* @__PURE__ */ __name(({ app }) => json(200, { status: "live", uptimeSeconds: (Date.now() - app.startedAt) / 1e3, version: VERSION }), "getLiveness"),
  async getReadiness({ app, log }) {
    const started = performance.now();
    try {
      await pingDatabase(app.db.knex);
    } catch (err) {
      log.error({ err }, "readiness: database did not answer");
      throw ServiceUnavailable("database_unavailable", "The database does not answer.");
    }
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    const jobs8 = await app.jobs.health();
    if (jobs8.started && !jobs8.ok) {
      log.error({ error: jobs8.error }, "readiness: the job engine did not answer");
      throw ServiceUnavailable("jobs_unavailable", "The job engine does not answer.");
    }
    return json(200, { status: "ready", database: { kind: app.db.kind, latencyMs }, jobs: { started: jobs8.started, workers: jobs8.workers } });
  },
  // Visit counters (issue 11): nothing about the visitor is stored; see visits.ts.
  async recordVisit(call) {
    const input = { path: call.body.path, referrer: call.body.referrer, ip: call.ip, userAgent: call.header("user-agent"), header: /* @__PURE__ */ __name((name) => call.header(name), "header") };
    return json(202, await recordVisit(call.app, input), { "Cache-Control": "no-store" });
  },
  async getVisitStats({ app }) {
    return json(200, await visitStats(app.db.knex, /* @__PURE__ */ new Date(), app.config.venueTimezone), { "Cache-Control": "public, max-age=5" });
  }
};

// server/modules/system/publicPolicy.ts
var policy2 = [
  { path: "/openapi.yaml", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  // The API reference: the page and its one script, by exact path (nothing else under /docs is public).
  { path: "/docs", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/docs/scalar.js", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/system/health/", match: "prefix", methods: ["GET", "HEAD"], level: "public" },
  // Visit counters: counting a visit and reading the aggregate counts (issue 11).
  { path: "/api/system/visit-notification", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/system/visit-notification/stats", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  // Prometheus metrics: token-guarded (x-access metrics-token; a scraper holds no user identity), so an exact public entry.
  { path: "/metrics", match: "exact", methods: ["GET", "HEAD"], level: "public" }
];

// server/modules/system/metrics.ts
function venueMetrics(platform) {
  const metrics2 = platform.metrics;
  if (!metrics2) return { venueMetrics: void 0 };
  const { client, registry } = metrics2;
  const registers = [registry];
  const counters = {
    holds: new client.Counter({ name: "venue_holds_total", help: "Holds created (every reservation starts as one), by who booked: guest or staff.", labelNames: ["by"], registers }),
    confirmations: new client.Counter({ name: "venue_confirmations_total", help: "Reservations confirmed.", registers }),
    cancellations: new client.Counter({ name: "venue_cancellations_total", help: "Reservations cancelled, by who cancelled: GUEST, STAFF or SYSTEM.", labelNames: ["by"], registers }),
    holdsExpired: new client.Counter({ name: "venue_holds_expired_total", help: "Holds that ran out unpaid.", registers }),
    noShows: new client.Counter({ name: "venue_no_shows_total", help: "Reservations marked no-show.", registers }),
    payments: new client.Counter({ name: "venue_payments_total", help: "Payment outcomes by method (VNPAY, BANK_TRANSFER, CASH, CARD_ON_SITE) and result (captured, failed).", labelNames: ["method", "result"], registers }),
    refunds: new client.Counter({ name: "venue_refunds_total", help: "Refunds settled, by method and kind (full, partial).", labelNames: ["method", "kind"], registers }),
    checkIns: new client.Counter({ name: "venue_check_ins_total", help: "Guests checked in at the door.", registers })
  };
  for (const by of ["guest", "staff"]) counters.holds.inc({ by }, 0);
  const chatTurns = new client.Gauge({ name: "venue_chat_turns", help: "Chat-platform and WhatsApp turns by source and status (QUEUED \u2026 SENT, FAILED), as stored.", labelNames: ["source", "status"], registers });
  const emails = new client.Gauge({ name: "venue_emails", help: "E-mails in the ledger by template and status (QUEUED, SENT, FAILED).", labelNames: ["template", "status"], registers });
  const { knex } = platform.db;
  metrics2.onScrape(async () => {
    const rows2 = await knex("chat_turns").select("source", "status").count({ count: "*" }).groupBy("source", "status");
    chatTurns.reset();
    for (const row of rows2) chatTurns.set({ source: row.source, status: row.status }, Number(row.count));
  });
  metrics2.onScrape(async () => {
    const rows2 = await knex("email_messages").select("template", "status").count({ count: "*" }).groupBy("template", "status");
    emails.reset();
    for (const row of rows2) emails.set({ template: row.template, status: row.status }, Number(row.count));
  });
  return {
    venueMetrics: {
      ...counters,
      businessEvent(event2, extra) {
        if (event2 === "reservation created") counters.holds.inc({ by: extra.created_by === "STAFF" ? "staff" : "guest" });
        else if (event2 === "operator check-in completed") counters.checkIns.inc();
      }
    }
  };
}
__name(venueMetrics, "venueMetrics");
var ORDER = 1100;
var METRIC_SUBSCRIBERS = [
  subscriber({ name: "system.count-confirmation", event: "reservation.confirmed", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((_, { app }) => app.venueMetrics?.confirmations.inc(), "handle") }),
  subscriber({ name: "system.count-cancellation", event: "reservation.cancelled", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((event2, { app }) => app.venueMetrics?.cancellations.inc({ by: event2.by }), "handle") }),
  subscriber({ name: "system.count-no-show", event: "reservation.noShow", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((_, { app }) => app.venueMetrics?.noShows.inc(), "handle") }),
  subscriber({ name: "system.count-expired-holds", event: "holds.expired", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((event2, { app }) => app.venueMetrics?.holdsExpired.inc(event2.reservationIds.length), "handle") }),
  subscriber({ name: "system.count-captured-payment", event: "payment.captured", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((event2, { app }) => app.venueMetrics?.payments.inc({ method: event2.gateway, result: "captured" }), "handle") }),
  subscriber({ name: "system.count-failed-payment", event: "payment.failed", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((event2, { app }) => app.venueMetrics?.payments.inc({ method: event2.gateway, result: "failed" }), "handle") }),
  subscriber({ name: "system.count-refund", event: "payment.refunded", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((event2, { app }) => app.venueMetrics?.refunds.inc({ method: event2.gateway, kind: "full" }), "handle") }),
  subscriber({ name: "system.count-partial-refund", event: "payment.partiallyRefunded", phase: "after-commit", order: ORDER, handle: /* @__PURE__ */ __name((event2, { app }) => app.venueMetrics?.refunds.inc({ method: event2.gateway, kind: "partial" }), "handle") })
];

// server/modules/system/index.ts
function record() {
  return {
    tag: "system",
    handlers,
    policy: policy2,
    // The business counters of /metrics (metrics.ts): built only when metrics are on; the subscribers then count.
    subscribers: METRIC_SUBSCRIBERS,
    services: /* @__PURE__ */ __name((platform) => ({ ...systemServices(platform), ...venueMetrics(platform) }), "services")
  };
}
__name(record, "record");

// server/platform/unitOfWork.ts
var AfterCommit = class {
  static {
    __name(this, "AfterCommit");
  }
  tasks = [];
  add = /* @__PURE__ */ __name((task) => {
    this.tasks.push(task);
  }, "add");
  /** Runs the queued tasks in order (and any they queue); a failing task is logged with `what`. */
  async run(logger, what = "an after-commit task failed") {
    for (let task = this.tasks.shift(); task; task = this.tasks.shift()) {
      try {
        await task();
      } catch (err) {
        logger.error({ err }, what);
      }
    }
  }
};
async function inUnitOfWork(deps, work, now = /* @__PURE__ */ new Date()) {
  const after = new AfterCommit();
  const result = await deps.knex.transaction((trx) => work({ trx, now, afterCommit: after.add }));
  await after.run(deps.logger);
  return result;
}
__name(inUnitOfWork, "inUnitOfWork");

// server/modules/accounts/models.ts
var Account = class extends BaseModel {
  static {
    __name(this, "Account");
  }
  static tableName = "accounts";
  email;
  name;
  passwordHash;
  role;
  banned;
  banReason;
  banExpiresAt;
  /** A ban is in force while it is set and has not expired. */
  isBanned() {
    return isBanInForce(this.banned, this.banExpiresAt);
  }
};
var Organization = class extends BaseModel {
  static {
    __name(this, "Organization");
  }
  static tableName = "organizations";
  name;
  slug;
  canonical;
};
var OrganizationMember = class extends BaseModel {
  static {
    __name(this, "OrganizationMember");
  }
  static tableName = "organization_members";
  organizationId;
  accountId;
  role;
  organization;
  account;
  static get relationMappings() {
    return {
      organization: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Organization,
        join: { from: "organization_members.organization_id", to: "organizations.id" }
      },
      account: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Account,
        join: { from: "organization_members.account_id", to: "accounts.id" }
      }
    };
  }
};
var Session = class extends BaseModel {
  static {
    __name(this, "Session");
  }
  static tableName = "sessions";
  tokenHash;
  accountId;
  activeOrganizationId;
  expiresAt;
  ip;
  userAgent;
};

// server/modules/accounts/queries.ts
import { UniqueViolationError } from "objection";
function loginEmail(identifier, emailDomain) {
  const trimmed = identifier.trim().toLowerCase();
  return trimmed.includes("@") ? trimmed : `${trimmed}@${emailDomain}`;
}
__name(loginEmail, "loginEmail");
async function membershipsOf(accountId, trx) {
  return OrganizationMember.query(trx).where("organization_members.account_id", accountId).withGraphJoined("organization").orderBy([{ column: "organization_members.created_at" }, { column: "organization_members.seq" }]);
}
__name(membershipsOf, "membershipsOf");
async function findAccountOrFail(id, trx) {
  const account = await Account.query(trx).findById(id);
  if (!account) throw NotFound("No account with this id.");
  return account;
}
__name(findAccountOrFail, "findAccountOrFail");
async function assertKeepsCanonicalOwner(trx, member) {
  if (member.role !== "owner") return;
  const organization = await Organization.query(trx).findById(member.organizationId);
  if (!organization?.canonical) return;
  const owners = await lockCanonicalOwners(trx, organization.id);
  if (owners.length <= 1) {
    throw Conflict("last_canonical_owner", `This is the last owner of ${organization.name}, the canonical organization; make another account owner first.`);
  }
}
__name(assertKeepsCanonicalOwner, "assertKeepsCanonicalOwner");
async function lockCanonicalOwners(trx, organizationId) {
  return trx("organization_members").where({ organization_id: organizationId, role: "owner" }).forUpdate().select("id");
}
__name(lockCanonicalOwners, "lockCanonicalOwners");
async function insertMembershipIfAbsent(trx, member) {
  const inserted = await trx("organization_members").insert({ organization_id: member.organizationId, account_id: member.accountId, role: member.role }).onConflict(["organization_id", "account_id"]).ignore().returning("id");
  return inserted[0]?.id;
}
__name(insertMembershipIfAbsent, "insertMembershipIfAbsent");
async function listAccounts(query) {
  const base = Account.query();
  if (query.q) {
    const pattern = `%${String(query.q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => w.whereILike("email", pattern).orWhereILike("name", pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: "created_at", order: "desc" }, { column: "id" }]).limit(query.limit).offset(query.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listAccounts, "listAccounts");
async function listOrganizations() {
  return Organization.query().orderBy([{ column: "canonical", order: "desc" }, { column: "name" }]);
}
__name(listOrganizations, "listOrganizations");
async function listMembers(filters) {
  const rows2 = OrganizationMember.query().withGraphJoined("[organization, account]").orderBy([{ column: "organization_members.created_at" }, { column: "organization_members.seq" }]);
  if (filters.organizationId) rows2.where("organization_members.organization_id", filters.organizationId);
  if (filters.userId) rows2.where("organization_members.account_id", filters.userId);
  return rows2;
}
__name(listMembers, "listMembers");
var isUniqueViolation = /* @__PURE__ */ __name((err) => err instanceof UniqueViolationError || err?.code === "23505", "isUniqueViolation");

// server/modules/accounts/commands/createOrganization.ts
async function createOrganization(app, body) {
  try {
    return await inUnitOfWork(
      { knex: app.db.knex, logger: app.logger },
      async ({ trx }) => Organization.query(trx).insertAndFetch({ name: body.name.trim(), slug: body.slug, canonical: false })
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict("slug_taken", `An organization with the slug ${body.slug} exists.`);
    throw err;
  }
}
__name(createOrganization, "createOrganization");

// server/modules/accounts/commands/createUser.ts
async function createUser(app, body) {
  if (body.email === void 0 === (body.username === void 0)) {
    throw ValidationFailed([{ path: "body/email", message: "give exactly one of email and username", code: "oneOf" }]);
  }
  const email = loginEmail(body.email ?? body.username, app.config.emailDomain);
  const passwordHash = await hashPassword(body.password);
  try {
    return await inUnitOfWork(
      { knex: app.db.knex, logger: app.logger },
      async ({ trx }) => Account.query(trx).insertAndFetch({ email, name: body.name, passwordHash, role: body.role ?? "USER", banned: false })
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict("email_taken", `An account with ${email} exists.`);
    throw err;
  }
}
__name(createUser, "createUser");

// server/modules/accounts/commands/deleteOrganization.ts
async function deleteOrganization(app, organizationId) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const organization = await Organization.query(trx).findById(organizationId).forUpdate();
    if (!organization) throw NotFound("No organization with this id.");
    if (organization.canonical) {
      throw Conflict("canonical_organization", `${organization.name} is the canonical organization; it cannot be deleted.`);
    }
    const members = await OrganizationMember.query(trx).where("organization_id", organization.id).resultSize();
    if (members > 0) {
      throw Conflict(
        "organization_has_members",
        `${organization.name} has ${members} member${members === 1 ? "" : "s"}; remove ${members === 1 ? "that membership" : "those memberships"} first.`
      );
    }
    await Organization.query(trx).deleteById(organization.id);
  });
}
__name(deleteOrganization, "deleteOrganization");

// server/modules/accounts/commands/deleteOrganizationMember.ts
async function deleteOrganizationMember(app, membershipId) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const member = await OrganizationMember.query(trx).findById(membershipId).forUpdate();
    if (!member) throw NotFound("No membership with this id.");
    await assertKeepsCanonicalOwner(trx, member);
    await OrganizationMember.query(trx).deleteById(member.id);
  });
}
__name(deleteOrganizationMember, "deleteOrganizationMember");

// server/modules/accounts/commands/deleteUser.ts
async function deleteUser(app, accountId, callerAccountId) {
  if (callerAccountId === accountId) {
    throw Conflict("cannot_delete_self", "You cannot delete the account you are signed in with.");
  }
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const account = await findAccountOrFail(accountId, trx);
    await Account.query(trx).deleteById(account.id);
    await app.credentials.changed({ accountId: account.id }, trx);
  });
}
__name(deleteUser, "deleteUser");

// server/modules/accounts/commands/ensureOrganizationMember.ts
async function ensureOrganizationMember(app, input) {
  if (input.userId === void 0 === (input.email === void 0)) {
    throw ValidationFailed([{ path: "body/userId", message: "give exactly one of userId and email", code: "oneOf" }]);
  }
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const account = input.userId ? await Account.query(trx).findById(input.userId) : await Account.query(trx).findOne({ email: loginEmail(input.email, app.config.emailDomain) });
    if (!account) throw NotFound("No account matches userId/email.");
    const organization = input.organizationId ? await Organization.query(trx).findById(input.organizationId) : await Organization.query(trx).findOne({ canonical: true });
    if (!organization) throw NotFound("No such organization.");
    const inserted = await insertMembershipIfAbsent(trx, { organizationId: organization.id, accountId: account.id, role: input.role });
    let outcome = "created";
    if (inserted === void 0) {
      const changed = await OrganizationMember.query(trx).patch({ role: input.role }).where({ organization_id: organization.id, account_id: account.id }).whereNot("role", input.role);
      outcome = changed > 0 ? "updated" : "unchanged";
    }
    const member = await OrganizationMember.query(trx).findOne({ "organization_members.organization_id": organization.id, "organization_members.account_id": account.id }).withGraphJoined("organization");
    return { outcome, member };
  });
}
__name(ensureOrganizationMember, "ensureOrganizationMember");

// server/modules/accounts/commands/updateOrganization.ts
async function updateOrganization(app, organizationId, body) {
  const patch = {};
  if (body.name !== void 0) patch.name = body.name.trim();
  if (body.slug !== void 0) patch.slug = body.slug;
  try {
    const updated = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => Organization.query(trx).patchAndFetchById(organizationId, patch));
    if (!updated) throw NotFound("No organization with this id.");
    return updated;
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict("slug_taken", `An organization with the slug ${body.slug} exists.`);
    throw err;
  }
}
__name(updateOrganization, "updateOrganization");

// server/modules/accounts/commands/updateUser.ts
async function updateUser(app, accountId, body) {
  const passwordHash = body.password !== void 0 ? await hashPassword(body.password) : void 0;
  const updated = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const account = await findAccountOrFail(accountId, trx);
    const banning = body.banned ?? account.isBanned();
    const errors = [];
    for (const field of ["banReason", "banExpiresAt"]) {
      if (body[field] !== void 0 && body[field] !== null && !banning) {
        errors.push({ path: `body/${field}`, message: "only with banned: true", code: "dependentRequired" });
      }
    }
    if (body.banExpiresAt && new Date(body.banExpiresAt) <= /* @__PURE__ */ new Date()) {
      errors.push({ path: "body/banExpiresAt", message: "must be in the future", code: "minimum" });
    }
    if (errors.length) throw ValidationFailed(errors);
    const patch = {};
    if (body.email !== void 0) patch.email = loginEmail(body.email, app.config.emailDomain);
    if (body.name !== void 0) patch.name = body.name;
    if (body.role !== void 0) patch.role = body.role;
    if (passwordHash !== void 0) patch.passwordHash = passwordHash;
    if (body.banned === false) Object.assign(patch, { banned: false, banReason: null, banExpiresAt: null });
    if (banning && (body.banned === true || body.banReason !== void 0 || body.banExpiresAt !== void 0)) {
      patch.banned = true;
      const fresh = !account.isBanned();
      if (body.banReason !== void 0 || fresh) patch.banReason = body.banReason ?? null;
      if (body.banExpiresAt !== void 0 || fresh) patch.banExpiresAt = body.banExpiresAt ? new Date(body.banExpiresAt) : null;
    }
    try {
      const row = await Account.query(trx).patchAndFetchById(account.id, patch);
      if (body.banned === true || body.password !== void 0) await revokeSessions(account.id, trx);
      await app.credentials.changed({ accountId: account.id }, trx);
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw Conflict("email_taken", `An account with ${patch.email} exists.`);
      throw err;
    }
  });
  return updated;
}
__name(updateUser, "updateUser");

// server/modules/presenting.ts
var iso2 = /* @__PURE__ */ __name((value) => value ? new Date(value).toISOString() : null, "iso");

// server/modules/accounts/presenters.ts
function presentAccount(account) {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    banned: account.isBanned(),
    banReason: account.banReason,
    banExpiresAt: iso2(account.banExpiresAt),
    createdAt: iso2(account.createdAt),
    updatedAt: iso2(account.updatedAt)
  };
}
__name(presentAccount, "presentAccount");
function presentOrganization(organization) {
  return { id: organization.id, name: organization.name, slug: organization.slug, canonical: organization.canonical };
}
__name(presentOrganization, "presentOrganization");
function presentMembership(member) {
  return {
    id: member.id,
    organization: presentOrganization(member.organization),
    accountId: member.accountId,
    role: member.role,
    createdAt: iso2(member.createdAt),
    updatedAt: iso2(member.updatedAt)
  };
}
__name(presentMembership, "presentMembership");
function presentAccountPage(page, limit, offset) {
  return { items: page.items.map(presentAccount), total: page.total, limit, offset };
}
__name(presentAccountPage, "presentAccountPage");
function presentAccountDetail(account, memberships) {
  return { ...presentAccount(account), memberships: memberships.map(presentMembership) };
}
__name(presentAccountDetail, "presentAccountDetail");
function presentMembershipWithAccount(member) {
  return { ...presentMembership(member), accountEmail: member.account.email, accountName: member.account.name };
}
__name(presentMembershipWithAccount, "presentMembershipWithAccount");
function presentPrincipal(auth, memberships) {
  const { identity } = auth;
  const active = memberships.find((m) => m.organizationId === identity.activeOrganizationId);
  return {
    role: auth.role,
    authSource: auth.authSource,
    permissions: auth.permissions,
    account: identity.accountId ? { id: identity.accountId, email: identity.email, name: identity.name, role: identity.accountRole } : null,
    session: identity.sessionId ? { id: identity.sessionId, expiresAt: iso2(identity.sessionExpiresAt) } : null,
    apiKey: identity.apiKeyId ? { id: identity.apiKeyId, name: identity.apiKeyName, start: identity.apiKeyStart, expiresAt: iso2(identity.apiKeyExpiresAt) } : null,
    activeOrganization: auth.authSource === "session" && active ? { id: active.organization.id, name: active.organization.name, slug: active.organization.slug, memberRole: active.role } : null,
    memberships: memberships.map(presentMembership)
  };
}
__name(presentPrincipal, "presentPrincipal");

// server/modules/accounts/handlers.ts
var handlers2 = {
  async listUsers({ query }) {
    const { limit, offset } = query;
    return json(200, presentAccountPage(await listAccounts({ q: query.q, limit, offset }), limit, offset));
  },
  async createUser({ body, app }) {
    return json(201, presentAccount(await createUser(app, body)));
  },
  async getUser({ params }) {
    const account = await findAccountOrFail(params.userId);
    return json(200, presentAccountDetail(account, await membershipsOf(account.id)));
  },
  async updateUser({ params, body, app }) {
    return json(200, presentAccount(await updateUser(app, params.userId, body)));
  },
  async deleteUser({ params, auth, app }) {
    await deleteUser(app, params.userId, auth.identity.accountId);
    return noContent();
  },
  async listOrganizations() {
    return json(200, { items: (await listOrganizations()).map(presentOrganization) });
  },
  async createOrganization({ body, app }) {
    return json(201, presentOrganization(await createOrganization(app, body)));
  },
  async updateOrganization({ params, body, app }) {
    return json(200, presentOrganization(await updateOrganization(app, params.organizationId, body)));
  },
  async deleteOrganization({ params, app }) {
    await deleteOrganization(app, params.organizationId);
    return noContent();
  },
  async deleteOrganizationMember({ params, app }) {
    await deleteOrganizationMember(app, params.membershipId);
    return noContent();
  },
  async listOrganizationMembers({ query }) {
    const members = await listMembers({ organizationId: query.organizationId, userId: query.userId });
    return json(200, { items: members.map(presentMembershipWithAccount) });
  },
  async ensureOrganizationMember({ body, app }) {
    const { outcome, member } = await ensureOrganizationMember(app, body);
    return json(200, { outcome, membership: presentMembership(member) });
  }
};

// server/modules/accounts/index.ts
function record2() {
  return { tag: "accounts", handlers: handlers2 };
}
__name(record2, "record");

// server/modules/auth/sessions.ts
var DEFAULT_POLICY = { sameSite: "lax", alwaysSecure: false };
var cookieOptions = /* @__PURE__ */ __name((policy20) => ({ httpOnly: true, sameSite: policy20.sameSite, path: "/", ...policy20.alwaysSecure ? { secure: true } : {} }), "cookieOptions");
async function openSession(client, account, activeOrganizationId, ttlSeconds, trx, policy20 = DEFAULT_POLICY) {
  const token2 = randomToken(32);
  const session = await Session.query(trx).insertAndFetch({
    tokenHash: sha256Hex(token2),
    accountId: account.id,
    activeOrganizationId,
    expiresAt: new Date(Date.now() + ttlSeconds * 1e3),
    ip: client.ip || null,
    userAgent: client.userAgent.slice(0, 500) || null
  });
  return { session, cookie: cookie(SESSION_COOKIE, token2, { ...cookieOptions(policy20), maxAge: ttlSeconds }) };
}
__name(openSession, "openSession");
var clearedSessionCookie = /* @__PURE__ */ __name((policy20 = DEFAULT_POLICY) => expiredCookie(SESSION_COOKIE, cookieOptions(policy20)), "clearedSessionCookie");
function sessionTokenHash(call) {
  const token2 = call.cookie(SESSION_COOKIE);
  return token2 ? sha256Hex(token2) : void 0;
}
__name(sessionTokenHash, "sessionTokenHash");
async function revokeSessions(accountId, trx) {
  return Session.query(trx).delete().where("account_id", accountId);
}
__name(revokeSessions, "revokeSessions");
function sessionAuth(account, session, memberships) {
  const active = memberships.find((m) => m.organizationId === session.activeOrganizationId);
  return {
    role: roleForMembership(active?.role),
    authSource: "session",
    permissions: [],
    identity: {
      accountId: account.id,
      email: account.email,
      name: account.name,
      accountRole: account.role,
      sessionId: session.id,
      sessionExpiresAt: new Date(session.expiresAt),
      activeOrganizationId: session.activeOrganizationId,
      memberRole: active?.role ?? null
    }
  };
}
__name(sessionAuth, "sessionAuth");

// server/modules/auth/commands/setActiveOrganization.ts
async function setActiveOrganization(app, identity, organizationId) {
  const { accountId } = identity;
  const session = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const member = await OrganizationMember.query(trx).findOne({ organization_id: organizationId, account_id: accountId });
    if (!member) throw Forbidden("not_a_member", "You are not a member of that organization.");
    return Session.query(trx).patchAndFetchById(identity.sessionId, { activeOrganizationId: organizationId });
  });
  const [account, memberships] = await Promise.all([Account.query().findById(accountId), membershipsOf(accountId)]);
  return { auth: sessionAuth(account, session, memberships), memberships };
}
__name(setActiveOrganization, "setActiveOrganization");

// server/modules/auth/commands/signIn.ts
async function signIn(app, input) {
  const { ip, log } = input;
  const email = loginEmail(input.identifier, app.config.emailDomain);
  await app.signInThrottle.begin(email, ip);
  const account = await Account.query().findOne({ email });
  const passwordOk = await verifyPassword(input.password, account?.passwordHash);
  if (!account || !passwordOk) {
    log.info({ accountFound: Boolean(account) }, "sign-in failed");
    throw InvalidCredentials();
  }
  if (account.isBanned()) throw Forbidden("account_banned", "This account is banned.");
  await app.signInThrottle.succeeded(email, ip);
  return startSession(app, account, { ip, userAgent: input.userAgent });
}
__name(signIn, "signIn");
async function startSession(app, account, client) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await Session.query(trx).delete().where("account_id", account.id).where("expires_at", "<=", /* @__PURE__ */ new Date());
    const memberships = await membershipsOf(account.id, trx);
    const { session, cookie: cookie2 } = await openSession(client, account, memberships[0]?.organizationId ?? null, app.config.sessionTtlSeconds, trx, app.config.sessionCookie);
    return { auth: sessionAuth(account, session, memberships), memberships, cookie: cookie2 };
  });
}
__name(startSession, "startSession");

// server/modules/auth/commands/signOut.ts
async function signOut(app, tokenHash) {
  if (!tokenHash) return;
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await Session.query(trx).delete().where("token_hash", tokenHash);
  });
}
__name(signOut, "signOut");

// server/modules/auth/handlers.ts
var handlers3 = {
  async signIn(call) {
    const { body, app, ip, log } = call;
    const { auth, memberships, cookie: cookie2 } = await signIn(app, { identifier: body.identifier, password: body.password, ip, userAgent: call.header("user-agent"), log });
    return withCookies(json(200, presentPrincipal(auth, memberships)), cookie2);
  },
  async signOut(call) {
    await signOut(call.app, sessionTokenHash(call));
    return withCookies(noContent(), clearedSessionCookie(call.app.config.sessionCookie));
  },
  async getCurrentPrincipal({ auth }) {
    const memberships = auth.identity.accountId ? await membershipsOf(auth.identity.accountId) : [];
    return json(200, presentPrincipal(auth, memberships));
  },
  async setActiveOrganization({ auth, body, app }) {
    const identity = { accountId: auth.identity.accountId, sessionId: auth.identity.sessionId };
    const { auth: now, memberships } = await setActiveOrganization(app, identity, body.organizationId);
    return json(200, presentPrincipal(now, memberships));
  }
};

// server/modules/auth/publicPolicy.ts
var policy3 = [
  { path: "/api/auth/sign-in", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/auth/sign-out", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/auth/active-organization", match: "exact", level: "session" },
  { path: "/api/auth/", match: "prefix", level: "staff" }
];

// server/modules/auth/index.ts
function record3() {
  return { tag: "auth", handlers: handlers3, policy: policy3 };
}
__name(record3, "record");

// server/modules/apiKeys/models.ts
var ApiKey = class extends BaseModel {
  static {
    __name(this, "ApiKey");
  }
  static tableName = "api_keys";
  name;
  prefix;
  start;
  keyHash;
  accountId;
  enabled;
  expiresAt;
  permissions;
  requestCount;
  lastUsedAt;
  account;
  static get jsonAttributes() {
    return ["permissions"];
  }
  static get relationMappings() {
    return {
      account: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Account,
        join: { from: "api_keys.account_id", to: "accounts.id" }
      }
    };
  }
};

// server/modules/apiKeys/grants.ts
var API_KEY_PREFIX = "vk_";
var DISPLAYED_CHARACTERS = 11;
function checkGrant(app, body) {
  const grantable = grantablePermissions(app.contract);
  const errors = [];
  for (const permission of flattenPermissions(body.permissions)) {
    if (!grantable.has(permission)) {
      errors.push({ path: `body/permissions/${permission.split(":")[0]}`, message: `${permission} is not a permission any operation declares`, code: "enum" });
    }
  }
  if (body.expiresAt && new Date(body.expiresAt) <= /* @__PURE__ */ new Date()) {
    errors.push({ path: "body/expiresAt", message: "must be in the future", code: "minimum" });
  }
  if (errors.length) throw ValidationFailed(errors);
}
__name(checkGrant, "checkGrant");

// server/modules/apiKeys/commands/createApiKey.ts
async function createApiKey(app, body) {
  checkGrant(app, body);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const owner = await Account.query(trx).findById(body.userId);
    if (!owner) throw NotFound("No account with this userId.");
    if (owner.role !== "SUPERUSER") {
      throw Unprocessable(
        "owner_not_superuser",
        `API keys can only be owned by an account with the SUPERUSER account role, and ${owner.email} has ${owner.role}. Give it that role first (PATCH /api/sudo/users/${owner.id} with role SUPERUSER).`,
        [{ path: "body/userId", message: `${owner.email} does not have the SUPERUSER account role`, code: "owner_not_superuser" }]
      );
    }
    const key = API_KEY_PREFIX + randomToken(32);
    const created = await ApiKey.query(trx).insertAndFetch({
      name: body.name,
      prefix: API_KEY_PREFIX,
      start: key.slice(0, DISPLAYED_CHARACTERS),
      keyHash: sha256Hex(key),
      accountId: owner.id,
      enabled: body.enabled ?? true,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      permissions: body.permissions
    });
    created.account = owner;
    return { key, apiKey: created };
  });
}
__name(createApiKey, "createApiKey");

// server/modules/apiKeys/commands/deleteApiKey.ts
async function deleteApiKey(app, apiKeyId) {
  const deleted = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await app.credentials.changed({ apiKeyId }, trx);
    return ApiKey.query(trx).deleteById(apiKeyId);
  });
  if (deleted === 0) throw NotFound("No API key with this id.");
}
__name(deleteApiKey, "deleteApiKey");

// server/modules/apiKeys/queries.ts
async function findKeyOrFail(id) {
  const key = await ApiKey.query().findById(id).withGraphJoined("account");
  if (!key) throw NotFound("No API key with this id.");
  return key;
}
__name(findKeyOrFail, "findKeyOrFail");
async function listKeys(filters) {
  const keys = ApiKey.query().withGraphJoined("account").orderBy([{ column: "api_keys.created_at", order: "desc" }, { column: "api_keys.id" }]);
  if (filters.userId) keys.where("api_keys.account_id", filters.userId);
  return keys;
}
__name(listKeys, "listKeys");

// server/modules/apiKeys/commands/updateApiKey.ts
async function updateApiKey(app, apiKeyId, body) {
  const existing = await findKeyOrFail(apiKeyId);
  checkGrant(app, body);
  const patch = {};
  if (body.name !== void 0) patch.name = body.name;
  if (body.enabled !== void 0) patch.enabled = body.enabled;
  if (body.expiresAt !== void 0) patch.expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (body.permissions !== void 0) patch.permissions = body.permissions;
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await ApiKey.query(trx).patch(patch).where("id", existing.id);
    await app.credentials.changed({ apiKeyId: existing.id }, trx);
  });
  return findKeyOrFail(existing.id);
}
__name(updateApiKey, "updateApiKey");

// server/modules/apiKeys/presenters.ts
function presentApiKey(key) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    start: key.start,
    ownerId: key.accountId,
    ownerEmail: key.account?.email ?? "",
    enabled: key.enabled,
    expiresAt: iso2(key.expiresAt),
    permissions: key.permissions ?? {},
    requestCount: Number(key.requestCount),
    lastUsedAt: iso2(key.lastUsedAt),
    createdAt: iso2(key.createdAt),
    updatedAt: iso2(key.updatedAt)
  };
}
__name(presentApiKey, "presentApiKey");

// server/modules/apiKeys/handlers.ts
var handlers4 = {
  async listApiKeys({ query }) {
    return json(200, { items: (await listKeys({ userId: query.userId })).map(presentApiKey) });
  },
  async createApiKey({ body, app }) {
    const { key, apiKey } = await createApiKey(app, body);
    return json(201, { key, apiKey: presentApiKey(apiKey) });
  },
  listApiKeyPermissions({ app }) {
    const items = [...grantablePermissions(app.contract)].map(([permission, operations]) => ({ permission, operations }));
    return json(200, { items });
  },
  async updateApiKey({ params, body, app }) {
    return json(200, presentApiKey(await updateApiKey(app, params.apiKeyId, body)));
  },
  async deleteApiKey({ params, app }) {
    await deleteApiKey(app, params.apiKeyId);
    return noContent();
  }
};

// server/modules/apiKeys/index.ts
function record4() {
  return { tag: "apiKeys", handlers: handlers4 };
}
__name(record4, "record");

// server/modules/passkeys/webauthn.ts
var loading;
function webauthnServer() {
  loading ??= import("@simplewebauthn/server");
  return loading;
}
__name(webauthnServer, "webauthnServer");

// server/modules/passkeys/models.ts
var Passkey = class extends BaseModel {
  static {
    __name(this, "Passkey");
  }
  static tableName = "passkeys";
  accountId;
  /** base64url, as the authenticator names the credential. */
  credentialId;
  /** The COSE public key, base64url. */
  publicKey;
  /** The authenticator's signature counter at the last accepted use (0: it keeps none). */
  counter;
  transports;
  deviceType;
  backedUp;
  aaguid;
  label;
  lastUsedAt;
  account;
  static get jsonAttributes() {
    return ["transports"];
  }
  // `counter` is a bigint column (an unsigned 32-bit value does not fit an integer): the pg driver reads it as a string.
  $parseDatabaseJson(json2) {
    const parsed = super.$parseDatabaseJson(json2);
    if (parsed.counter !== void 0 && parsed.counter !== null) parsed.counter = Number(parsed.counter);
    return parsed;
  }
  static get relationMappings() {
    return {
      account: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Account,
        join: { from: "passkeys.account_id", to: "accounts.id" }
      }
    };
  }
};
var WebauthnChallenge = class extends RecordModel {
  static {
    __name(this, "WebauthnChallenge");
  }
  static tableName = "webauthn_challenges";
  id;
  challenge;
  ceremony;
  /** The account registering a passkey; null for a sign-in. */
  accountId;
  expiresAt;
  createdAt;
};

// server/modules/passkeys/challenges.ts
async function storeChallenge(trx, input) {
  await WebauthnChallenge.query(trx).delete().where("expires_at", "<=", input.now);
  await WebauthnChallenge.query(trx).insert({
    challenge: input.challenge,
    ceremony: input.ceremony,
    accountId: input.accountId,
    expiresAt: new Date(input.now.getTime() + input.ttlSeconds * 1e3)
  });
}
__name(storeChallenge, "storeChallenge");
async function consumeChallenge(knex, input) {
  const [row] = await WebauthnChallenge.query(knex).delete().where("challenge", input.challenge).returning("*");
  const invalid2 = /* @__PURE__ */ __name((why) => new Problem(400, "passkey_challenge_invalid", "Invalid challenge", { detail: `The challenge ${why}; begin again.` }), "invalid");
  if (!row) throw invalid2("is unknown or already used");
  if (row.ceremony !== input.ceremony || row.accountId !== input.accountId) throw invalid2("was not given for this ceremony");
  if (new Date(row.expiresAt).getTime() <= input.now.getTime()) throw invalid2("has expired");
}
__name(consumeChallenge, "consumeChallenge");
function challengeOf(clientDataJSON, type) {
  let data;
  try {
    data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8"));
  } catch {
    data = void 0;
  }
  const client = data;
  if (!client || typeof client !== "object" || typeof client.challenge !== "string" || !client.challenge || client.type !== type) {
    throw new Problem(400, "passkey_response_malformed", "Malformed WebAuthn response", {
      detail: `credential.response.clientDataJSON is not base64url JSON client data of a ${type} ceremony.`
    });
  }
  return client.challenge;
}
__name(challengeOf, "challengeOf");

// server/modules/passkeys/queries.ts
async function passkeysOf(accountId) {
  return Passkey.query().where("account_id", accountId).orderBy([{ column: "created_at" }, { column: "id" }]);
}
__name(passkeysOf, "passkeysOf");
async function findPasskeyOfOrFail(accountId, passkeyId) {
  const passkey = await Passkey.query().findOne({ id: passkeyId, account_id: accountId });
  if (!passkey) throw NotFound("No passkey with this id.");
  return passkey;
}
__name(findPasskeyOfOrFail, "findPasskeyOfOrFail");
async function findByCredentialId(credentialId) {
  return Passkey.query().findOne({ credential_id: credentialId }).withGraphFetched("account");
}
__name(findByCredentialId, "findByCredentialId");

// server/modules/passkeys/relyingParty.ts
var userHandleBytes = /* @__PURE__ */ __name((accountId) => new Uint8Array(Buffer.from(accountId.replace(/-/g, ""), "hex")), "userHandleBytes");
var userHandleOf = /* @__PURE__ */ __name((accountId) => Buffer.from(userHandleBytes(accountId)).toString("base64url"), "userHandleOf");
function expected(config) {
  return { expectedOrigin: config.webauthn.origins, expectedRPID: config.webauthn.rpId, requireUserVerification: true };
}
__name(expected, "expected");
var USER_VERIFICATION = "required";

// server/modules/passkeys/commands/beginPasskeyRegistration.ts
async function beginPasskeyRegistration(app, accountId) {
  const account = await Account.query().findById(accountId);
  if (!account) throw Unauthenticated("The signed-in account no longer exists.");
  const { rpId, rpName, challengeTtlSeconds } = app.config.webauthn;
  const options = await (await webauthnServer()).generateRegistrationOptions({
    rpName,
    rpID: rpId,
    userID: userHandleBytes(account.id),
    userName: account.email,
    userDisplayName: account.name,
    timeout: challengeTtlSeconds * 1e3,
    attestationType: "none",
    excludeCredentials: (await passkeysOf(account.id)).map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: USER_VERIFICATION }
  });
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    ({ trx, now }) => storeChallenge(trx, { challenge: options.challenge, ceremony: "registration", accountId: account.id, ttlSeconds: challengeTtlSeconds, now })
  );
  return options;
}
__name(beginPasskeyRegistration, "beginPasskeyRegistration");

// server/modules/passkeys/limits.ts
function passkeysServices(platform) {
  return { passkeyChallengeLimit: new RateLimit({ name: "passkey-challenge-address", points: 30, windowSeconds: 60 }, rateLimitStoreFor(platform.db)) };
}
__name(passkeysServices, "passkeysServices");
async function throttleSignInChallenge(app, ip) {
  await consumeOrThrow([[app.passkeyChallengeLimit, addressKey(ip)]], "Too many passkey sign-in attempts from this address; try again later.");
}
__name(throttleSignInChallenge, "throttleSignInChallenge");

// server/modules/passkeys/commands/beginPasskeySignIn.ts
async function beginPasskeySignIn(app, ip) {
  await throttleSignInChallenge(app, ip);
  const { rpId, challengeTtlSeconds } = app.config.webauthn;
  const options = await (await webauthnServer()).generateAuthenticationOptions({ rpID: rpId, timeout: challengeTtlSeconds * 1e3, userVerification: USER_VERIFICATION });
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    ({ trx, now }) => storeChallenge(trx, { challenge: options.challenge, ceremony: "authentication", accountId: null, ttlSeconds: challengeTtlSeconds, now })
  );
  return options;
}
__name(beginPasskeySignIn, "beginPasskeySignIn");

// server/modules/passkeys/commands/deleteOwnPasskey.ts
async function deleteOwnPasskey(app, accountId, passkeyId) {
  const deleted = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => Passkey.query(trx).delete().where({ id: passkeyId, account_id: accountId }));
  if (deleted === 0) throw NotFound("No passkey with this id.");
}
__name(deleteOwnPasskey, "deleteOwnPasskey");

// server/modules/passkeys/commands/registerPasskey.ts
async function registerPasskey(app, accountId, body) {
  const challenge = challengeOf(body.credential.response.clientDataJSON, "webauthn.create");
  await consumeChallenge(app.db.knex, { challenge, ceremony: "registration", accountId, now: /* @__PURE__ */ new Date() });
  let verification;
  try {
    verification = await (await webauthnServer()).verifyRegistrationResponse({
      // The contract validated the shape; the library checks every value.
      response: body.credential,
      expectedChallenge: challenge,
      ...expected(app.config)
    });
  } catch (err) {
    throw new Problem(400, "passkey_verification_failed", "Passkey not verified", { detail: err.message, cause: err });
  }
  if (!verification.verified) throw new Problem(400, "passkey_verification_failed", "Passkey not verified", { detail: "The registration response does not verify." });
  const info = verification.registrationInfo;
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const count = await Passkey.query(trx).where("account_id", accountId).resultSize();
      return Passkey.query(trx).insertAndFetch({
        accountId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
        counter: info.credential.counter,
        transports: info.credential.transports ?? body.credential.response.transports ?? [],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        aaguid: info.aaguid,
        label: body.label?.trim() || `Passkey ${count + 1}`,
        lastUsedAt: null
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict("passkey_already_registered", "This passkey is already registered.");
    throw err;
  }
}
__name(registerPasskey, "registerPasskey");

// server/modules/passkeys/commands/renameOwnPasskey.ts
async function renameOwnPasskey(app, accountId, passkeyId, label) {
  const passkey = await findPasskeyOfOrFail(accountId, passkeyId);
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await Passkey.query(trx).patch({ label: label.trim() }).where("id", passkey.id);
  });
  return findPasskeyOfOrFail(accountId, passkeyId);
}
__name(renameOwnPasskey, "renameOwnPasskey");

// server/modules/passkeys/commands/revokeUserPasskey.ts
async function revokeUserPasskey(app, userId, passkeyId) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    if (!await Account.query(trx).findById(userId)) throw NotFound("No account with this id.");
    const deleted = await Passkey.query(trx).delete().where({ id: passkeyId, account_id: userId });
    if (deleted === 0) throw NotFound("No passkey with this id.");
  });
}
__name(revokeUserPasskey, "revokeUserPasskey");

// server/modules/passkeys/commands/signInWithPasskey.ts
var notRecognized = /* @__PURE__ */ __name(() => new Problem(401, "passkey_not_recognized", "Invalid credentials", { detail: "This passkey is not recognized here, or its assertion does not verify." }), "notRecognized");
async function signInWithPasskey(app, input) {
  const { credential, ip, log } = input;
  const challenge = challengeOf(credential.response.clientDataJSON, "webauthn.get");
  const identifier = `passkey:${credential.id}`;
  await app.signInThrottle.begin(identifier, ip);
  await consumeChallenge(app.db.knex, { challenge, ceremony: "authentication", accountId: null, now: /* @__PURE__ */ new Date() });
  const passkey = await findByCredentialId(credential.id);
  if (!passkey?.account) {
    log.info({ passkeyFound: false }, "passkey sign-in failed");
    throw notRecognized();
  }
  if (credential.response.userHandle !== void 0 && credential.response.userHandle !== userHandleOf(passkey.accountId)) {
    log.warn({ passkeyId: passkey.id }, "passkey sign-in failed: the user handle names another account");
    throw notRecognized();
  }
  let verification;
  try {
    verification = await (await webauthnServer()).verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge,
      ...expected(app.config),
      // The counter is checked below, atomically with storing the new one; the library is given 0 so that it
      // verifies the signature only.
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")), counter: 0, transports: passkey.transports }
    });
  } catch (err) {
    log.info({ passkeyId: passkey.id, reason: err.message }, "passkey sign-in failed");
    throw notRecognized();
  }
  if (!verification.verified) throw notRecognized();
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const advanced = Passkey.query(app.db.knex).patch({ counter: newCounter, backedUp: credentialBackedUp, lastUsedAt: /* @__PURE__ */ new Date() }).where("id", passkey.id);
  if (newCounter === 0) advanced.where("counter", 0);
  else advanced.where("counter", "<", newCounter);
  if (await advanced === 0) {
    log.warn({ passkeyId: passkey.id, accountId: passkey.accountId, newCounter, storedCounter: passkey.counter }, "passkey sign-in refused: the signature counter did not advance (replay or cloned authenticator)");
    throw new Problem(401, "passkey_counter_regressed", "Invalid credentials", {
      detail: "The authenticator\u2019s signature counter did not advance: a replayed sign-in or a cloned authenticator."
    });
  }
  const account = passkey.account;
  if (account.isBanned()) throw Forbidden("account_banned", "This account is banned.");
  await app.signInThrottle.succeeded(identifier, ip);
  return startSession(app, account, { ip, userAgent: input.userAgent });
}
__name(signInWithPasskey, "signInWithPasskey");

// server/modules/passkeys/presenters.ts
function presentPasskey(passkey) {
  return {
    id: passkey.id,
    label: passkey.label,
    deviceType: passkey.deviceType,
    backedUp: passkey.backedUp,
    transports: passkey.transports,
    createdAt: iso2(passkey.createdAt),
    lastUsedAt: iso2(passkey.lastUsedAt)
  };
}
__name(presentPasskey, "presentPasskey");
var presentPasskeyList = /* @__PURE__ */ __name((passkeys) => ({ items: passkeys.map(presentPasskey) }), "presentPasskeyList");
function presentCreationOptions(options) {
  return {
    rp: { name: options.rp.name, id: options.rp.id },
    user: { id: options.user.id, name: options.user.name, displayName: options.user.displayName },
    challenge: options.challenge,
    pubKeyCredParams: options.pubKeyCredParams.map((param) => ({ type: param.type, alg: param.alg })),
    timeout: options.timeout,
    excludeCredentials: (options.excludeCredentials ?? []).map(presentDescriptor),
    authenticatorSelection: { ...options.authenticatorSelection },
    attestation: options.attestation ?? "none",
    ...options.extensions ? { extensions: { ...options.extensions } } : {},
    ...options.hints ? { hints: [...options.hints] } : {}
  };
}
__name(presentCreationOptions, "presentCreationOptions");
function presentRequestOptions(options) {
  return {
    challenge: options.challenge,
    rpId: options.rpId,
    timeout: options.timeout,
    userVerification: options.userVerification ?? "required",
    allowCredentials: (options.allowCredentials ?? []).map(presentDescriptor),
    ...options.extensions ? { extensions: { ...options.extensions } } : {},
    ...options.hints ? { hints: [...options.hints] } : {}
  };
}
__name(presentRequestOptions, "presentRequestOptions");
var presentDescriptor = /* @__PURE__ */ __name((descriptor) => ({
  id: descriptor.id,
  type: "public-key",
  ...descriptor.transports ? { transports: [...descriptor.transports] } : {}
}), "presentDescriptor");

// server/modules/passkeys/handlers.ts
var handlers5 = {
  async beginPasskeyRegistration({ auth, app }) {
    return json(200, presentCreationOptions(await beginPasskeyRegistration(app, auth.identity.accountId)));
  },
  async registerPasskey({ auth, body, app }) {
    return json(201, presentPasskey(await registerPasskey(app, auth.identity.accountId, body)));
  },
  async listOwnPasskeys({ auth }) {
    return json(200, presentPasskeyList(await passkeysOf(auth.identity.accountId)));
  },
  async renameOwnPasskey({ auth, params, body, app }) {
    return json(200, presentPasskey(await renameOwnPasskey(app, auth.identity.accountId, params.passkeyId, body.label)));
  },
  async deleteOwnPasskey({ auth, params, app }) {
    await deleteOwnPasskey(app, auth.identity.accountId, params.passkeyId);
    return noContent();
  },
  async beginPasskeySignIn({ app, ip }) {
    return json(200, presentRequestOptions(await beginPasskeySignIn(app, ip)));
  },
  async signInWithPasskey(call) {
    const { body, app, ip, log } = call;
    const { auth, memberships, cookie: cookie2 } = await signInWithPasskey(app, { credential: body.credential, ip, userAgent: call.header("user-agent"), log });
    return withCookies(json(200, presentPrincipal(auth, memberships)), cookie2);
  },
  async listUserPasskeys({ params }) {
    if (!await Account.query().findById(params.userId)) throw NotFound("No account with this id.");
    return json(200, presentPasskeyList(await passkeysOf(params.userId)));
  },
  async revokeUserPasskey({ params, app }) {
    await revokeUserPasskey(app, params.userId, params.passkeyId);
    return noContent();
  }
};

// server/modules/passkeys/policy.ts
var policy4 = [
  { path: "/api/auth/passkey-sign-in/options", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/auth/passkey-sign-in", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/auth/passkeys", match: "exact", level: "session" },
  { path: "/api/auth/passkeys/", match: "prefix", level: "session" }
];

// server/modules/passkeys/index.ts
function record5() {
  return { tag: "passkeys", handlers: handlers5, policy: policy4, services: passkeysServices };
}
__name(record5, "record");

// server/modules/jobs/handlers.ts
var handlers6 = {
  async getJobStats({ query, app, log }) {
    if (!app.jobs.started) throw ServiceUnavailable("jobs_unavailable", "The job engine is not started in this process.");
    try {
      return json(200, await app.jobs.stats({ failures: query.failures ?? 20 }));
    } catch (err) {
      log.error({ err }, "job statistics: the engine did not answer");
      throw ServiceUnavailable("jobs_unavailable", "The job engine does not answer.");
    }
  }
};

// server/modules/jobs/index.ts
function record6() {
  return { tag: "jobs", handlers: handlers6 };
}
__name(record6, "record");

// server/platform/db/migrations.ts
import fs5 from "node:fs";
import path6 from "node:path";
import { fileURLToPath as fileURLToPath3, pathToFileURL } from "node:url";
var MIGRATIONS_DIR = path6.resolve(path6.dirname(fileURLToPath3(new URL("../server/platform/db/migrations.ts", import.meta.url).href)), "../../../migrations");
var migrationSource = {
  async getMigrations() {
    return fs5.readdirSync(MIGRATIONS_DIR).filter((name) => /^\d{14}_[\w-]+\.ts$/.test(name)).sort();
  },
  getMigrationName(name) {
    return name.replace(/\.ts$/, "");
  },
  async getMigration(name) {
    return await importTypeScript(pathToFileURL(path6.join(MIGRATIONS_DIR, name)).href);
  }
};
async function importTypeScript(url) {
  try {
    return await import(url);
  } catch (err) {
    if (err.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw err;
    const loader = "tsx";
    await import(loader);
    return import(`${url}?loader=tsx`);
  }
}
__name(importTypeScript, "importTypeScript");
async function migrateLatest(knex) {
  const upToDate = await appliedWhenUpToDate(knex);
  if (upToDate) return { applied: [], current: upToDate };
  const [, applied] = await knex.migrate.latest();
  return { applied: applied.map(stripExt), current: await appliedMigrations(knex) };
}
__name(migrateLatest, "migrateLatest");
async function migrateLatestExclusive(db) {
  if (db.kind !== "postgres") return migrateLatest(db.knex);
  const client = db.knex.client;
  const connection = await client.acquireConnection();
  try {
    await connection.query(`select pg_advisory_lock(hashtext('${MIGRATION_LOCK}'))`);
    try {
      return await migrateLatest(db.knex);
    } finally {
      await connection.query(`select pg_advisory_unlock(hashtext('${MIGRATION_LOCK}'))`).catch(() => void 0);
    }
  } finally {
    await client.releaseConnection(connection);
  }
}
__name(migrateLatestExclusive, "migrateLatestExclusive");
var MIGRATION_LOCK = "venue.migrations";
async function appliedWhenUpToDate(knex) {
  const files = (await migrationSource.getMigrations([])).map(stripExt);
  let rows2;
  try {
    const [applied, lock] = await Promise.all([
      knex("knex_migrations").select("name").orderBy("id"),
      knex("knex_migrations_lock").select("is_locked")
    ]);
    if (lock.some((row) => row.is_locked)) return void 0;
    rows2 = applied;
  } catch {
    return void 0;
  }
  if (rows2.length !== files.length) return void 0;
  const names2 = rows2.map((row) => stripExt(row.name));
  const sorted = [...names2].sort();
  if (sorted.some((name, index) => name !== files[index])) return void 0;
  return names2;
}
__name(appliedWhenUpToDate, "appliedWhenUpToDate");
async function appliedMigrations(knex) {
  const [completed] = await knex.migrate.list();
  return completed.map((row) => stripExt(row.name));
}
__name(appliedMigrations, "appliedMigrations");
async function rollbackAll(knex) {
  const [, rolledBack] = await knex.migrate.rollback(void 0, true);
  return rolledBack.map(stripExt);
}
__name(rollbackAll, "rollbackAll");
function stripExt(name) {
  return name.replace(/\.ts$/, "");
}
__name(stripExt, "stripExt");

// server/modules/catalog/cache.ts
import { createHash as createHash6 } from "node:crypto";

// server/domain/venueTime.ts
import { DateTime as DateTime2 } from "luxon";
function startOfLocalDay(date, zone) {
  const day2 = DateTime2.fromISO(date, { zone });
  if (!day2.isValid) throw new RangeError(`not a calendar date: ${date}`);
  return day2.startOf("day").toJSDate();
}
__name(startOfLocalDay, "startOfLocalDay");
function localDateRange(from, to, zone) {
  const start = DateTime2.fromISO(from, { zone }).startOf("day");
  const end = DateTime2.fromISO(to, { zone }).startOf("day").plus({ days: 1 });
  if (!start.isValid || !end.isValid) throw new RangeError(`not a calendar date: ${from}..${to}`);
  return { start: start.toJSDate(), end: end.toJSDate() };
}
__name(localDateRange, "localDateRange");
function toLocal(instant, zone) {
  const local = DateTime2.fromJSDate(instant, { zone });
  return { date: local.toISODate(), time: local.toFormat("HH:mm"), weekday: local.weekday };
}
__name(toLocal, "toLocal");
function atLocal(date, time2, zone) {
  const local = DateTime2.fromISO(`${date}T${time2}`, { zone });
  if (!local.isValid) throw new RangeError(`not a local date and time: ${date} ${time2}`);
  return local.toJSDate();
}
__name(atLocal, "atLocal");
function localToday(zone, now = /* @__PURE__ */ new Date()) {
  return DateTime2.fromJSDate(now, { zone }).toISODate();
}
__name(localToday, "localToday");
function addDays(date, days) {
  return DateTime2.fromISO(date, { zone: "UTC" }).plus({ days }).toISODate();
}
__name(addDays, "addDays");
function datesOnWeekdays(from, to, weekdays) {
  const dates = [];
  for (let day2 = DateTime2.fromISO(from, { zone: "UTC" }), last = DateTime2.fromISO(to, { zone: "UTC" }); day2 <= last; day2 = day2.plus({ days: 1 })) {
    if (weekdays.includes(day2.weekday)) dates.push(day2.toISODate());
  }
  return dates;
}
__name(datesOnWeekdays, "datesOnWeekdays");
function eventSlug(showSlug, startsAt, zone) {
  const local = DateTime2.fromJSDate(startsAt, { zone });
  return `${showSlug}-${local.toFormat("yyyy-LL-dd")}-${local.toFormat("HHmm")}`;
}
__name(eventSlug, "eventSlug");

// server/modules/catalog/cache.ts
var CATALOG_TOPIC = "catalog";
var DEFAULT_MAX_ENTRIES = 500;
var etagOf = /* @__PURE__ */ __name((body) => `"${createHash6("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 32)}"`, "etagOf");
var CatalogCache = class {
  constructor(knex, zone, notifications, maxEntries = DEFAULT_MAX_ENTRIES, enabled = true) {
    this.knex = knex;
    this.zone = zone;
    this.maxEntries = maxEntries;
    this.enabled = enabled;
    notifications?.subscribe(CATALOG_TOPIC, { handle: /* @__PURE__ */ __name(() => this.clear(), "handle"), reset: /* @__PURE__ */ __name(() => this.clear(), "reset") });
  }
  knex;
  zone;
  maxEntries;
  enabled;
  static {
    __name(this, "CatalogCache");
  }
  entries = /* @__PURE__ */ new Map();
  generation = 0;
  /** The next time-driven change, for the current generation (computed on the first fill after a clear). */
  horizon;
  horizonLoad;
  /** Answers being made, by key (shared by the requests that ask meanwhile). */
  inFlight = /* @__PURE__ */ new Map();
  hits = 0;
  misses = 0;
  /** Forgets every kept answer; a fill in flight is not kept. */
  clear() {
    this.generation += 1;
    this.entries.clear();
    this.horizon = void 0;
    this.horizonLoad = void 0;
    this.inFlight.clear();
  }
  get size() {
    return this.entries.size;
  }
  /** The kept answer for `key` at `now`, or the one `load` makes (kept when nothing changed meanwhile). */
  async answer(key, now, load2) {
    const at2 = now.getTime();
    const entry = this.entries.get(key);
    if (entry && at2 < entry.until) {
      this.hits += 1;
      return entry.answer;
    }
    if (entry) this.entries.delete(key);
    this.misses += 1;
    if (!this.enabled) {
      const body = await load2();
      return { body, etag: etagOf(body) };
    }
    const generation = this.generation;
    const joined = this.inFlight.get(key);
    if (joined && joined.generation === generation) {
      const made = await joined.promise;
      if (at2 < made.until) return made.answer;
    }
    const promise = Promise.all([load2(), this.nextChange(now)]).then(([body, until]) => ({ answer: { body, etag: etagOf(body) }, until }));
    const flight = { generation, promise };
    this.inFlight.set(key, flight);
    try {
      const { answer: answer2, until } = await promise;
      if (generation === this.generation && at2 < until) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value);
        this.entries.set(key, { answer: answer2, until });
      }
      return answer2;
    } finally {
      if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
    }
  }
  /** The first instant after `now` at which some public answer may change by the clock alone (epoch ms). */
  nextChange(now) {
    const at2 = now.getTime();
    const known = this.horizon;
    if (known && known.generation === this.generation && known.from <= at2 && at2 < known.until) return Promise.resolve(known.until);
    const pending = this.horizonLoad;
    if (pending && pending.generation === this.generation) return pending.promise;
    const generation = this.generation;
    const load2 = {
      generation,
      promise: this.loadNextChange(now).then(
        (until) => {
          if (generation === this.generation) this.horizon = { generation, from: at2, until };
          if (this.horizonLoad === load2) this.horizonLoad = void 0;
          return until;
        },
        (err) => {
          if (this.horizonLoad === load2) this.horizonLoad = void 0;
          throw err;
        }
      )
    };
    this.horizonLoad = load2;
    return load2.promise;
  }
  async loadNextChange(now) {
    const result = await this.knex.raw(
      `select least(
          (select min(hold_expires_at) from reservations where status = 'HELD' and hold_expires_at > :now),
          (select min(offer_expires_at) from waitlist_entries where status = 'NOTIFIED' and offer_expires_at > :now),
          (select min(starts_at) from show_events where starts_at > :now),
          (select min(e.starts_at - make_interval(mins => cs.booking_cutoff_minutes))
             from show_events e cross join commercial_setup cs
            where cs.id = 1 and e.starts_at - make_interval(mins => cs.booking_cutoff_minutes) > :now),
          (select min(sales_starts_at) from offers where sales_starts_at > :now),
          (select min(sales_ends_at) from offers where sales_ends_at > :now)
        ) as next_change`,
      { now }
    );
    const value = result.rows[0]?.next_change;
    const midnight = localDateRange(localToday(this.zone, now), localToday(this.zone, now), this.zone).end.getTime();
    const next = value ? new Date(value).getTime() : Number.POSITIVE_INFINITY;
    return Math.min(next, midnight);
  }
};
function catalogChanged(app, trx, what) {
  return app.notifications.publish(CATALOG_TOPIC, what ? { entity: what.entity, id: what.id ?? null } : void 0, trx);
}
__name(catalogChanged, "catalogChanged");

// server/domain/availability.ts
function seatsTakenSql(knex, eventIdColumn, now) {
  return knex.raw(
    `((select coalesce(sum(r.guest_count), 0)::integer from reservations r
       where r.show_event_id = ??
         and (r.status in ('CONFIRMED', 'CHECKED_IN') or (r.status = 'HELD' and r.hold_expires_at > ?)))
      + (select coalesce(sum(w.guest_count), 0)::integer from waitlist_entries w
       where w.show_event_id = ?? and w.status = 'NOTIFIED' and w.offer_expires_at > ?))`,
    [eventIdColumn, now, eventIdColumn, now]
  );
}
__name(seatsTakenSql, "seatsTakenSql");
function availabilityOf(input) {
  const bookingClosesAt = new Date(input.startsAt.getTime() - input.bookingCutoffMinutes * 6e4);
  const closed = input.status !== "SCHEDULED" || !input.salesOpen || input.now.getTime() >= bookingClosesAt.getTime();
  if (closed) return { state: "CLOSED", seatsLeft: null, bookingClosesAt };
  const left = Math.max(0, input.capacity - input.seatsTaken);
  if (left === 0) return { state: "SOLD_OUT", seatsLeft: null, bookingClosesAt };
  if (left <= input.limitedAvailabilityThreshold) return { state: "LIMITED", seatsLeft: null, bookingClosesAt };
  return { state: "AVAILABLE", seatsLeft: left, bookingClosesAt };
}
__name(availabilityOf, "availabilityOf");

// server/domain/localized.ts
function pickLocale(text, locale, defaultLocale) {
  if (!text) return "";
  return text[locale] || text[defaultLocale] || Object.values(text).find(Boolean) || "";
}
__name(pickLocale, "pickLocale");
function fillLocales(text, locales2, defaultLocale) {
  const filled = {};
  for (const locale of locales2) filled[locale] = pickLocale(text, locale, defaultLocale);
  return filled;
}
__name(fillLocales, "fillLocales");
function unknownLocales(text, locales2) {
  return Object.keys(text ?? {}).filter((locale) => !locales2.includes(locale));
}
__name(unknownLocales, "unknownLocales");

// server/domain/pricing.ts
function percentOf(amount, percent) {
  return Math.round(amount * Math.round(percent * 100) / 1e4);
}
__name(percentOf, "percentOf");
function quote(pricePerGuestVnd, guests, rules) {
  const { discountVnd: _d, creditVnd: _c, ...plain } = breakdown(pricePerGuestVnd, guests, rules);
  return plain;
}
__name(quote, "quote");
function breakdown(pricePerGuestVnd, guests, rules, reductions = {}) {
  const subtotalVnd = pricePerGuestVnd * guests;
  const discountVnd = Math.min(subtotalVnd, Math.max(0, Math.round(reductions.discountVnd ?? 0)));
  const net2 = subtotalVnd - discountVnd;
  const serviceChargeVnd = percentOf(net2, rules.serviceChargePercent);
  const vatVnd = percentOf(net2 + serviceChargeVnd, rules.vatPercent);
  const gross = net2 + serviceChargeVnd + vatVnd;
  const creditVnd = Math.min(gross, Math.max(0, Math.round(reductions.creditVnd ?? 0)));
  return { currency: "VND", guests, pricePerGuestVnd, subtotalVnd, discountVnd, serviceChargeVnd, vatVnd, creditVnd, totalVnd: gross - creditVnd };
}
__name(breakdown, "breakdown");

// server/modules/catalog/presenters.ts
var assetUrl = /* @__PURE__ */ __name((key) => `/api/public/assets?key=${encodeURIComponent(key)}`, "assetUrl");
var localEvent = /* @__PURE__ */ __name((localStart) => ({ date: localStart.slice(0, 10), time: localStart.slice(11, 16) }), "localEvent");
function presentOffer(offer, sales, p) {
  return {
    code: offer.code,
    name: pickLocale(offer.name, p.locale, p.defaultLocale),
    description: pickLocale(offer.description, p.locale, p.defaultLocale),
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    perGuest: quote(offer.pricePerGuestVnd, 1, sales.pricing),
    minGuestsQuote: quote(offer.pricePerGuestVnd, offer.minGuests, sales.pricing),
    items: offer.items.map((item) => ({
      name: pickLocale(item.name, p.locale, p.defaultLocale),
      kind: item.kind,
      quantityPerGuest: item.quantityPerGuest,
      dietaryTags: item.dietaryTags
    }))
  };
}
__name(presentOffer, "presentOffer");
var offersFor = /* @__PURE__ */ __name((sales, showId) => sales.offers.filter((offer) => offer.showId === null || offer.showId === showId), "offersFor");
function priceFrom(sales, showId) {
  const quotes = offersFor(sales, showId).map((offer) => quote(offer.pricePerGuestVnd, 1, sales.pricing));
  return quotes.length ? quotes.reduce((low, next) => next.totalVnd < low.totalVnd ? next : low) : null;
}
__name(priceFrom, "priceFrom");
function eventAvailability(event2, sales, p) {
  return availabilityOf({
    capacity: event2.capacity,
    seatsTaken: event2.seats_taken,
    salesOpen: event2.sales_open,
    status: event2.status,
    startsAt: event2.starts_at,
    bookingCutoffMinutes: sales.bookingCutoffMinutes,
    limitedAvailabilityThreshold: sales.limitedAvailabilityThreshold,
    now: p.now
  });
}
__name(eventAvailability, "eventAvailability");
function presentEventSummary(event2, sales, p) {
  const availability = eventAvailability(event2, sales, p);
  return {
    slug: event2.slug,
    ...localEvent(event2.local_start),
    startsAt: event2.starts_at.toISOString(),
    doorsAt: event2.doors_at ? event2.doors_at.toISOString() : null,
    bookingClosesAt: availability.bookingClosesAt.toISOString(),
    state: availability.state,
    seatsLeft: availability.seatsLeft
  };
}
__name(presentEventSummary, "presentEventSummary");
var selling = /* @__PURE__ */ __name((event2, p) => event2.status === "SCHEDULED" && event2.starts_at.getTime() > p.now.getTime(), "selling");
function presentEventCore(event2, sales, p) {
  return {
    ...presentEventSummary(event2, sales, p),
    cancelled: event2.status === "CANCELLED",
    show: {
      slug: event2.show_slug,
      title: pickLocale(event2.show_title, p.locale, p.defaultLocale),
      durationMinutes: event2.duration_minutes
    }
  };
}
__name(presentEventCore, "presentEventCore");
function presentEvent(event2, sales, p) {
  return {
    ...presentEventCore(event2, sales, p),
    offers: selling(event2, p) ? offersFor(sales, event2.show_id).map((offer) => presentOffer(offer, sales, p)) : []
  };
}
__name(presentEvent, "presentEvent");
function presentEventPage(events, sales, p) {
  const used = /* @__PURE__ */ new Set();
  const items = events.map((event2) => {
    const offerCodes = selling(event2, p) ? offersFor(sales, event2.show_id).map((offer) => offer.code) : [];
    for (const code of offerCodes) used.add(code);
    return { ...presentEventCore(event2, sales, p), offerCodes };
  });
  const offers = sales.offers.filter((offer) => used.has(offer.code)).map((offer) => presentOffer(offer, sales, p));
  return { items, offers };
}
__name(presentEventPage, "presentEventPage");
function presentShow(show2, sales, p) {
  return {
    slug: show2.slug,
    code: show2.code,
    title: pickLocale(show2.title, p.locale, p.defaultLocale),
    summary: pickLocale(show2.summary, p.locale, p.defaultLocale),
    description: pickLocale(show2.description, p.locale, p.defaultLocale),
    durationMinutes: show2.duration_minutes,
    imageUrls: show2.image_keys.map(assetUrl),
    nextEvent: show2.next_slug && show2.next_starts_at && show2.next_local_start ? { slug: show2.next_slug, ...localEvent(show2.next_local_start), startsAt: show2.next_starts_at.toISOString() } : null,
    priceFrom: priceFrom(sales, show2.id)
  };
}
__name(presentShow, "presentShow");
function presentShowDetail(show2, events, sales, p) {
  return {
    ...presentShow(show2, sales, p),
    offers: offersFor(sales, show2.id).map((offer) => presentOffer(offer, sales, p)),
    events: events.map((event2) => presentEventSummary(event2, sales, p))
  };
}
__name(presentShowDetail, "presentShowDetail");

// server/modules/storage/models.ts
var BLOB_PURPOSES = ["show-image", "sticker", "seed-asset", "attachment"];
var StorageBlob = class extends BaseModel {
  static {
    __name(this, "StorageBlob");
  }
  static tableName = "storage_blobs";
  key;
  contentType;
  byteSize;
  sha256;
  purpose;
  originalFilename;
  uploadedByAccountId;
  objectDeletedAt;
  // bigint arrives as a string from pg.
  $parseDatabaseJson(json2) {
    const parsed = super.$parseDatabaseJson(json2);
    if (parsed.byteSize !== void 0 && parsed.byteSize !== null) parsed.byteSize = Number(parsed.byteSize);
    return parsed;
  }
};

// server/modules/storage/commands/cleanupStorage.ts
async function cleanupStorage(storage, options = {}) {
  const dryRun = options.dryRun ?? false;
  const now = options.now ?? /* @__PURE__ */ new Date();
  const graceMs = (options.graceSeconds ?? 3600) * 1e3;
  const listedAt = /* @__PURE__ */ new Date();
  const objects = /* @__PURE__ */ new Map();
  for await (const object of listAll(storage)) objects.set(object.key, object.lastModified);
  const rows2 = await StorageBlob.query().select("id", "key", "object_deleted_at", "created_at");
  const rowKeys = new Set(rows2.map((row) => row.key));
  const report = {
    dryRun,
    objectsScanned: objects.size,
    rowsScanned: rows2.length,
    orphanObjectsDeleted: [],
    orphanObjectsKeptRecent: [],
    rowsMarkedMissing: []
  };
  for (const [key, lastModified] of objects) {
    if (rowKeys.has(key)) continue;
    if (now.getTime() - lastModified.getTime() < graceMs) {
      report.orphanObjectsKeptRecent.push(key);
      continue;
    }
    if (!dryRun) await storage.delete(key);
    report.orphanObjectsDeleted.push(key);
  }
  const missing = [];
  for (const row of rows2) {
    if (row.objectDeletedAt || objects.has(row.key) || new Date(row.createdAt) >= listedAt) continue;
    if (await storage.head(row.key)) continue;
    missing.push(row.id);
  }
  if (missing.length && !dryRun) {
    await StorageBlob.transaction(async (trx) => StorageBlob.query(trx).patch({ objectDeletedAt: /* @__PURE__ */ new Date() }).whereIn("id", missing).whereNull("object_deleted_at"));
  }
  report.rowsMarkedMissing = missing;
  report.orphanObjectsDeleted.sort();
  report.orphanObjectsKeptRecent.sort();
  return report;
}
__name(cleanupStorage, "cleanupStorage");

// server/modules/storage/commands/deleteBlobObject.ts
async function deleteBlobObject(storage, id) {
  const blob = await StorageBlob.query().findById(id);
  if (!blob) throw NotFound("No such blob.");
  if (blob.objectDeletedAt) return blob;
  await storage.delete(blob.key);
  return StorageBlob.transaction(async (trx) => {
    const updated = await StorageBlob.query(trx).patchAndFetchById(id, { objectDeletedAt: /* @__PURE__ */ new Date() });
    return updated ?? blob;
  });
}
__name(deleteBlobObject, "deleteBlobObject");

// server/modules/storage/commands/uploadBlob.ts
import { createHash as createHash7, randomUUID as randomUUID7 } from "node:crypto";
import { Readable as Readable4 } from "node:stream";

// server/modules/storage/purposes.ts
var IMAGES = ["image/png", "image/jpeg", "image/webp", "image/avif", "image/gif"];
var MiB = 1024 * 1024;
var PURPOSES = {
  "show-image": { maxBytes: 10 * MiB, types: IMAGES, public: true },
  sticker: { maxBytes: 2 * MiB, types: ["image/png", "image/webp"], public: true },
  "seed-asset": { maxBytes: 20 * MiB, types: [...IMAGES, "application/pdf", "text/plain", "text/csv", "application/json"], public: false },
  attachment: { maxBytes: 10 * MiB, types: [...IMAGES, "application/pdf", "text/plain", "text/csv"], public: false }
};
var EXTENSIONS = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/gif": "gif",
  "application/pdf": "pdf",
  "text/plain": "txt",
  "text/csv": "csv",
  "application/json": "json"
};

// server/modules/storage/commands/uploadBlob.ts
function uploadInputFrom(request) {
  const { file, query } = request;
  if (file) {
    if (query.purpose !== void 0) {
      throw ValidationFailed([{ path: "query/purpose", message: "send purpose as a form field with a multipart body", code: "not_allowed" }]);
    }
    return {
      purpose: request.formPurpose,
      contentType: file.contentType,
      body: file.bytes,
      originalFilename: file.filename || null,
      uploadedByAccountId: request.uploadedByAccountId,
      field: "body/file"
    };
  }
  if (!query.purpose) throw ValidationFailed([{ path: "query/purpose", message: "is required with a raw body", code: "required" }]);
  return {
    purpose: query.purpose,
    contentType: request.contentType,
    body: request.rawBody,
    originalFilename: query.filename ?? null,
    uploadedByAccountId: request.uploadedByAccountId,
    field: "body"
  };
}
__name(uploadInputFrom, "uploadInputFrom");
var SNIFF_BYTES = 4100;
async function uploadBlob(storage, input) {
  const field = input.field ?? "body/file";
  const rule = PURPOSES[input.purpose];
  if (!rule) throw ValidationFailed([{ path: "body/purpose", message: `must be one of: ${BLOB_PURPOSES.join(", ")}`, code: "enum" }]);
  const declared = input.contentType.toLowerCase().split(";")[0].trim();
  const source = (input.body instanceof Readable4 ? input.body : Readable4.from([Buffer.from(input.body)]))[Symbol.asyncIterator]();
  const head = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = Buffer.from(next.value);
    head.push(chunk);
    headLength += chunk.length;
  }
  if (headLength > rule.maxBytes) throw tooLarge(input.body, rule.maxBytes);
  const detected = await checkFileType(Buffer.concat(head), declared, field, rule.types);
  const hash2 = createHash7("sha256");
  let size = 0;
  const counted = Readable4.from(
    (async function* () {
      const take = /* @__PURE__ */ __name((chunk) => {
        size += chunk.length;
        if (size > rule.maxBytes) throw PayloadTooLarge(rule.maxBytes);
        hash2.update(chunk);
        return chunk;
      }, "take");
      for (const chunk of head) yield take(chunk);
      if (ended) return;
      for (let next = await source.next(); !next.done; next = await source.next()) yield take(Buffer.from(next.value));
    })(),
    { objectMode: false }
  );
  const now = /* @__PURE__ */ new Date();
  const ext = EXTENSIONS[declared] ?? (detected ? void 0 : "bin");
  const key = `${input.purpose}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}/${randomUUID7()}${ext ? `.${ext}` : ""}`;
  try {
    await storage.put(key, counted, { contentType: declared });
  } catch (err) {
    await storage.delete(key).catch(() => false);
    throw err;
  }
  try {
    return await StorageBlob.transaction(
      async (trx) => StorageBlob.query(trx).insertAndFetch({
        key,
        contentType: declared,
        byteSize: size,
        sha256: hash2.digest("hex"),
        purpose: input.purpose,
        originalFilename: input.originalFilename ? input.originalFilename.replace(/\u0000/g, "").slice(0, 255) : null,
        uploadedByAccountId: input.uploadedByAccountId ?? null
      })
    );
  } catch (err) {
    await storage.delete(key).catch(() => false);
    throw err;
  }
}
__name(uploadBlob, "uploadBlob");
function tooLarge(body, limit) {
  if (body instanceof Readable4) body.destroy();
  return PayloadTooLarge(limit);
}
__name(tooLarge, "tooLarge");

// server/modules/storage/commands/uploadSeedAsset.ts
import { createHash as createHash8 } from "node:crypto";
async function uploadSeedAsset(storage, input) {
  const contentType = input.contentType.toLowerCase().split(";")[0].trim();
  const sha2563 = createHash8("sha256").update(input.bytes).digest("hex");
  const existing = await StorageBlob.query().where({ purpose: "seed-asset", sha256: sha2563, content_type: contentType }).whereNull("object_deleted_at").orderBy("created_at").first();
  if (existing && await storage.head(existing.key)) return { blob: existing, created: false };
  const blob = await uploadBlob(storage, {
    purpose: "seed-asset",
    contentType,
    body: input.bytes,
    originalFilename: input.originalFilename,
    uploadedByAccountId: input.uploadedByAccountId
  });
  return { blob, created: true };
}
__name(uploadSeedAsset, "uploadSeedAsset");

// server/modules/storage/presenters.ts
function presentBlob(blob) {
  return {
    id: blob.id,
    key: blob.key,
    purpose: blob.purpose,
    contentType: blob.contentType,
    byteSize: blob.byteSize,
    sha256: blob.sha256,
    originalFilename: blob.originalFilename,
    uploadedByAccountId: blob.uploadedByAccountId,
    objectDeletedAt: iso2(blob.objectDeletedAt),
    createdAt: iso2(blob.createdAt),
    updatedAt: iso2(blob.updatedAt)
  };
}
__name(presentBlob, "presentBlob");
function presentStoreObject(object) {
  return { key: object.key, byteSize: object.size, lastModified: object.lastModified.toISOString() };
}
__name(presentStoreObject, "presentStoreObject");
function presentCleanupReport(report) {
  return { ...report };
}
__name(presentCleanupReport, "presentCleanupReport");

// server/modules/storage/queries.ts
async function listBlobs(filters) {
  const base = StorageBlob.query();
  if (filters.purpose) base.where("purpose", filters.purpose);
  if (filters.contentType) base.where("content_type", filters.contentType.toLowerCase());
  if (filters.includeDeleted === false) base.whereNull("object_deleted_at");
  const [items, counted] = await Promise.all([
    base.clone().orderBy([{ column: "created_at", order: "desc" }, { column: "id" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total: counted };
}
__name(listBlobs, "listBlobs");
async function getBlob(id) {
  const blob = await StorageBlob.query().findById(id);
  if (!blob) throw NotFound("No such blob.");
  return blob;
}
__name(getBlob, "getBlob");
var ObjectGone = /* @__PURE__ */ __name(() => new Problem(410, "object_deleted", "Gone", { detail: "This blob's object has been deleted; its record remains." }), "ObjectGone");
var blobETag = /* @__PURE__ */ __name((blob) => `"${blob.sha256}"`, "blobETag");
async function openDownload(storage, blob, ifNoneMatch) {
  if (blob.objectDeletedAt) throw ObjectGone();
  const etag = blobETag(blob);
  if (etagMatches(ifNoneMatch, etag)) return { blob, etag, notModified: true };
  const object = await storage.get(blob.key);
  if (!object) throw ObjectGone();
  return { blob, etag, notModified: false, stream: object.stream, size: object.size };
}
__name(openDownload, "openDownload");
async function findPublicBlob(key) {
  const blob = await StorageBlob.query().findOne({ key });
  if (!blob || !PURPOSES[blob.purpose]?.public || blob.objectDeletedAt) throw NotFound("No such asset.");
  return blob;
}
__name(findPublicBlob, "findPublicBlob");
function listStoreObjects(storage, prefix, limit, startAfter) {
  return storage.list(prefix, { limit, startAfter });
}
__name(listStoreObjects, "listStoreObjects");

// server/modules/storage/handlers.ts
var PRIVATE_CACHE = "private, no-cache";
var PUBLIC_CACHE = "public, max-age=31536000, immutable";
var uploaderOf = /* @__PURE__ */ __name((call) => call.auth.authSource === "session" ? call.auth.identity.accountId ?? null : null, "uploaderOf");
var handlers7 = {
  async listBlobs({ query }) {
    const page = await listBlobs({ ...query, includeDeleted: query.includeDeleted, limit: query.limit ?? 20, offset: query.offset ?? 0 });
    return json(200, { items: page.items.map(presentBlob), total: page.total, limit: query.limit ?? 20, offset: query.offset ?? 0 });
  },
  async uploadBlob(call) {
    const { app, query } = call;
    const request = { file: call.file("file"), formPurpose: call.body?.purpose, query, contentType: call.contentType, rawBody: call.rawBody };
    const blob = await uploadBlob(app.storage, uploadInputFrom({ ...request, uploadedByAccountId: uploaderOf(call) }));
    return json(201, presentBlob(blob));
  },
  async getBlob({ params }) {
    return json(200, presentBlob(await getBlob(params.blobId)));
  },
  async downloadBlob(call) {
    const { app, params } = call;
    const blob = await getBlob(params.blobId);
    const download = await openDownload(app.storage, blob, call.header("if-none-match") || void 0);
    const headers = { ETag: download.etag, "Cache-Control": PRIVATE_CACHE, "X-Content-Type-Options": "nosniff" };
    if (download.notModified) return notModified(headers);
    return stream(download.stream, blob.contentType, {
      length: download.size,
      filename: blob.originalFilename ?? blob.key.split("/").pop(),
      headers
    });
  },
  async getPublicAsset(call) {
    const { app, query } = call;
    const blob = await findPublicBlob(query.key);
    const etag = blobETag(blob);
    const headers = { ETag: etag, "Cache-Control": PUBLIC_CACHE, "X-Content-Type-Options": "nosniff" };
    if (etagMatches(call.header("if-none-match") || void 0, etag)) return notModified(headers);
    const object = await app.storage.get(blob.key);
    if (!object) throw NotFound("No such asset.");
    return stream(object.stream, blob.contentType, { length: object.size, headers });
  },
  async listStoreObjects({ app, query }) {
    const page = await listStoreObjects(app.storage, query.prefix ?? "", query.limit ?? 100, query.startAfter);
    return json(200, { items: page.objects.map(presentStoreObject), nextStartAfter: page.nextStartAfter ?? null });
  },
  async deleteBlobObject({ app, params }) {
    const blob = await deleteBlobObject(app.storage, params.blobId);
    await catalogChanged(app, void 0, { entity: "storageBlob", id: params.blobId });
    return json(200, presentBlob(blob));
  },
  async cleanupStorage({ app, body }) {
    const report = await cleanupStorage(app.storage, { dryRun: body.dryRun, graceSeconds: body.graceSeconds });
    if (!body.dryRun) await catalogChanged(app, void 0, { entity: "storageBlob" });
    return json(200, presentCleanupReport(report));
  },
  async uploadSeedAsset(call) {
    const file = call.file("file");
    const { blob, created } = await uploadSeedAsset(call.app.storage, {
      contentType: file.contentType,
      bytes: file.bytes,
      originalFilename: file.filename || null,
      uploadedByAccountId: uploaderOf(call)
    });
    return json(created ? 201 : 200, presentBlob(blob));
  }
};

// server/modules/storage/publicPolicy.ts
var policy5 = [{ path: "/api/public/assets", match: "exact", methods: ["GET", "HEAD"], level: "public" }];

// server/modules/storage/index.ts
function record7() {
  return { tag: "storage", handlers: handlers7, policy: policy5 };
}
__name(record7, "record");

// server/modules/catalog/queries.ts
var DEFAULT_RANGE_DAYS = 56;
var MAX_RANGE_DAYS = 120;
var SHOW_PAGE_DAYS = 60;
var SHOW_PAGE_MAX_EVENTS = 100;
var PUBLIC_PURPOSES = Object.entries(PURPOSES).filter(([, rule]) => rule.public).map(([purpose]) => purpose);
var LOCAL_START = /* @__PURE__ */ __name((column) => `to_char(${column} at time zone ?, 'YYYY-MM-DD HH24:MI')`, "LOCAL_START");
var EVENT_COLUMNS = `e.slug, e.starts_at, ${LOCAL_START("e.starts_at")} as local_start, e.doors_at, e.capacity, e.sales_open, e.status,
            s.id as show_id, s.slug as show_slug, s.title as show_title, s.duration_minutes,
            ? as seats_taken`;
function optionalFilter(bindings, fragment, value) {
  if (value === void 0) return "";
  bindings.push(value);
  return fragment;
}
__name(optionalFilter, "optionalFilter");
var rowsOf = /* @__PURE__ */ __name((result) => result.rows, "rowsOf");
var asDate = /* @__PURE__ */ __name((value) => value instanceof Date ? value : new Date(value), "asDate");
function dateWindow(query, zone, now) {
  const from = query.from ?? localToday(zone, now);
  const to = query.to ?? addDays(from, DEFAULT_RANGE_DAYS);
  if (to < from) {
    throw Unprocessable("invalid_date_range", "`to` is before `from`.", [{ path: "query/to", message: "must not be before from", code: "invalid_date_range" }]);
  }
  if (to > addDays(from, MAX_RANGE_DAYS)) {
    throw Unprocessable("date_range_too_long", `Ask for at most ${MAX_RANGE_DAYS} days at a time.`, [
      { path: "query/to", message: `must be at most ${MAX_RANGE_DAYS} days after from`, code: "date_range_too_long" }
    ]);
  }
  return { from, to, ...localDateRange(from, to, zone) };
}
__name(dateWindow, "dateWindow");
function upcomingEventsQuery(knex, filter) {
  const bindings = [filter.zone, seatsTakenSql(knex, "e.id", filter.now), filter.start, filter.end, filter.now];
  const showFilter = optionalFilter(bindings, "and s.slug = ?", filter.showSlug);
  bindings.push(filter.limit, filter.offset);
  return knex.raw(
    `select ${EVENT_COLUMNS},
            count(*) over () as total
       from show_events e
       join shows s on s.id = e.show_id
      where s.status = 'PUBLISHED' and e.status = 'SCHEDULED' and e.slug is not null
        and e.starts_at >= ? and e.starts_at < ? and e.starts_at > ?
        ${showFilter}
      order by e.starts_at, e.slug
      limit ? offset ?`,
    bindings
  );
}
__name(upcomingEventsQuery, "upcomingEventsQuery");
function salesQuery(knex, now, showSlug) {
  const bindings = [now, now];
  const showFilter = `select id from shows where status = 'PUBLISHED' ${optionalFilter(bindings, "and slug = ?", showSlug)}`;
  return knex.raw(
    `select cs.booking_cutoff_minutes, cs.limited_availability_threshold, cs.service_charge_percent, cs.vat_percent,
            coalesce((
              select json_agg(json_build_object(
                       'showId', o.show_id, 'code', o.code, 'name', o.name, 'description', o.description,
                       'bookingPath', o.booking_path, 'experienceType', o.experience_type,
                       'pricePerGuestVnd', o.price_per_guest_vnd, 'minGuests', o.min_guests, 'maxGuests', o.max_guests,
                       'items', coalesce((
                         select json_agg(json_build_object(
                                  'code', fi.code, 'name', fi.name, 'kind', fi.kind, 'dietaryTags', fi.dietary_tags,
                                  'quantityPerGuest', oi.quantity_per_guest) order by fi.code)
                           from offer_items oi
                           join fulfillment_items fi on fi.id = oi.fulfillment_item_id
                          where oi.offer_id = o.id), '[]'::json)
                     ) order by o.sort_order, o.code)
                from offers o
               where o.status = 'ACTIVE'
                 and (o.sales_starts_at is null or o.sales_starts_at <= ?)
                 and (o.sales_ends_at is null or o.sales_ends_at > ?)
                 and (o.show_id is null or o.show_id in (${showFilter}))
            ), '[]'::json) as offers
       from commercial_setup cs
      where cs.id = 1`,
    bindings
  );
}
__name(salesQuery, "salesQuery");
function showsQuery(knex, zone, now, page) {
  const bindings = [PUBLIC_PURPOSES, zone, now];
  const slugFilter = optionalFilter(bindings, "and s.slug = ?", page.slug);
  bindings.push(page.limit, page.offset);
  return knex.raw(
    `select s.id, s.slug, s.code, s.title, s.summary, s.description, s.duration_minutes,
            coalesce((
              select json_agg(b.key order by i.position)
                from jsonb_array_elements_text(s.image_blob_ids) with ordinality as i(blob_id, position)
                join storage_blobs b on b.id::text = i.blob_id
               where b.purpose = any(?::text[]) and b.object_deleted_at is null
            ), '[]'::json) as image_keys,
            next_event.slug as next_slug, next_event.starts_at as next_starts_at,
            ${LOCAL_START("next_event.starts_at")} as next_local_start,
            count(*) over () as total
       from shows s
       left join lateral (
              select e.slug, e.starts_at
                from show_events e
               where e.show_id = s.id and e.status = 'SCHEDULED' and e.slug is not null and e.starts_at > ?
               order by e.starts_at, e.slug
               limit 1
            ) next_event on true
      where s.status = 'PUBLISHED' ${slugFilter}
      order by s.sort_order, s.code
      limit ? offset ?`,
    bindings
  );
}
__name(showsQuery, "showsQuery");
function eventBySlugQuery(knex, slug, zone, now) {
  return knex.raw(
    `select ${EVENT_COLUMNS}
       from show_events e
       join shows s on s.id = e.show_id
      where e.slug = ? and s.status = 'PUBLISHED'`,
    [zone, seatsTakenSql(knex, "e.id", now), slug]
  );
}
__name(eventBySlugQuery, "eventBySlugQuery");
function toEvent(row) {
  return { ...row, starts_at: asDate(row.starts_at), doors_at: row.doors_at ? asDate(row.doors_at) : null, seats_taken: Number(row.seats_taken) };
}
__name(toEvent, "toEvent");
function toSales(row) {
  return {
    pricing: { serviceChargePercent: Number(row.service_charge_percent), vatPercent: Number(row.vat_percent) },
    bookingCutoffMinutes: Number(row.booking_cutoff_minutes),
    limitedAvailabilityThreshold: Number(row.limited_availability_threshold),
    offers: typeof row.offers === "string" ? JSON.parse(row.offers) : row.offers
  };
}
__name(toSales, "toSales");
async function loadSales(knex, now, showSlug) {
  return toSales(rowsOf(await salesQuery(knex, now, showSlug))[0]);
}
__name(loadSales, "loadSales");
async function totalOf(rows2, offset, count) {
  if (rows2.length) return Number(rows2[0].total);
  return offset > 0 ? count() : 0;
}
__name(totalOf, "totalOf");
async function listUpcomingEvents(knex, filter) {
  const [result, sales] = await Promise.all([upcomingEventsQuery(knex, filter), loadSales(knex, filter.now, filter.showSlug)]);
  const rows2 = rowsOf(result);
  const total = await totalOf(rows2, filter.offset, async () => {
    const counted = rowsOf(await upcomingEventsQuery(knex, { ...filter, limit: 1, offset: 0 }));
    return counted.length ? Number(counted[0].total) : 0;
  });
  return { events: rows2.map(toEvent), total, sales };
}
__name(listUpcomingEvents, "listUpcomingEvents");
function toShow(row) {
  return { ...row, next_starts_at: row.next_starts_at ? asDate(row.next_starts_at) : null };
}
__name(toShow, "toShow");
async function listPublishedShows(knex, zone, now, page) {
  const [result, sales] = await Promise.all([showsQuery(knex, zone, now, page), loadSales(knex, now)]);
  const rows2 = rowsOf(result);
  const total = await totalOf(rows2, page.offset, async () => {
    const counted = rowsOf(await showsQuery(knex, zone, now, { limit: 1, offset: 0 }));
    return counted.length ? Number(counted[0].total) : 0;
  });
  return { shows: rows2.map(toShow), total, sales };
}
__name(listPublishedShows, "listPublishedShows");
async function findPublishedShow(knex, slug, zone, now) {
  const window2 = dateWindow({ to: addDays(localToday(zone, now), SHOW_PAGE_DAYS) }, zone, now);
  const filter = { zone, start: window2.start, end: window2.end, now, showSlug: slug, limit: SHOW_PAGE_MAX_EVENTS, offset: 0 };
  const [showResult, eventsResult, sales] = await Promise.all([
    showsQuery(knex, zone, now, { slug, limit: 1, offset: 0 }),
    upcomingEventsQuery(knex, filter),
    loadSales(knex, now, slug)
  ]);
  const show2 = rowsOf(showResult)[0];
  if (!show2) return void 0;
  return { show: toShow(show2), events: rowsOf(eventsResult).map(toEvent), window: window2, sales };
}
__name(findPublishedShow, "findPublishedShow");
async function findPublicEvent(knex, slug, zone, now) {
  const [result, sales] = await Promise.all([eventBySlugQuery(knex, slug, zone, now), loadSales(knex, now)]);
  const row = rowsOf(result)[0];
  return row ? { event: toEvent(row), sales } : void 0;
}
__name(findPublicEvent, "findPublicEvent");

// server/modules/catalog/handlers.ts
var CATALOG_CACHE = "public, max-age=60";
function presentation(call, locale) {
  const { siteLocales, defaultLocale, venueTimezone } = call.app.config;
  return { locale: locale && siteLocales.includes(locale) ? locale : defaultLocale, defaultLocale, zone: venueTimezone, now: /* @__PURE__ */ new Date() };
}
__name(presentation, "presentation");
function cacheable(call, p, body) {
  return answered(call, p, { body, etag: etagOf(body) });
}
__name(cacheable, "cacheable");
function answered(call, p, { body, etag }) {
  const headers = { ETag: etag, "Cache-Control": CATALOG_CACHE, "Content-Language": p.locale };
  if (etagMatches(call.header("if-none-match") || void 0, etag)) return notModified(headers);
  return json(200, body, headers);
}
__name(answered, "answered");
var NoSuchShow = /* @__PURE__ */ __name(() => NotFound("No such show."), "NoSuchShow");
var keyOf = /* @__PURE__ */ __name((operation, p, parts) => JSON.stringify([operation, p.locale, ...parts.map((part) => part ?? null)]), "keyOf");
var handlers8 = {
  async listPublicShows(call) {
    const p = presentation(call, call.query.locale);
    const page = { limit: call.query.limit ?? 20, offset: call.query.offset ?? 0 };
    const answer2 = await call.app.catalogCache.answer(keyOf("listPublicShows", p, [page.limit, page.offset]), p.now, async () => {
      const { shows, total, sales } = await listPublishedShows(call.app.db.knex, p.zone, p.now, page);
      return { items: shows.map((show2) => presentShow(show2, sales, p)), total, ...page, locale: p.locale };
    });
    return answered(call, p, answer2);
  },
  async getPublicShow(call) {
    const p = presentation(call, call.query.locale);
    const answer2 = await call.app.catalogCache.answer(keyOf("getPublicShow", p, [call.params.slug]), p.now, async () => {
      const found = await findPublishedShow(call.app.db.knex, call.params.slug, p.zone, p.now);
      if (!found) throw NoSuchShow();
      return presentShowDetail(found.show, found.events, found.sales, p);
    });
    return answered(call, p, answer2);
  },
  async listPublicShowEvents(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const window2 = dateWindow(query, p.zone, p.now);
    const page = { limit: query.limit ?? 20, offset: query.offset ?? 0 };
    const key = keyOf("listPublicShowEvents", p, [window2.from, window2.to, query.show, page.limit, page.offset]);
    const answer2 = await call.app.catalogCache.answer(key, p.now, async () => {
      const { events, total, sales } = await listUpcomingEvents(call.app.db.knex, { zone: p.zone, start: window2.start, end: window2.end, now: p.now, showSlug: query.show, ...page });
      return {
        ...presentEventPage(events, sales, p),
        total,
        ...page,
        from: window2.from,
        to: window2.to,
        timeZone: p.zone,
        locale: p.locale
      };
    });
    return answered(call, p, answer2);
  },
  async getPublicShowEvent(call) {
    const p = presentation(call, call.query.locale);
    const answer2 = await call.app.catalogCache.answer(keyOf("getPublicShowEvent", p, [call.params.slug]), p.now, async () => {
      const found = await findPublicEvent(call.app.db.knex, call.params.slug, p.zone, p.now);
      if (!found) throw NotFound("No such show event.");
      return presentEvent(found.event, found.sales, p);
    });
    return answered(call, p, answer2);
  }
};

// server/modules/catalog/publicPolicy.ts
var policy6 = [
  { path: "/api/public/shows", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/public/shows/", match: "prefix", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/public/show-events", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/public/show-events/", match: "prefix", methods: ["GET", "HEAD"], level: "public" }
];

// server/modules/catalog/services.ts
function catalogServices(platform) {
  const entries = platform.config.catalogCacheEntries;
  return { catalogCache: new CatalogCache(platform.db.knex, platform.config.venueTimezone, platform.notifications, Math.max(1, entries), entries > 0) };
}
__name(catalogServices, "catalogServices");
var SEAT_EVENTS = [
  "hold.placed",
  "reservation.confirmed",
  "reservation.cancelled",
  "reservation.noShow",
  "reservation.resized",
  "holds.expired",
  "showEvent.cancelled"
];
var subscribers = SEAT_EVENTS.map(
  (event2) => subscriber({
    name: `catalog.forget-answers:${event2}`,
    event: event2,
    phase: "in-transaction",
    order: 1e3,
    handle: /* @__PURE__ */ __name((_payload, { trx, app }) => catalogChanged(app, trx, { entity: event2 }), "handle")
  })
);

// server/modules/catalog/index.ts
function record8() {
  return { tag: "catalog", handlers: handlers8, policy: policy6, subscribers, services: catalogServices };
}
__name(record8, "record");

// server/modules/maintenance/commands/resetDatabase.ts
async function resetDatabase(app, by, log) {
  if (app.config.nodeEnv === "production" && !app.config.allowDatabaseReset) {
    throw Forbidden("reset_refused", "Resetting the database is refused in production unless ALLOW_DATABASE_RESET=true.");
  }
  log.warn({ by }, "database reset");
  const rolledBack = await rollbackAll(app.db.knex);
  const { applied } = await migrateLatest(app.db.knex);
  await app.notifications.publish(CREDENTIALS_TOPIC, {});
  await app.notifications.publish(CATALOG_TOPIC);
  return { rolledBack, applied };
}
__name(resetDatabase, "resetDatabase");

// server/modules/maintenance/commands/runMigrations.ts
async function runMigrations(app, log) {
  const result = await migrateLatest(app.db.knex);
  log.info({ applied: result.applied }, "migrations run");
  return result;
}
__name(runMigrations, "runMigrations");

// server/modules/maintenance/handlers.ts
var handlers9 = {
  async runMigrations({ app, log }) {
    return json(200, await runMigrations(app, log));
  },
  async resetDatabase({ app, log, auth }) {
    const by = auth.identity.accountId ?? `superuser-token#${auth.identity.superuserTokenIndex}`;
    return json(200, await resetDatabase(app, by, log));
  }
};

// server/modules/maintenance/index.ts
function record9() {
  return { tag: "maintenance", handlers: handlers9 };
}
__name(record9, "record");

// server/modules/email/presenters.ts
function presentEmailListItem(message) {
  return {
    id: message.id,
    status: message.status,
    to: message.toAddress,
    from: message.fromAddress,
    subject: message.subject,
    template: message.template,
    locale: message.locale,
    customerId: message.customerId,
    reservationId: message.reservationId,
    attachments: (message.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
      contentId: a.contentId
    })),
    attempts: message.attempts,
    providerMessageId: message.providerMessageId,
    lastError: message.lastError,
    lastAttemptAt: iso2(message.lastAttemptAt),
    sentAt: iso2(message.sentAt),
    createdAt: iso2(message.createdAt),
    updatedAt: iso2(message.updatedAt)
  };
}
__name(presentEmailListItem, "presentEmailListItem");
function presentEmailMessage(message) {
  return {
    ...presentEmailListItem(message),
    providerResponse: message.providerResponse,
    htmlBody: message.htmlBody ?? "",
    textBody: message.textBody ?? ""
  };
}
__name(presentEmailMessage, "presentEmailMessage");

// server/modules/email/queries.ts
import { snakeCaseMappers as snakeCaseMappers2 } from "objection";

// server/modules/email/models.ts
import { Model as Model2 } from "objection";
var EmailMessage = class extends BaseModel {
  static {
    __name(this, "EmailMessage");
  }
  static tableName = "email_messages";
  status;
  toAddress;
  fromAddress;
  subject;
  template;
  locale;
  customerId;
  reservationId;
  attachments;
  attempts;
  providerMessageId;
  providerResponse;
  lastError;
  lastAttemptAt;
  sentAt;
  static get jsonAttributes() {
    return ["attachments"];
  }
};
var EmailAttachment = class extends Model2 {
  static {
    __name(this, "EmailAttachment");
  }
  static tableName = "email_attachments";
  id;
  messageId;
  position;
  filename;
  contentType;
  contentId;
  size;
  content;
  createdAt;
  static get columnNameMappers() {
    return BaseModel.columnNameMappers;
  }
};

// server/modules/email/queries.ts
var LIST_COLUMNS = [
  "id",
  "status",
  "to_address",
  "from_address",
  "subject",
  "template",
  "locale",
  "customer_id",
  "reservation_id",
  "attachments",
  "attempts",
  "provider_message_id",
  "provider_response",
  "last_error",
  "last_attempt_at",
  "sent_at",
  "created_at",
  "updated_at"
];
async function listMessages(knex, filters = {}, paging = {}) {
  const limit = Math.min(Math.max(paging.limit ?? 50, 1), 200);
  const offset = Math.max(paging.offset ?? 0, 0);
  const base = EmailMessage.query(knex);
  if (filters.status) base.where("status", filters.status);
  if (filters.to) base.whereRaw("lower(to_address) = ?", [filters.to.trim().toLowerCase()]);
  if (filters.customerId) base.where("customer_id", filters.customerId);
  if (filters.reservationId) base.where("reservation_id", filters.reservationId);
  if (filters.template) base.where("template", filters.template);
  if (filters.createdFrom) base.where("created_at", ">=", new Date(filters.createdFrom));
  if (filters.createdTo) base.where("created_at", "<", new Date(filters.createdTo));
  const [items, total] = await Promise.all([
    base.clone().select(LIST_COLUMNS).orderBy([{ column: "created_at", order: "desc" }, { column: "id" }]).limit(limit).offset(offset),
    base.clone().resultSize()
  ]);
  return { items, total, limit, offset };
}
__name(listMessages, "listMessages");
async function getMessage(knex, id) {
  const message = CANONICAL_UUID.test(id) ? await EmailMessage.query(knex).findById(id) : void 0;
  if (!message) throw NotFound("No e-mail message with this id.");
  return message;
}
__name(getMessage, "getMessage");
async function hasMessage(knex, reservationId, template) {
  return Boolean(await EmailMessage.query(knex).where({ reservation_id: reservationId, template }).first().select("id"));
}
__name(hasMessage, "hasMessage");
var camel = snakeCaseMappers2();
async function reservationForMessage(trx, id) {
  const row = await trx("reservations as r").join("show_events as e", "e.id", "r.show_event_id").join("shows as s", "s.id", "e.show_id").join("offers as o", "o.id", "r.offer_id").where("r.id", id).first(
    "r.*",
    "e.slug as event_slug",
    "e.starts_at as event_starts_at",
    "e.doors_at as event_doors_at",
    "e.status as event_status",
    "s.title as show_title",
    "s.duration_minutes as show_duration_minutes",
    "o.name as offer_name"
  );
  return row ? camel.parse(row) : void 0;
}
__name(reservationForMessage, "reservationForMessage");
async function netPaid(trx, reservationId) {
  const row = await trx("payments").where({ reservation_id: reservationId }).whereIn("status", ["SUCCEEDED", "PARTIALLY_REFUNDED", "REFUNDED"]).first(trx.raw("coalesce(sum(amount_vnd - refunded_vnd), 0) as net"));
  return Number(row?.net ?? 0);
}
__name(netPaid, "netPaid");
async function eventStartOf(trx, reservationId) {
  const event2 = await trx("reservations as r").join("show_events as e", "e.id", "r.show_event_id").where("r.id", reservationId).first("e.starts_at");
  return event2.starts_at;
}
__name(eventStartOf, "eventStartOf");
async function lockReservationForReminder(trx, id) {
  const reservation = await trx("reservations").where({ id }).forUpdate().first("id", "status", "show_event_id");
  if (!reservation) return void 0;
  const event2 = await trx("show_events").where({ id: reservation.show_event_id }).first("status", "starts_at");
  return { status: reservation.status, eventStatus: event2.status, eventStartsAt: event2.starts_at };
}
__name(lockReservationForReminder, "lockReservationForReminder");
async function lockReservationContact(trx, id) {
  const reservation = await trx("reservations").where({ id }).forUpdate().first("status", "contact_email");
  return reservation ? { status: reservation.status, contactEmail: reservation.contact_email } : void 0;
}
__name(lockReservationContact, "lockReservationContact");
async function refundsOf(trx, reservationId) {
  const rows2 = await trx("refunds as f").join("payments as p", "p.id", "f.payment_id").where("p.reservation_id", reservationId).orderBy("f.created_at").orderBy("f.id").select("f.id", "f.amount_vnd", "f.status", "p.gateway", "f.created_at");
  return rows2.map((row) => ({ id: row.id, amountVnd: Number(row.amount_vnd), status: row.status, gateway: row.gateway, createdAt: new Date(row.created_at) }));
}
__name(refundsOf, "refundsOf");
async function refundForMessage(trx, refundId) {
  const row = await trx("refunds as f").join("payments as p", "p.id", "f.payment_id").where("f.id", refundId).first("f.status", "f.amount_vnd", "p.gateway", "p.reservation_id");
  return row ? { status: row.status, amountVnd: Number(row.amount_vnd), gateway: row.gateway, reservationId: row.reservation_id } : void 0;
}
__name(refundForMessage, "refundForMessage");

// server/modules/email/handlers.ts
var handlers10 = {
  async listEmailMessages({ query, app }) {
    const { limit, offset, ...filters } = query;
    const page = await listMessages(app.db.knex, filters, { limit, offset });
    return json(200, { ...page, items: page.items.map(presentEmailListItem) });
  },
  async getEmailMessage({ params, app }) {
    return json(200, presentEmailMessage(await getMessage(app.db.knex, params.messageId)));
  }
};

// server/modules/email/commands/deliverEmail.ts
import { raw } from "objection";

// server/modules/email/addresses.ts
function displayName(from) {
  const match = /^\s*"?([^"<]*?)"?\s*</.exec(from);
  return match?.[1]?.trim() || domainOf(from);
}
__name(displayName, "displayName");
function domainOf(address) {
  const match = /@([^>\s]+)>?\s*$/.exec(address);
  return match?.[1] ?? "localhost";
}
__name(domainOf, "domainOf");

// server/modules/email/commands/deliverEmail.ts
function isPermanent(err) {
  const e = err;
  return (e?.code === "EENVELOPE" || e?.code === "EMESSAGE") && typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600;
}
__name(isPermanent, "isPermanent");
function describeError(err) {
  const e = err;
  const text = `${e?.code ?? e?.name ?? "Error"}: ${e?.message ?? String(err)}`;
  return text.length > 1e3 ? `${text.slice(0, 997)}...` : text;
}
__name(describeError, "describeError");
async function deliverEmail(deps, messageId, options = {}) {
  const [claimed] = await EmailMessage.query(deps.knex).where({ id: messageId, status: "QUEUED" }).patch({ attempts: raw("attempts + 1"), lastAttemptAt: raw("now()"), updatedAt: raw("now()") }).returning("*");
  if (!claimed) {
    const row = await EmailMessage.query(deps.knex).findById(messageId).select("status");
    deps.logger.info({ messageId, status: row?.status ?? null }, "e-mail not sent: not queued");
    return "skipped";
  }
  const attachments = await EmailAttachment.query(deps.knex).where("message_id", messageId).orderBy("position");
  try {
    const receipt = await deps.mailer.send({
      from: claimed.fromAddress,
      to: claimed.toAddress,
      subject: claimed.subject,
      html: claimed.htmlBody,
      text: claimed.textBody,
      messageId: `<${claimed.id}@${domainOf(claimed.fromAddress)}>`,
      attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content, contentId: a.contentId }))
    });
    await EmailMessage.query(deps.knex).where({ id: messageId, status: "QUEUED" }).patch({
      status: "SENT",
      providerMessageId: receipt.messageId,
      providerResponse: receipt.response.slice(0, 1e3),
      lastError: null,
      sentAt: raw("now()"),
      updatedAt: raw("now()")
    });
    deps.logger.info({ messageId, attempt: claimed.attempts, mailer: deps.mailer.kind }, "e-mail sent");
    return "sent";
  } catch (err) {
    const permanent = isPermanent(err);
    const failed = permanent || options.finalAttempt === true;
    await EmailMessage.query(deps.knex).where({ id: messageId, status: "QUEUED" }).patch({ lastError: describeError(err), ...failed ? { status: "FAILED" } : {}, updatedAt: raw("now()") });
    deps.logger.warn({ messageId, attempt: claimed.attempts, failed, permanent, err: describeError(err) }, failed ? "e-mail failed" : "e-mail attempt failed; will retry");
    if (failed) return "failed";
    throw err;
  }
}
__name(deliverEmail, "deliverEmail");

// server/modules/knowledge/models.ts
var KnowledgeDocument = class extends BaseModel {
  static {
    __name(this, "KnowledgeDocument");
  }
  static tableName = "knowledge_documents";
  static jsonAttributes = ["tags"];
  topic;
  locale;
  title;
  body;
  tags;
  status;
  revision;
  publishedAt;
  archivedAt;
};
var KnowledgeRevision = class extends RecordModel {
  static {
    __name(this, "KnowledgeRevision");
  }
  static tableName = "knowledge_revisions";
  static jsonAttributes = ["changes"];
  id;
  documentId;
  revision;
  action;
  actorKind;
  actorId;
  actorLabel;
  changes;
  createdAt;
};

// server/modules/shows/models.ts
var Show = class extends BaseModel {
  static {
    __name(this, "Show");
  }
  static tableName = "shows";
  static jsonAttributes = ["title", "summary", "description", "imageBlobIds"];
  code;
  slug;
  status;
  canonical;
  title;
  summary;
  description;
  durationMinutes;
  imageBlobIds;
  sortOrder;
  publishedAt;
  archivedAt;
};

// server/modules/shows/queries.ts
var likeContaining = /* @__PURE__ */ __name((text) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, "likeContaining");
async function listShows(filters) {
  const base = Show.query();
  if (filters.status) base.where("status", filters.status);
  if (filters.search) {
    const pattern = likeContaining(filters.search);
    base.where(
      (q) => q.where("code", "ilike", pattern).orWhere("slug", "ilike", pattern).orWhereRaw("exists (select 1 from jsonb_each_text(shows.title) as t where t.value ilike ?)", [pattern])
    );
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: "sort_order" }, { column: "code" }, { column: "id" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listShows, "listShows");
async function findShowOrFail(id, trx, options = {}) {
  const query = Show.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const show2 = await query;
  if (!show2) throw NotFound("No such show.");
  return show2;
}
__name(findShowOrFail, "findShowOrFail");
async function assertImageBlobs(ids, trx) {
  if (!ids?.length) return;
  const found = new Set(
    (await trx("storage_blobs").whereIn("id", [...ids]).whereNull("object_deleted_at").select("id")).map((row) => row.id)
  );
  const errors = ids.flatMap((id, index) => found.has(id) ? [] : [{ path: `body/imageBlobIds/${index}`, message: "no such blob (or its object was deleted)", code: "unknown_blob" }]);
  if (errors.length) throw Unprocessable("unknown_blob", "An image blob does not exist.", errors);
}
__name(assertImageBlobs, "assertImageBlobs");
function takenColumn(err, table2) {
  if (!isUniqueViolation(err)) return void 0;
  const e = err;
  const constraint = e.constraint ?? e.nativeError?.constraint ?? "";
  const match = new RegExp(`^${table2}_(.+)_unique$`).exec(constraint);
  return match ? match[1] : "code";
}
__name(takenColumn, "takenColumn");

// server/modules/shows/commands/archiveShow.ts
async function archiveShow(app, id) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "show" });
    const show2 = await findShowOrFail(id, trx, { forUpdate: true });
    if (show2.status === "ARCHIVED") return show2;
    if (show2.canonical) throw Conflict("canonical_show", "A canonical show cannot be archived; clear `canonical` first.");
    return show2.$query(trx).patchAndFetch({ status: "ARCHIVED", archivedAt: /* @__PURE__ */ new Date() });
  });
}
__name(archiveShow, "archiveShow");

// server/domain/localizedInput.ts
function localizedErrors(fields, config, prefix = "body") {
  const errors = [];
  for (const [field, text] of Object.entries(fields)) {
    if (text === void 0) continue;
    for (const locale of unknownLocales(text, config.siteLocales)) {
      errors.push({ path: `${prefix}/${field}/${locale}`, message: `is not a site locale (${config.siteLocales.join(", ")})`, code: "unknown_locale" });
    }
    if (Object.values(text).some(Boolean) && !text[config.defaultLocale]) {
      errors.push({ path: `${prefix}/${field}/${config.defaultLocale}`, message: `text in the default locale (${config.defaultLocale}) is required`, code: "default_locale_required" });
    }
  }
  return errors;
}
__name(localizedErrors, "localizedErrors");
function localizedProblem(errors) {
  return UnprocessableFields("Per-locale text must use the site locales and have text in the default locale.", errors);
}
__name(localizedProblem, "localizedProblem");
function assertLocalized(fields, config, prefix = "body") {
  const errors = localizedErrors(fields, config, prefix);
  if (errors.length) throw localizedProblem(errors);
}
__name(assertLocalized, "assertLocalized");
var staffText = /* @__PURE__ */ __name((text, config) => fillLocales(text, config.siteLocales, config.defaultLocale), "staffText");
function untranslated(fields, config) {
  const missing = [];
  for (const [field, text] of Object.entries(fields)) {
    if (!text || !Object.values(text).some(Boolean)) continue;
    for (const locale of config.siteLocales) if (!text[locale]) missing.push(`${field}/${locale}`);
  }
  return missing;
}
__name(untranslated, "untranslated");

// server/modules/shows/commands/createShow.ts
async function createShow(app, input) {
  assertLocalized({ title: input.title, summary: input.summary, description: input.description }, app.config);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "show" });
    await assertImageBlobs(input.imageBlobIds, trx);
    try {
      return await Show.query(trx).insertAndFetch({
        code: input.code,
        slug: input.slug,
        status: "DRAFT",
        canonical: input.canonical ?? false,
        title: input.title,
        summary: input.summary ?? {},
        description: input.description ?? {},
        durationMinutes: input.durationMinutes,
        imageBlobIds: input.imageBlobIds ?? [],
        sortOrder: input.sortOrder ?? 0
      });
    } catch (err) {
      const column = takenColumn(err, "shows");
      if (column) throw Conflict(column === "slug" ? "slug_taken" : "code_taken", `Another show has this ${column}.`);
      throw err;
    }
  });
}
__name(createShow, "createShow");

// server/modules/shows/commands/updateShow.ts
var ShowArchived = /* @__PURE__ */ __name(() => Conflict("show_archived", "The show is archived; it can no longer change."), "ShowArchived");
async function updateShow(app, id, input) {
  assertLocalized({ title: input.title, summary: input.summary, description: input.description }, app.config);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "show" });
    const show2 = await findShowOrFail(id, trx, { forUpdate: true });
    if (show2.status === "ARCHIVED") throw ShowArchived();
    await assertImageBlobs(input.imageBlobIds, trx);
    try {
      return await show2.$query(trx).patchAndFetch({ ...input });
    } catch (err) {
      const column = takenColumn(err, "shows");
      if (column) throw Conflict(column === "slug" ? "slug_taken" : "code_taken", `Another show has this ${column}.`);
      throw err;
    }
  });
}
__name(updateShow, "updateShow");

// server/modules/shows/commands/setShowPublished.ts
async function setShowPublished(app, id, published2) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "show" });
    const show2 = await findShowOrFail(id, trx, { forUpdate: true });
    if (show2.status === "ARCHIVED") throw ShowArchived();
    const target = published2 ? "PUBLISHED" : "DRAFT";
    if (show2.status === target) return show2;
    return show2.$query(trx).patchAndFetch({ status: target, publishedAt: published2 ? /* @__PURE__ */ new Date() : null });
  });
}
__name(setShowPublished, "setShowPublished");

// server/modules/shows/commands/publishShow.ts
function publishShow(app, id) {
  return setShowPublished(app, id, true);
}
__name(publishShow, "publishShow");

// server/modules/shows/commands/unpublishShow.ts
function unpublishShow(app, id) {
  return setShowPublished(app, id, false);
}
__name(unpublishShow, "unpublishShow");

// server/modules/shows/presenters.ts
function presentShow2(show2, config) {
  return {
    id: show2.id,
    code: show2.code,
    slug: show2.slug,
    status: show2.status,
    canonical: show2.canonical,
    title: staffText(show2.title, config),
    summary: staffText(show2.summary, config),
    description: staffText(show2.description, config),
    untranslated: untranslated({ title: show2.title, summary: show2.summary, description: show2.description }, config),
    durationMinutes: show2.durationMinutes,
    imageBlobIds: [...show2.imageBlobIds ?? []],
    sortOrder: show2.sortOrder,
    publishedAt: iso2(show2.publishedAt),
    archivedAt: iso2(show2.archivedAt),
    createdAt: iso2(show2.createdAt),
    updatedAt: iso2(show2.updatedAt)
  };
}
__name(presentShow2, "presentShow");

// server/modules/shows/handlers.ts
var handlers11 = {
  async listShows({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listShows({ status: query.status, search: query.search, limit, offset });
    return json(200, { items: page.items.map((show2) => presentShow2(show2, app.config)), total: page.total, limit, offset });
  },
  async getShow({ app, params }) {
    return json(200, presentShow2(await findShowOrFail(params.showId), app.config));
  },
  async createShow({ app, body }) {
    return json(201, presentShow2(await createShow(app, body), app.config));
  },
  async updateShow({ app, params, body }) {
    return json(200, presentShow2(await updateShow(app, params.showId, body), app.config));
  },
  async publishShow({ app, params }) {
    return json(200, presentShow2(await publishShow(app, params.showId), app.config));
  },
  async unpublishShow({ app, params }) {
    return json(200, presentShow2(await unpublishShow(app, params.showId), app.config));
  },
  async archiveShow({ app, params }) {
    return json(200, presentShow2(await archiveShow(app, params.showId), app.config));
  }
};

// server/modules/shows/index.ts
function record10() {
  return { tag: "shows", handlers: handlers11 };
}
__name(record10, "record");

// server/modules/knowledge/queries.ts
var NoSuchDocument = /* @__PURE__ */ __name(() => NotFound("No such knowledge document."), "NoSuchDocument");
async function findDocumentOrFail(knex, id) {
  const document2 = await KnowledgeDocument.query(knex).findById(id);
  if (!document2) throw NoSuchDocument();
  return document2;
}
__name(findDocumentOrFail, "findDocumentOrFail");
async function lockDocument(trx, id) {
  const document2 = await KnowledgeDocument.query(trx).findById(id).forUpdate();
  if (!document2) throw NoSuchDocument();
  return document2;
}
__name(lockDocument, "lockDocument");
async function listDocuments(knex, filters) {
  const base = KnowledgeDocument.query(knex);
  if (filters.status) base.where("status", filters.status);
  if (filters.locale) base.where("locale", filters.locale);
  if (filters.tag) base.whereRaw("tags @> jsonb_build_array(?::text)", [filters.tag]);
  if (filters.q) {
    const pattern = likeContaining(filters.q);
    base.where((q) => q.where("topic", "ilike", pattern).orWhere("title", "ilike", pattern).orWhere("body", "ilike", pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: "updated_at", order: "desc" }, { column: "id" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listDocuments, "listDocuments");
async function listRevisions(knex, documentId) {
  await findDocumentOrFail(knex, documentId);
  return KnowledgeRevision.query(knex).where("document_id", documentId).orderBy("revision", "desc");
}
__name(listRevisions, "listRevisions");
async function publishedDocumentsIn(knex, locales2) {
  return KnowledgeDocument.query(knex).where("status", "PUBLISHED").whereIn("locale", locales2).orderBy([{ column: "topic" }, { column: "locale" }]).select("topic", "locale", "title", "body", "tags");
}
__name(publishedDocumentsIn, "publishedDocumentsIn");

// server/modules/knowledge/rules.ts
function actorOf(auth) {
  const { identity } = auth;
  if (identity.apiKeyId) return { kind: "api-key", id: identity.apiKeyId, label: identity.apiKeyName ?? identity.apiKeyId };
  if (identity.accountId) return { kind: "account", id: identity.accountId, label: identity.email ?? identity.accountId };
  return { kind: "superuser-token", id: null, label: "superuser-token" };
}
__name(actorOf, "actorOf");
var uniqueTags = /* @__PURE__ */ __name((tags) => [...new Set(tags ?? [])], "uniqueTags");
function assertSiteLocale(locale, siteLocales) {
  if (locale === void 0 || siteLocales.includes(locale)) return;
  throw Unprocessable("unknown_locale", `The locale must be one of ${siteLocales.join(", ")}.`, [
    { path: "body/locale", message: `must be one of ${siteLocales.join(", ")}`, code: "unknown_locale" }
  ]);
}
__name(assertSiteLocale, "assertSiteLocale");
function isTopicTaken(err) {
  if (!isUniqueViolation(err)) return false;
  const e = err;
  const constraint = e.constraint ?? e.nativeError?.constraint;
  return constraint === void 0 || constraint === "knowledge_documents_topic_locale_unique";
}
__name(isTopicTaken, "isTopicTaken");
var topicTaken = /* @__PURE__ */ __name(() => Conflict("topic_taken", "Another document that is not archived has this topic in this locale."), "topicTaken");
var documentArchived = /* @__PURE__ */ __name(() => Conflict("knowledge_archived", "An archived knowledge document is read-only."), "documentArchived");
var TRANSITIONS = {
  DRAFT: ["PUBLISHED", "ARCHIVED"],
  PUBLISHED: ["ARCHIVED"],
  ARCHIVED: []
};
var canTransition = /* @__PURE__ */ __name((from, to) => TRANSITIONS[from].includes(to), "canTransition");

// server/modules/knowledge/commands/writeRevision.ts
async function writeRevision(trx, input) {
  await KnowledgeRevision.query(trx).insert({
    documentId: input.documentId,
    revision: input.revision,
    action: input.action,
    actorKind: input.actor.kind,
    actorId: input.actor.id,
    actorLabel: input.actor.label,
    changes: input.changes,
    createdAt: input.at
  });
}
__name(writeRevision, "writeRevision");

// server/modules/knowledge/commands/transitionDocument.ts
async function transitionDocument(app, id, to, actor) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const document2 = await lockDocument(trx, id);
    if (document2.status === to) return document2;
    if (!canTransition(document2.status, to)) {
      throw Conflict("illegal_transition", `A ${document2.status.toLowerCase()} knowledge document cannot become ${to.toLowerCase()}.`);
    }
    const now = /* @__PURE__ */ new Date();
    const revision = document2.revision + 1;
    const stamp = to === "PUBLISHED" ? { publishedAt: document2.publishedAt ?? now } : { archivedAt: now };
    const updated = await KnowledgeDocument.query(trx).patchAndFetchById(id, { status: to, ...stamp, revision, updatedAt: now });
    await writeRevision(trx, {
      documentId: id,
      revision,
      action: to === "PUBLISHED" ? "PUBLISH" : "ARCHIVE",
      actor,
      changes: [{ field: "status", before: document2.status, after: to }],
      at: now
    });
    return updated;
  });
}
__name(transitionDocument, "transitionDocument");

// server/modules/knowledge/commands/archiveKnowledgeDocument.ts
async function archiveKnowledgeDocument(app, id, actor) {
  return transitionDocument(app, id, "ARCHIVED", actor);
}
__name(archiveKnowledgeDocument, "archiveKnowledgeDocument");

// server/modules/knowledge/commands/createKnowledgeDocument.ts
async function createKnowledgeDocument(app, input, actor) {
  assertSiteLocale(input.locale, app.config.siteLocales);
  const tags = uniqueTags(input.tags);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
      const document2 = await KnowledgeDocument.query(trx).insertAndFetch({
        topic: input.topic,
        locale: input.locale,
        title: input.title,
        body: input.body,
        tags,
        status: "DRAFT",
        revision: 1,
        createdAt: now,
        updatedAt: now
      });
      const changes = [
        { field: "topic", before: null, after: input.topic },
        { field: "locale", before: null, after: input.locale },
        { field: "title", before: null, after: input.title },
        { field: "body", before: null, after: input.body },
        { field: "tags", before: null, after: tags },
        { field: "status", before: null, after: "DRAFT" }
      ];
      await writeRevision(trx, { documentId: document2.id, revision: 1, action: "CREATE", actor, changes, at: now });
      return document2;
    });
  } catch (err) {
    if (isTopicTaken(err)) throw topicTaken();
    throw err;
  }
}
__name(createKnowledgeDocument, "createKnowledgeDocument");

// server/modules/knowledge/commands/publishKnowledgeDocument.ts
async function publishKnowledgeDocument(app, id, actor) {
  return transitionDocument(app, id, "PUBLISHED", actor);
}
__name(publishKnowledgeDocument, "publishKnowledgeDocument");

// server/modules/knowledge/commands/updateKnowledgeDocument.ts
var TEXT_FIELDS = ["topic", "locale", "title", "body"];
async function updateKnowledgeDocument(app, id, input, actor) {
  assertSiteLocale(input.locale, app.config.siteLocales);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const document2 = await lockDocument(trx, id);
      if (document2.status === "ARCHIVED") throw documentArchived();
      const changes = [];
      const patch = {};
      for (const field of TEXT_FIELDS) {
        const value = input[field];
        if (value !== void 0 && value !== document2[field]) {
          changes.push({ field, before: document2[field], after: value });
          patch[field] = value;
        }
      }
      if (input.tags !== void 0) {
        const before = document2.tags;
        const after = uniqueTags(input.tags);
        if (JSON.stringify(before) !== JSON.stringify(after)) {
          changes.push({ field: "tags", before, after });
          patch.tags = after;
        }
      }
      if (!changes.length) return document2;
      const now = /* @__PURE__ */ new Date();
      const revision = document2.revision + 1;
      const updated = await KnowledgeDocument.query(trx).patchAndFetchById(id, { ...patch, revision, updatedAt: now });
      await writeRevision(trx, { documentId: id, revision, action: "UPDATE", actor, changes, at: now });
      return updated;
    });
  } catch (err) {
    if (isTopicTaken(err)) throw topicTaken();
    throw err;
  }
}
__name(updateKnowledgeDocument, "updateKnowledgeDocument");

// server/modules/knowledge/presenters.ts
function presentDocument(document2) {
  return {
    id: document2.id,
    topic: document2.topic,
    locale: document2.locale,
    title: document2.title,
    body: document2.body,
    tags: document2.tags,
    status: document2.status,
    revision: document2.revision,
    publishedAt: iso2(document2.publishedAt),
    archivedAt: iso2(document2.archivedAt),
    createdAt: iso2(document2.createdAt),
    updatedAt: iso2(document2.updatedAt)
  };
}
__name(presentDocument, "presentDocument");
function presentRevision(revision) {
  return {
    revision: revision.revision,
    action: revision.action,
    actor: { kind: revision.actorKind, id: revision.actorId, label: revision.actorLabel },
    changes: revision.changes,
    createdAt: iso2(revision.createdAt)
  };
}
__name(presentRevision, "presentRevision");
function presentRevisionList(documentId, revisions) {
  return { documentId, items: revisions.map(presentRevision) };
}
__name(presentRevisionList, "presentRevisionList");

// server/modules/knowledge/handlers.ts
var handlers12 = {
  async listKnowledgeDocuments({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listDocuments(app.db.knex, { status: query.status, locale: query.locale, tag: query.tag, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentDocument), total: page.total, limit, offset });
  },
  async getKnowledgeDocument({ app, params }) {
    return json(200, presentDocument(await findDocumentOrFail(app.db.knex, params.documentId)));
  },
  async createKnowledgeDocument({ app, body, auth }) {
    return json(201, presentDocument(await createKnowledgeDocument(app, body, actorOf(auth))));
  },
  async updateKnowledgeDocument({ app, params, body, auth }) {
    return json(200, presentDocument(await updateKnowledgeDocument(app, params.documentId, body, actorOf(auth))));
  },
  async publishKnowledgeDocument({ app, params, auth }) {
    return json(200, presentDocument(await publishKnowledgeDocument(app, params.documentId, actorOf(auth))));
  },
  async archiveKnowledgeDocument({ app, params, auth }) {
    return json(200, presentDocument(await archiveKnowledgeDocument(app, params.documentId, actorOf(auth))));
  },
  async listKnowledgeRevisions({ app, params }) {
    return json(200, presentRevisionList(params.documentId, await listRevisions(app.db.knex, params.documentId)));
  }
};

// server/modules/knowledge/published.ts
function fold(text) {
  return text.normalize("NFD").replace(new RegExp("\\p{M}+", "gu"), "").replace(/đ/giu, "d").toLowerCase();
}
__name(fold, "fold");
var STOP_WORDS = new Set(
  "the and for you are is do does can could what how when where which who a an to of in on at my i we it be with your have has there any or about me us our this that will would should please tell know if not no yes hi hello co khong la va cua cho toi ban duoc thi ma nao gi o voi nhung cac mot khi nay do sao the nhu vay a a oi xin chao".split(" ")
);
var wordsOf = /* @__PURE__ */ __name((text) => fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean), "wordsOf");
function queryWords(q) {
  return [...new Set(wordsOf(q).filter((word) => !STOP_WORDS.has(word)))];
}
__name(queryWords, "queryWords");
function score(doc2, words) {
  const head = /* @__PURE__ */ new Set([...wordsOf(doc2.topic), ...wordsOf(doc2.title), ...doc2.tags.flatMap(wordsOf)]);
  const body = new Set(wordsOf(doc2.body));
  const hit = /* @__PURE__ */ __name((set, word) => set.has(word) || word.length >= 4 && [...set].some((token2) => token2.startsWith(word)), "hit");
  return words.reduce((total, word) => total + (hit(head, word) ? 2 : hit(body, word) ? 1 : 0), 0);
}
__name(score, "score");
async function publishedKnowledge(knex, query) {
  const rows2 = await publishedDocumentsIn(knex, [.../* @__PURE__ */ new Set([query.locale, query.defaultLocale])]);
  const byTopic = /* @__PURE__ */ new Map();
  for (const row of rows2) {
    const doc2 = { topic: row.topic, locale: row.locale, title: row.title, body: row.body, tags: row.tags };
    const held = byTopic.get(doc2.topic);
    if (!held || held.locale !== query.locale && doc2.locale === query.locale) byTopic.set(doc2.topic, doc2);
  }
  let docs = [...byTopic.values()];
  if (query.tag) docs = docs.filter((doc2) => doc2.tags.includes(query.tag));
  const words = query.q ? queryWords(query.q) : [];
  if (words.length) {
    const scored = docs.map((doc2) => ({ doc: doc2, score: score(doc2, words) })).filter((entry) => entry.score > 0);
    scored.sort((a, b) => b.score - a.score || a.doc.topic.localeCompare(b.doc.topic));
    docs = scored.map((entry) => entry.doc);
  }
  return docs.slice(0, query.limit);
}
__name(publishedKnowledge, "publishedKnowledge");

// server/modules/knowledge/index.ts
function record11() {
  return { tag: "knowledge", handlers: handlers12 };
}
__name(record11, "record");

// server/modules/assistantCatalog/presenters.ts
var NEXT_DATES = 5;
var localEvent2 = /* @__PURE__ */ __name((localStart) => ({ date: localStart.slice(0, 10), time: localStart.slice(11, 16) }), "localEvent");
var selling2 = /* @__PURE__ */ __name((event2, p) => event2.status === "SCHEDULED" && event2.starts_at.getTime() > p.now.getTime(), "selling");
var eventOffers = /* @__PURE__ */ __name((event2, sales, p) => selling2(event2, p) ? offersFor(sales, event2.show_id) : [], "eventOffers");
function eventState(event2, sales, p) {
  const availability = eventAvailability(event2, sales, p);
  const offers = eventOffers(event2, sales, p);
  const open = availability.state === "AVAILABLE" || availability.state === "LIMITED";
  return { state: availability.state, seatsLeft: availability.seatsLeft, remaining: Math.max(0, event2.capacity - event2.seats_taken), offers, bookable: open && offers.length > 0 };
}
__name(eventState, "eventState");
var showRef = /* @__PURE__ */ __name((event2, p, routes) => ({
  slug: event2.show_slug,
  title: pickLocale(event2.show_title, p.locale, p.defaultLocale),
  showUrl: routes.show(event2.show_slug)
}), "showRef");
var price = /* @__PURE__ */ __name((q) => ({
  guests: q.guests,
  pricePerGuestVnd: q.pricePerGuestVnd,
  subtotalVnd: q.subtotalVnd,
  serviceChargeVnd: q.serviceChargeVnd,
  vatVnd: q.vatVnd,
  totalVnd: q.totalVnd
}), "price");
function priceFromVnd(sales, showId) {
  const totals = offersFor(sales, showId).map((offer) => quote(offer.pricePerGuestVnd, 1, sales.pricing).totalVnd);
  return totals.length ? Math.min(...totals) : null;
}
__name(priceFromVnd, "priceFromVnd");
function presentAssistantShow(show2, events, sales, p, routes) {
  return {
    slug: show2.slug,
    code: show2.code,
    title: pickLocale(show2.title, p.locale, p.defaultLocale),
    summary: pickLocale(show2.summary, p.locale, p.defaultLocale),
    description: pickLocale(show2.description, p.locale, p.defaultLocale),
    durationMinutes: show2.duration_minutes,
    showUrl: routes.show(show2.slug),
    priceFromVnd: priceFromVnd(sales, show2.id),
    nextDates: events.slice(0, NEXT_DATES).map((event2) => {
      const state = eventState(event2, sales, p);
      return {
        eventSlug: event2.slug,
        ...localEvent2(event2.local_start),
        availability: state.state,
        bookingUrl: state.bookable ? routes.booking(event2.slug) : null
      };
    })
  };
}
__name(presentAssistantShow, "presentAssistantShow");
function presentAssistantEvent(event2, sales, p, routes) {
  const state = eventState(event2, sales, p);
  return {
    eventSlug: event2.slug,
    ...localEvent2(event2.local_start),
    doorsTime: event2.doors_at ? toLocal(event2.doors_at, p.zone).time : null,
    show: showRef(event2, p, routes),
    availability: state.state,
    seatsLeft: state.seatsLeft,
    bookingUrl: state.bookable ? routes.booking(event2.slug) : null
  };
}
__name(presentAssistantEvent, "presentAssistantEvent");
function partyFit(event2, sales, p, guests) {
  const state = eventState(event2, sales, p);
  const fitting = state.offers.filter((offer) => offer.minGuests <= guests && guests <= offer.maxGuests).map((offer) => offer.code);
  if (state.state === "CLOSED" || state.offers.length === 0) return { fit: "CLOSED", offerCodes: [] };
  if (state.state === "SOLD_OUT") return { fit: "SOLD_OUT", offerCodes: [] };
  if (fitting.length === 0) return { fit: "PARTY_SIZE_NOT_OFFERED", offerCodes: [] };
  if (state.remaining < guests) return { fit: "NOT_ENOUGH_SEATS", offerCodes: fitting };
  return { fit: "FITS", offerCodes: fitting };
}
__name(partyFit, "partyFit");
function presentAvailabilityEvent(event2, sales, p, routes, guests) {
  const { fit, offerCodes } = partyFit(event2, sales, p, guests);
  return {
    eventSlug: event2.slug,
    time: localEvent2(event2.local_start).time,
    show: showRef(event2, p, routes),
    availability: eventState(event2, sales, p).state,
    fit,
    offerCodes,
    bookingUrl: fit === "FITS" ? routes.booking(event2.slug) : null
  };
}
__name(presentAvailabilityEvent, "presentAvailabilityEvent");
function presentBookingOptions(event2, sales, p, routes, guests) {
  const state = eventState(event2, sales, p);
  const offers = state.offers;
  return {
    locale: p.locale,
    currency: "VND",
    event: {
      eventSlug: event2.slug,
      ...localEvent2(event2.local_start),
      show: showRef(event2, p, routes),
      availability: state.state,
      seatsLeft: state.seatsLeft
    },
    bookable: state.bookable,
    guestLimits: offers.length ? { min: Math.min(...offers.map((o) => o.minGuests)), max: Math.max(...offers.map((o) => o.maxGuests)) } : null,
    offers: offers.map((offer) => ({
      code: offer.code,
      name: pickLocale(offer.name, p.locale, p.defaultLocale),
      description: pickLocale(offer.description, p.locale, p.defaultLocale),
      bookingPath: offer.bookingPath,
      minGuests: offer.minGuests,
      maxGuests: offer.maxGuests,
      perGuest: price(quote(offer.pricePerGuestVnd, 1, sales.pricing)),
      forParty: guests !== void 0 && offer.minGuests <= guests && guests <= offer.maxGuests ? price(quote(offer.pricePerGuestVnd, guests, sales.pricing)) : null,
      includes: offer.items.map((item) => ({
        name: pickLocale(item.name, p.locale, p.defaultLocale),
        kind: item.kind,
        quantityPerGuest: item.quantityPerGuest,
        dietaryTags: item.dietaryTags
      }))
    })),
    bookingUrl: state.bookable ? routes.booking(event2.slug) : null
  };
}
__name(presentBookingOptions, "presentBookingOptions");
function presentRoutes(shows, events, sales, p, routes, locales2) {
  return {
    locale: p.locale,
    baseUrl: routes.baseUrl,
    locales: locales2,
    pages: routes.pages,
    patterns: routes.patterns,
    shows: shows.map((show2) => ({ slug: show2.slug, title: pickLocale(show2.title, p.locale, p.defaultLocale), showUrl: routes.show(show2.slug) })),
    events: events.filter((event2) => eventState(event2, sales, p).bookable).map((event2) => ({ eventSlug: event2.slug, showSlug: event2.show_slug, ...localEvent2(event2.local_start), bookingUrl: routes.booking(event2.slug) }))
  };
}
__name(presentRoutes, "presentRoutes");

// server/modules/assistantCatalog/routes.ts
function siteRoutes(publicSiteUrl, locale) {
  const baseUrl = `${publicSiteUrl.replace(/\/+$/, "")}/${encodeURIComponent(locale)}`;
  return {
    locale,
    baseUrl,
    pages: {
      home: baseUrl,
      shows: `${baseUrl}/shows`,
      inquiries: `${baseUrl}/inquiries`,
      waitlist: `${baseUrl}/waitlist`,
      partners: `${baseUrl}/partners`
    },
    patterns: { show: `${baseUrl}/shows/{slug}`, booking: `${baseUrl}/book/{eventSlug}` },
    show: /* @__PURE__ */ __name((slug) => `${baseUrl}/shows/${encodeURIComponent(slug)}`, "show"),
    booking: /* @__PURE__ */ __name((eventSlug2) => `${baseUrl}/book/${encodeURIComponent(eventSlug2)}`, "booking")
  };
}
__name(siteRoutes, "siteRoutes");

// server/modules/assistantCatalog/service.ts
var HORIZON_DAYS = MAX_RANGE_DAYS;
var HORIZON_MAX_EVENTS = 500;
var MAX_SHOWS = 100;
var EVENTS_DEFAULT_DAYS = 13;
async function showsWithUpcoming(knex, p) {
  const window2 = dateWindow({ to: addDays(localToday(p.zone, p.now), HORIZON_DAYS) }, p.zone, p.now);
  const [shows, upcoming] = await Promise.all([
    listPublishedShows(knex, p.zone, p.now, { limit: MAX_SHOWS, offset: 0 }),
    listUpcomingEvents(knex, { zone: p.zone, start: window2.start, end: window2.end, now: p.now, limit: HORIZON_MAX_EVENTS, offset: 0 })
  ]);
  return { shows: shows.shows, events: upcoming.events, sales: shows.sales };
}
__name(showsWithUpcoming, "showsWithUpcoming");
function eventsWindow(query, p) {
  const from = query.from ?? localToday(p.zone, p.now);
  return dateWindow({ from, to: query.to ?? addDays(from, EVENTS_DEFAULT_DAYS) }, p.zone, p.now);
}
__name(eventsWindow, "eventsWindow");
async function eventsOnDate(knex, date, showSlug, p) {
  const window2 = dateWindow({ from: date, to: date }, p.zone, p.now);
  return listUpcomingEvents(knex, { zone: p.zone, start: window2.start, end: window2.end, now: p.now, showSlug, limit: 100, offset: 0 });
}
__name(eventsOnDate, "eventsOnDate");

// server/modules/assistantCatalog/handlers.ts
var handlers13 = {
  async listAssistantShows(call) {
    const p = presentation(call, call.query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const { shows, events, sales } = await showsWithUpcoming(call.app.db.knex, p);
    const items = shows.map((show2) => presentAssistantShow(show2, events.filter((event2) => event2.show_id === show2.id), sales, p, routes));
    return cacheable(call, p, { locale: p.locale, currency: "VND", timeZone: p.zone, items });
  },
  async listAssistantEvents(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const window2 = eventsWindow(query, p);
    const page = { limit: query.limit ?? 50, offset: query.offset ?? 0 };
    const { events, total, sales } = await listUpcomingEvents(call.app.db.knex, { zone: p.zone, start: window2.start, end: window2.end, now: p.now, showSlug: query.show, ...page });
    return cacheable(call, p, {
      locale: p.locale,
      timeZone: p.zone,
      from: window2.from,
      to: window2.to,
      total,
      ...page,
      items: events.map((event2) => presentAssistantEvent(event2, sales, p, routes))
    });
  },
  async getAssistantAvailability(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const guests = query.guests ?? 1;
    const { events, sales } = await eventsOnDate(call.app.db.knex, query.date, query.show, p);
    const items = events.map((event2) => presentAvailabilityEvent(event2, sales, p, routes, guests));
    return cacheable(call, p, {
      locale: p.locale,
      timeZone: p.zone,
      date: query.date,
      guests,
      available: items.some((item) => item.fit === "FITS"),
      events: items,
      inquiryUrl: routes.pages.inquiries
    });
  },
  async getAssistantBookingOptions(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const found = await findPublicEvent(call.app.db.knex, query.event, p.zone, p.now);
    if (!found) throw NotFound("No such show event.");
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    return cacheable(call, p, presentBookingOptions(found.event, found.sales, p, routes, query.guests));
  },
  async getAssistantRoutes(call) {
    const p = presentation(call, call.query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const { shows, events, sales } = await showsWithUpcoming(call.app.db.knex, p);
    return cacheable(call, p, presentRoutes(shows, events, sales, p, routes, call.app.config.siteLocales));
  },
  async listAssistantKnowledge(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const items = await publishedKnowledge(call.app.db.knex, { locale: p.locale, defaultLocale: p.defaultLocale, tag: query.tag, q: query.q, limit: query.limit ?? 50 });
    return cacheable(call, p, { locale: p.locale, items });
  }
};

// server/modules/assistantCatalog/publicPolicy.ts
var policy7 = [
  { path: "/api/ai/customer-support/catalog/shows", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/ai/customer-support/catalog/events", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/ai/customer-support/catalog/availability", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/ai/customer-support/catalog/booking-options", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/ai/customer-support/catalog/routes", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/ai/customer-support/knowledge", match: "exact", methods: ["GET", "HEAD"], level: "public" }
];

// server/modules/assistantCatalog/index.ts
function record12() {
  return { tag: "assistantCatalog", handlers: handlers13, policy: policy7 };
}
__name(record12, "record");

// server/modules/booking/inputs.ts
var normalizeEmail = /* @__PURE__ */ __name((email) => email.trim().toLowerCase(), "normalizeEmail");

// server/modules/booking/models.ts
var Reservation = class extends BaseModel {
  static {
    __name(this, "Reservation");
  }
  static tableName = "reservations";
  reference;
  showEventId;
  offerId;
  customerId;
  leadId;
  guestCount;
  status;
  holdExpiresAt;
  pricePerGuestVnd;
  subtotalVnd;
  discountVnd;
  serviceChargeVnd;
  vatVnd;
  totalVnd;
  serviceChargePercent;
  vatPercent;
  bookingPath;
  experienceType;
  locale;
  accessTokenHash;
  customerNote;
  staffNotes;
  tableId;
  analyticsSessionId;
  analyticsDistinctId;
  analyticsLocalSessionId;
  promoCode;
  voucherCode;
  referralCode;
  referralLinkSlug;
  referralPartnerSlug;
  confirmedAt;
  checkedInAt;
  expiredAt;
  cancelledAt;
  cancellationReason;
  cancelledBy;
  checkInTokenHash;
  confirmedBy;
  noShowAt;
  promoDiscountVnd;
  referralDiscountVnd;
  voucherCreditVnd;
  referralPartnerId;
  referralCodeId;
  referralLinkId;
  contactHonorific;
  contactName;
  contactEmail;
  contactPhone;
  accessTokenSealed;
  checkInTokenSealed;
};
var SealingKey = class extends RecordModel {
  static {
    __name(this, "SealingKey");
  }
  static tableName = "sealing_keys";
  static get idColumn() {
    return "purpose";
  }
  purpose;
  secret;
  createdAt;
};

// server/modules/booking/status.ts
function statusAt(reservation, now) {
  if (reservation.status === "HELD" && reservation.holdExpiresAt && new Date(reservation.holdExpiresAt) <= now) return "EXPIRED";
  return reservation.status;
}
__name(statusAt, "statusAt");
var cancellableUntil = /* @__PURE__ */ __name((startsAt, windowHours) => new Date(new Date(startsAt).getTime() - windowHours * 36e5), "cancellableUntil");

// server/modules/booking/tokens.ts
import { createCipheriv, createDecipheriv, createHash as createHash9, randomBytes as randomBytes2, randomInt, timingSafeEqual as timingSafeEqual3 } from "node:crypto";
var newAccessToken = /* @__PURE__ */ __name(() => randomBytes2(32).toString("base64url"), "newAccessToken");
var newLeadReference = /* @__PURE__ */ __name(() => `L${randomBytes2(24).toString("base64url")}`, "newLeadReference");
var digest3 = /* @__PURE__ */ __name((secret) => createHash9("sha256").update(secret, "utf8").digest(), "digest");
function tokenMatches(presented, stored) {
  if (!presented || !stored || stored.length !== 32) return false;
  return timingSafeEqual3(digest3(presented), stored);
}
__name(tokenMatches, "tokenMatches");
var REFERENCE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
function newReservationReference() {
  let code = "";
  for (let i = 0; i < 6; i++) code += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `VN-${code}`;
}
__name(newReservationReference, "newReservationReference");
function normalizeReference(raw4) {
  const value = raw4.trim().toUpperCase();
  return /^VN-[0-9A-Z]{6}$/.test(value) ? value : void 0;
}
__name(normalizeReference, "normalizeReference");
async function databaseKey(knex, purpose) {
  const existing = await SealingKey.query(knex).findById(purpose);
  if (existing) return Buffer.from(existing.secret);
  await SealingKey.query(knex).insert({ purpose, secret: randomBytes2(32) }).onConflict("purpose").ignore();
  const made = await SealingKey.query(knex).findById(purpose);
  return Buffer.from(made.secret);
}
__name(databaseKey, "databaseKey");
var RESERVATION_SECRETS = "reservation-secrets";
async function sealSecret(knex, plaintext) {
  const key = await databaseKey(knex, RESERVATION_SECRETS);
  const iv = randomBytes2(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}
__name(sealSecret, "sealSecret");
async function openSecret(knex, sealed) {
  if (!sealed) return void 0;
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body || iv.length !== 12 || tag.length !== 16) return void 0;
  try {
    const decipher = createDecipheriv("aes-256-gcm", await databaseKey(knex, RESERVATION_SECRETS), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return void 0;
  }
}
__name(openSecret, "openSecret");

// server/modules/booking/queries.ts
var camelKey = /* @__PURE__ */ __name((key) => key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()), "camelKey");
function camelRow(row) {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [camelKey(key), value]));
}
__name(camelRow, "camelRow");
async function bookingRules(knex) {
  const setup2 = await knex("commercial_setup").where({ id: 1 }).first();
  return {
    holdMinutes: Number(setup2.hold_minutes),
    bookingCutoffMinutes: Number(setup2.booking_cutoff_minutes),
    cancellationWindowHours: Number(setup2.cancellation_window_hours),
    serviceChargePercent: Number(setup2.service_charge_percent),
    vatPercent: Number(setup2.vat_percent)
  };
}
__name(bookingRules, "bookingRules");
async function cancellationWindowHours(knex) {
  const setup2 = await knex("commercial_setup").where({ id: 1 }).first("cancellation_window_hours");
  return Number(setup2.cancellation_window_hours);
}
__name(cancellationWindowHours, "cancellationWindowHours");
async function lockEventBySlug(trx, slug) {
  const { rows: rows2 } = await trx.raw(
    `select e.id, e.show_id, e.slug, e.starts_at, e.doors_at, e.capacity, e.sales_open, e.status, s.status as show_status,
            s.slug as show_slug, s.code as show_code, s.title as show_title
       from show_events e join shows s on s.id = e.show_id
      where e.slug = ?
      for update of e`,
    [slug]
  );
  return rows2[0] ? camelRow(rows2[0]) : void 0;
}
__name(lockEventBySlug, "lockEventBySlug");
async function holdOutlookRow(knex, slug, offerCode, now) {
  const row = await knex("show_events as e").join("shows as s", "s.id", "e.show_id").crossJoin(knex.raw("commercial_setup as c")).leftJoin("offers as o", (join) => join.on("o.code", "=", knex.raw("?", [offerCode]))).where("e.slug", slug).andWhere("c.id", 1).first(
    "e.id",
    "e.show_id",
    "e.starts_at",
    "e.capacity",
    "e.sales_open",
    "e.status",
    "s.status as show_status",
    knex.raw("? as seats_taken", [seatsTakenSql(knex, "e.id", now)]),
    "c.booking_cutoff_minutes",
    "o.id as offer_id",
    "o.show_id as offer_show_id",
    "o.status as offer_status",
    "o.min_guests as offer_min_guests",
    "o.max_guests as offer_max_guests",
    "o.sales_starts_at as offer_sales_starts_at",
    "o.sales_ends_at as offer_sales_ends_at"
  );
  return row ? camelRow(row) : void 0;
}
__name(holdOutlookRow, "holdOutlookRow");
async function lockShowEvent(trx, id) {
  await trx("show_events").where({ id }).forUpdate().first("id");
}
__name(lockShowEvent, "lockShowEvent");
async function eventCapacity(trx, id) {
  const event2 = await trx("show_events").where({ id }).first("capacity");
  return event2.capacity;
}
__name(eventCapacity, "eventCapacity");
async function eventStartsAt(trx, id) {
  const event2 = await trx("show_events").where({ id }).first("starts_at");
  return event2.starts_at;
}
__name(eventStartsAt, "eventStartsAt");
async function offerByCode(trx, code) {
  const row = await trx("offers").where({ code }).first();
  return row ? camelRow(row) : void 0;
}
__name(offerByCode, "offerByCode");
async function seatsTakenOf(knex, eventId, now) {
  const row = await knex("show_events as e").where("e.id", eventId).first(knex.raw("? as seats_taken", [seatsTakenSql(knex, "e.id", now)]));
  return Number(row?.seats_taken ?? 0);
}
__name(seatsTakenOf, "seatsTakenOf");
async function upsertCustomerByEmail(trx, contact, source) {
  const { email } = contact;
  const values = [contact.honorific, contact.name, email, normalizeEmail(email), contact.phone, contact.locale];
  const onConflict = source === "staff" ? `do update set
           name = excluded.name,
           email = excluded.email,
           honorific = coalesce(excluded.honorific, customers.honorific),
           phone = coalesce(excluded.phone, customers.phone),
           locale = coalesce(excluded.locale, customers.locale),
           updated_at = now()` : "do nothing";
  const { rows: rows2 } = await trx.raw(
    `insert into customers (honorific, name, email, email_normalized, phone, locale)
     values (?, ?, ?, ?, ?, ?)
     on conflict (email_normalized) where not is_deleted ${onConflict}
     returning id`,
    values
  );
  const customerId = rows2[0]?.id ?? (await trx("customers").where({ email_normalized: normalizeEmail(email), is_deleted: false }).first("id")).id;
  await trx.raw(
    `insert into customer_emails (customer_id, email, email_normalized) values (?, ?, ?)
     on conflict (customer_id, email_normalized) do update set last_seen_at = now()${source === "staff" ? ", email = excluded.email" : ""}`,
    [customerId, email, normalizeEmail(email)]
  );
  return customerId;
}
__name(upsertCustomerByEmail, "upsertCustomerByEmail");
async function insertLead(trx, lead) {
  await trx("customer_leads").insert({
    customer_id: lead.customerId,
    honorific: lead.honorific,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    locale: lead.locale,
    reference_hash: lead.referenceHash,
    show_event_id: lead.showEventId,
    booking_path: lead.bookingPath,
    guest_count: lead.guestCount,
    experience_type: lead.experienceType,
    analytics_session_id: lead.analyticsSessionId,
    analytics_distinct_id: lead.analyticsDistinctId,
    analytics_local_session_id: lead.analyticsLocalSessionId,
    expires_at: lead.expiresAt
  });
}
__name(insertLead, "insertLead");
async function showEventIdBySlug(trx, slug) {
  const event2 = await trx("show_events").where({ slug }).first("id");
  return event2?.id;
}
__name(showEventIdBySlug, "showEventIdBySlug");
async function liveLead(trx, reference, now) {
  const row = await trx("customer_leads as l").join("customers as c", "c.id", "l.customer_id").where("l.reference_hash", digest3(reference)).andWhere("l.expires_at", ">", now).andWhere("c.is_deleted", false).first("l.id", "l.customer_id", "l.locale", "l.honorific", "l.name", "l.email", "l.phone");
  return row ? camelRow(row) : void 0;
}
__name(liveLead, "liveLead");
async function referenceTaken(trx, reference) {
  return Boolean(await Reservation.query(trx).where("reference", reference).first().select("id"));
}
__name(referenceTaken, "referenceTaken");
async function lockedReservation(trx, id) {
  const reservation = await Reservation.query(trx).findById(id).forUpdate();
  if (!reservation) throw NotFound("No such reservation.");
  return reservation;
}
__name(lockedReservation, "lockedReservation");
async function expireHeldUntil(trx, now) {
  const expired = await trx("reservations").where("status", "HELD").andWhere("hold_expires_at", "<=", now).update({ status: "EXPIRED", expired_at: now, updated_at: now }).returning(["id"]);
  return expired.map((row) => row.id);
}
__name(expireHeldUntil, "expireHeldUntil");
function reservationQuery(knex) {
  return knex("reservations as r").join("show_events as e", "e.id", "r.show_event_id").join("shows as s", "s.id", "e.show_id").join("offers as o", "o.id", "r.offer_id").select(
    "r.*",
    "e.slug as event_slug",
    "e.starts_at as event_starts_at",
    "e.doors_at as event_doors_at",
    "e.status as event_status",
    "s.slug as show_slug",
    "s.code as show_code",
    "s.title as show_title",
    "o.code as offer_code",
    "o.name as offer_name"
  );
}
__name(reservationQuery, "reservationQuery");
async function reservationDetails(knex, id) {
  return camelRow(await reservationQuery(knex).where("r.id", id).first());
}
__name(reservationDetails, "reservationDetails");
var DUMMY_HASH = digest3("no reservation");
async function openedByToken(knex, rawReference, token2) {
  const reference = normalizeReference(rawReference);
  const row = reference ? await reservationQuery(knex).where("r.reference", reference).first() : void 0;
  const ok3 = tokenMatches(token2, row?.access_token_hash ?? DUMMY_HASH);
  return row && ok3 ? row : void 0;
}
__name(openedByToken, "openedByToken");
async function guestReservation(knex, rawReference, token2) {
  const row = await openedByToken(knex, rawReference, token2);
  return row ? camelRow(row) : void 0;
}
__name(guestReservation, "guestReservation");
async function guestTicketToken(knex, reservation) {
  if (reservation.status !== "CONFIRMED" && reservation.status !== "CHECKED_IN") {
    throw Conflict("no_ticket", `A ${statusAt(reservation, /* @__PURE__ */ new Date()).toLowerCase().replace("_", "-")} reservation has no ticket; it has one once it is confirmed.`);
  }
  const token2 = await openSecret(knex, reservation.checkInTokenSealed);
  if (!token2) throw Conflict("ticket_unavailable", "This ticket cannot be shown again here; its QR code is in the confirmation e-mail.");
  return token2;
}
__name(guestTicketToken, "guestTicketToken");
var NO_MONEY = Object.freeze({ payments: [], refunds: [] });
async function guestMoney(knex, reservationId) {
  const [payments, refunds] = await Promise.all([
    knex("payments").where("reservation_id", reservationId).orderBy([{ column: "created_at" }, { column: "id" }]).select("gateway", "status", "amount_vnd", "refunded_vnd", "created_at", "succeeded_at"),
    knex("refunds as f").join("payments as p", "p.id", "f.payment_id").where("p.reservation_id", reservationId).orderBy([{ column: "f.created_at" }, { column: "f.id" }]).select("f.amount_vnd", "f.status", "f.created_at", "f.completed_at")
  ]);
  return { payments: payments.map((row) => camelRow(row)), refunds: refunds.map((row) => camelRow(row)) };
}
__name(guestMoney, "guestMoney");
async function reservationEventRow(knex, reservationId) {
  const row = await knex("reservations as r").join("show_events as e", "e.id", "r.show_event_id").join("shows as s", "s.id", "e.show_id").leftJoin("referral_partners as rp", "rp.id", "r.referral_partner_id").leftJoin("referral_links as rl", "rl.id", "r.referral_link_id").where("r.id", reservationId).first("r.reference", "r.total_vnd", "r.guest_count", "r.booking_path", "r.referral_code", "r.referral_discount_vnd", "rp.type as referral_partner_type", "rl.channel as referral_channel", "r.analytics_distinct_id", "s.code as show_code", "s.slug as show_slug", "e.starts_at");
  return row ? camelRow(row) : void 0;
}
__name(reservationEventRow, "reservationEventRow");

// server/modules/booking/events.ts
var BUSINESS_EVENTS = {
  reservationCreated: "reservation created",
  checkoutStarted: "checkout started",
  paymentCompleted: "payment completed",
  paymentFailed: "payment failed",
  reservationCancelled: "reservation cancelled",
  refundProcessed: "refund processed",
  inquirySubmitted: "inquiry submitted",
  operatorCheckInCompleted: "operator check-in completed"
};
async function reservationEventSubject(knex, reservationId, timezone2) {
  const row = await reservationEventRow(knex, reservationId);
  if (!row) return void 0;
  const local = toLocal(new Date(row.startsAt), timezone2);
  const properties = {
    reservation_reference: row.reference,
    show_code: row.showCode,
    show_slug: row.showSlug,
    event_date: local.date,
    event_time: local.time,
    amount_vnd: row.totalVnd,
    booking_path: row.bookingPath,
    guest_count: row.guestCount,
    has_referral: row.referralCode !== null,
    ...row.referralCode !== null ? { referral_code: row.referralCode } : {},
    ...row.referralPartnerType !== null ? { referral_partner_type: row.referralPartnerType, referral_discount_vnd: row.referralDiscountVnd } : {},
    ...row.referralChannel !== null ? { referral_channel: row.referralChannel } : {}
  };
  return { distinctId: row.analyticsDistinctId ?? `reservation:${row.reference}`, properties };
}
__name(reservationEventSubject, "reservationEventSubject");
async function captureBusinessEvent(app, event2, reservationId, extra = {}) {
  app.venueMetrics?.businessEvent(event2, extra);
  if (!app.analytics.enabled) return;
  const subject = await reservationEventSubject(app.db.knex, reservationId, app.config.venueTimezone);
  if (!subject) return;
  app.analytics.capture({ distinctId: subject.distinctId, event: event2, properties: { ...subject.properties, ...extra } });
}
__name(captureBusinessEvent, "captureBusinessEvent");

// server/domain/actors.ts
function staffActor(auth) {
  return { role: auth.role, authSource: auth.authSource, accountId: auth.identity.accountId ?? null, apiKeyId: auth.identity.apiKeyId ?? null };
}
__name(staffActor, "staffActor");
var actorLabel = /* @__PURE__ */ __name((actor) => typeof actor === "string" ? actor : actor.accountId ?? (actor.apiKeyId ? `api-key:${actor.apiKeyId}` : "superuser-token"), "actorLabel");

// server/modules/booking/lifecycle.ts
var TRANSITIONS2 = Object.freeze({
  HELD: ["CONFIRMED", "EXPIRED", "CANCELLED"],
  CONFIRMED: ["CHECKED_IN", "CANCELLED", "NO_SHOW"],
  CHECKED_IN: [],
  CANCELLED: [],
  EXPIRED: [],
  NO_SHOW: []
});
var canTransition2 = /* @__PURE__ */ __name((from, to) => TRANSITIONS2[from].includes(to), "canTransition");
function illegalTransition(from, to) {
  return Conflict("illegal_transition", `A ${from.toLowerCase().replace("_", "-")} reservation cannot become ${to.toLowerCase().replace("_", "-")}.`);
}
__name(illegalTransition, "illegalTransition");
function assertTransition(from, to) {
  if (!canTransition2(from, to)) throw illegalTransition(from, to);
}
__name(assertTransition, "assertTransition");
async function inTransition(app, actor, work, now = /* @__PURE__ */ new Date()) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, (uow) => work({ ...uow, app, actor }), now);
}
__name(inTransition, "inTransition");
var STATUS_EVENTS = { CONFIRMED: "reservation.confirmed", CANCELLED: "reservation.cancelled", NO_SHOW: "reservation.noShow" };
async function published(ctx, change) {
  await publish(ctx, STATUS_EVENTS[change.to], change);
}
__name(published, "published");
async function lockEventThenReservation(trx, id) {
  const found = await Reservation.query(trx).findById(id).select("show_event_id");
  if (!found) throw NotFound("No such reservation.");
  await lockShowEvent(trx, found.showEventId);
  return lockedReservation(trx, id);
}
__name(lockEventThenReservation, "lockEventThenReservation");
async function confirmReservation(ctx, id, options) {
  const row = await lockEventThenReservation(ctx.trx, id);
  if (row.status === "CONFIRMED" || row.status === "CHECKED_IN") return { changed: false, status: row.status };
  const from = statusAt(row, ctx.now);
  if (from === "EXPIRED" && options.by === "PAYMENT") {
    const capacity = await eventCapacity(ctx.trx, row.showEventId);
    const taken = await seatsTakenOf(ctx.trx, row.showEventId, ctx.now);
    if (capacity - taken < row.guestCount) throw Conflict("seats_released", "The hold ran out and its seats have been taken.");
  } else {
    assertTransition(from, "CONFIRMED");
  }
  const checkInToken = newAccessToken();
  await Reservation.query(ctx.trx).findById(id).patch({
    status: "CONFIRMED",
    confirmedAt: ctx.now,
    confirmedBy: options.by,
    holdExpiresAt: null,
    expiredAt: null,
    checkInTokenHash: digest3(checkInToken),
    // Kept sealed too, so the guest's own view can show the ticket's QR again (issue 21 §3).
    checkInTokenSealed: await sealSecret(ctx.trx, checkInToken),
    updatedAt: ctx.now
  });
  await queueConfirmationEmail2(ctx, id, checkInToken);
  await scheduleReminder(ctx, id);
  await published(ctx, { reservationId: id, from: row.status, to: "CONFIRMED", reason: null });
  return { changed: true, status: "CONFIRMED", checkInToken };
}
__name(confirmReservation, "confirmReservation");
async function queueConfirmationEmail2(ctx, id, checkInToken) {
  await queueConfirmationEmail(ctx, id, checkInToken);
}
__name(queueConfirmationEmail2, "queueConfirmationEmail");
async function cancelReservation(ctx, id, options) {
  const row = await lockedReservation(ctx.trx, id);
  if (row.status === "CANCELLED") return { changed: false, from: row.status };
  const from = statusAt(row, ctx.now);
  if (!canTransition2(from, "CANCELLED")) throw Conflict("reservation_not_cancellable", `A ${from.toLowerCase().replace("_", "-")} reservation cannot be cancelled.`);
  await Reservation.query(ctx.trx).findById(id).patch({ status: "CANCELLED", cancelledAt: ctx.now, cancelledBy: options.by, cancellationReason: options.reason ?? null, holdExpiresAt: null, updatedAt: ctx.now });
  const notifyGuest = options.by !== "SYSTEM" && options.notifyGuest !== false;
  await publish(ctx, "reservation.cancelled", { reservationId: id, from, to: "CANCELLED", reason: options.reason ?? null, by: options.by, notifyGuest });
  return { changed: true, from };
}
__name(cancelReservation, "cancelReservation");
async function markNoShow(ctx, id) {
  const row = await lockedReservation(ctx.trx, id);
  if (row.status === "NO_SHOW") return { changed: false };
  assertTransition(statusAt(row, ctx.now), "NO_SHOW");
  if (new Date(await eventStartsAt(ctx.trx, row.showEventId)) > ctx.now) throw Conflict("event_not_started", "A guest can be marked a no-show only once the event has started.");
  await Reservation.query(ctx.trx).findById(id).patch({ status: "NO_SHOW", noShowAt: ctx.now, updatedAt: ctx.now });
  await published(ctx, { reservationId: id, from: "CONFIRMED", to: "NO_SHOW", reason: null });
  return { changed: true };
}
__name(markNoShow, "markNoShow");

// server/modules/booking/commands/cancelPublicReservation.ts
async function cancelPublicReservation(app, rawReference, token2, reason, now = /* @__PURE__ */ new Date()) {
  const found = await guestReservation(app.db.knex, rawReference, token2);
  if (!found) return void 0;
  await inTransition(
    app,
    "GUEST",
    async (ctx) => {
      if (found.status !== "CANCELLED") {
        if (now >= cancellableUntil(found.eventStartsAt, await cancellationWindowHours(ctx.trx))) {
          throw Conflict("cancellation_window_closed", "The cancellation window for this event has closed.");
        }
      }
      const { changed } = await cancelReservation(ctx, found.id, { by: "GUEST", reason: reason ?? null });
      if (changed) ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.reservationCancelled, found.id, { cancelled_by: "GUEST" }));
    },
    now
  );
  return reservationDetails(app.db.knex, found.id);
}
__name(cancelPublicReservation, "cancelPublicReservation");

// server/modules/analytics/meta.ts
import { createHash as createHash11 } from "node:crypto";

// server/platform/integrations/metaCapi.ts
import { createHash as createHash10 } from "node:crypto";
var metaCapiOptions = /* @__PURE__ */ __name((config) => ({
  graphApiUrl: config.metaGraphApiUrl,
  version: config.metaGraphApiVersion,
  pixelId: config.metaPixelId,
  accessToken: config.metaCapiAccessToken,
  testEventCode: config.metaTestEventCode,
  timeoutMs: config.metaCapiTimeoutMs
}), "metaCapiOptions");
var isMetaConfigured = /* @__PURE__ */ __name((options) => Boolean(options.pixelId && options.accessToken), "isMetaConfigured");
var DEFAULT_COUNTRY_CODE = "84";
var sha2562 = /* @__PURE__ */ __name((value) => createHash10("sha256").update(value, "utf8").digest("hex"), "sha256");
function normalizeEmail2(email) {
  return email.trim().toLowerCase();
}
__name(normalizeEmail2, "normalizeEmail");
function normalizePhone(phone, countryCode = DEFAULT_COUNTRY_CODE) {
  const trimmed = phone.trim();
  let digits = trimmed.replace(/\D/g, "");
  if (!digits) return "";
  if (trimmed.startsWith("+")) return digits.replace(/^0+/, "");
  if (digits.startsWith("00")) return digits.slice(2).replace(/^0+/, "");
  if (digits.startsWith("0")) return countryCode + digits.replace(/^0+/, "");
  if (digits.startsWith(countryCode) && digits.length > 10) return digits;
  return countryCode + digits;
}
__name(normalizePhone, "normalizePhone");
function normalizeName(name) {
  return name.normalize("NFC").trim().toLowerCase().replace(/[\p{P}\p{S}]/gu, "").replace(/\s+/g, " ");
}
__name(normalizeName, "normalizeName");
function buildUserData(contact, client = {}) {
  const user = {};
  const put = /* @__PURE__ */ __name((key, normalized) => {
    if (normalized) user[key] = [sha2562(normalized)];
  }, "put");
  if (contact.email) put("em", normalizeEmail2(contact.email));
  if (contact.phone) put("ph", normalizePhone(contact.phone));
  if (contact.firstName) put("fn", normalizeName(contact.firstName));
  if (contact.lastName) put("ln", normalizeName(contact.lastName));
  if (contact.externalId) put("external_id", contact.externalId.trim());
  if (client.ip) user.client_ip_address = client.ip;
  if (client.userAgent) user.client_user_agent = client.userAgent;
  if (client.fbp) user.fbp = client.fbp;
  if (client.fbc) user.fbc = client.fbc;
  return user;
}
__name(buildUserData, "buildUserData");
var eventsUrl = /* @__PURE__ */ __name((options) => `${options.graphApiUrl}/${options.version}/${encodeURIComponent(options.pixelId ?? "")}/events`, "eventsUrl");
async function sendMetaEvents(options, events, fetchImpl = fetch) {
  if (!isMetaConfigured(options)) return { ok: false, retryable: false, httpStatus: null, fbtraceId: null, errorMessage: "not configured" };
  const body = { data: events, access_token: options.accessToken };
  if (options.testEventCode) body.test_event_code = options.testEventCode;
  let response;
  let text;
  try {
    response = await fetchImpl(eventsUrl(options), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs)
    });
    text = await response.text();
  } catch (err) {
    const timedOut = err.name === "TimeoutError" || err.name === "AbortError";
    return { ok: false, retryable: true, httpStatus: null, fbtraceId: null, errorMessage: timedOut ? `no answer within ${options.timeoutMs} ms` : `network: ${err.message}` };
  }
  let parsed = void 0;
  try {
    parsed = JSON.parse(text);
  } catch {
  }
  if (response.ok) {
    if (!parsed || typeof parsed !== "object") return { ok: false, retryable: true, httpStatus: response.status, fbtraceId: null, errorMessage: "the answer is not JSON" };
    return {
      ok: true,
      httpStatus: response.status,
      eventsReceived: Number.isInteger(parsed.events_received) ? parsed.events_received : null,
      fbtraceId: typeof parsed.fbtrace_id === "string" ? parsed.fbtrace_id.slice(0, 200) : null
    };
  }
  const error = parsed?.error;
  const message = typeof error?.message === "string" ? error.message : `HTTP ${response.status}`;
  return {
    ok: false,
    retryable: response.status >= 500,
    httpStatus: response.status,
    fbtraceId: typeof error?.fbtrace_id === "string" ? error.fbtrace_id.slice(0, 200) : typeof parsed?.fbtrace_id === "string" ? parsed.fbtrace_id.slice(0, 200) : null,
    errorMessage: message.slice(0, 1e3)
  };
}
__name(sendMetaEvents, "sendMetaEvents");

// server/modules/analytics/models.ts
var MetaCapiEvent = class extends RecordModel {
  static {
    __name(this, "MetaCapiEvent");
  }
  static tableName = "meta_capi_events";
  /** `bigserial`: a string from pg. */
  id;
  eventName;
  eventId;
  source;
  status;
  httpStatus;
  fbtraceId;
  eventsReceived;
  errorMessage;
  attempt;
  startedAt;
  finishedAt;
  createdAt;
};
var MetaCapiOutboxEntry = class extends RecordModel {
  static {
    __name(this, "MetaCapiOutboxEntry");
  }
  static tableName = "meta_capi_outbox";
  static jsonAttributes = ["payload"];
  id;
  eventName;
  eventId;
  source;
  /** Meta's event object (`data[0]`). */
  payload;
  createdAt;
};

// server/modules/analytics/commands/queueMetaEvent.ts
async function queueMetaEvent(app, input, trx) {
  if (!metaEnabled(app)) return false;
  const write = /* @__PURE__ */ __name(async (t) => {
    const row = await MetaCapiOutboxEntry.query(t).insert({ eventName: input.eventName, eventId: input.eventId, source: input.source, payload: metaEvent(input) });
    await app.jobs.enqueue(META_SEND_QUEUE, { outboxId: row.id }, { trx: t });
  }, "write");
  if (trx) await write(trx);
  else await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, ({ trx: t }) => write(t));
  return true;
}
__name(queueMetaEvent, "queueMetaEvent");

// server/modules/analytics/queries.ts
var MAX_RANGE_DAYS2 = 366;
var MIN_GROUP_SIZE = 5;
var KEPT = `('CONFIRMED', 'CHECKED_IN', 'NO_SHOW')`;
var PAID = `('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED')`;
var STATUSES = ["HELD", "CONFIRMED", "CHECKED_IN", "CANCELLED", "EXPIRED", "NO_SHOW"];
function resolveRange(query, timezone2, now = /* @__PURE__ */ new Date()) {
  const to = query.to ?? localToday(timezone2, now);
  const from = query.from ?? addDays(to, -29);
  let bounds;
  try {
    bounds = localDateRange(from, to, timezone2);
  } catch {
    throw Unprocessable("invalid_range", "from and to must be calendar dates.", [{ path: "query/from", message: "not a calendar date", code: "invalid_range" }]);
  }
  if (from > to) throw Unprocessable("invalid_range", "from must not be after to.", [{ path: "query/from", message: "after to", code: "invalid_range" }]);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 864e5) + 1;
  if (days > MAX_RANGE_DAYS2) {
    throw Unprocessable("invalid_range", `A range covers at most ${MAX_RANGE_DAYS2} days.`, [{ path: "query/from", message: `more than ${MAX_RANGE_DAYS2} days before to`, code: "invalid_range" }]);
  }
  return { from, to, timezone: timezone2, ...bounds };
}
__name(resolveRange, "resolveRange");
var num = /* @__PURE__ */ __name((value) => value == null ? 0 : Number(value), "num");
var rangeOut = /* @__PURE__ */ __name((range) => ({ from: range.from, to: range.to, timezone: range.timezone }), "rangeOut");
var PAID_PAYMENTS = `paid as (
    select b.*, p.gateway, p.amount_vnd::bigint as paid, p.refunded_vnd::bigint as refunded
      from booked b join payments p on p.reservation_id = b.id
     where p.status in ${PAID}
  )`;
async function rows(knex, sql, bindings) {
  const result = await knex.raw(sql, bindings);
  return result.rows;
}
__name(rows, "rows");
async function readAggregate(knex, read) {
  return knex.transaction(
    async (trx) => {
      await aggregateSettings(trx);
      return read(trx);
    },
    { readOnly: true }
  );
}
__name(readAggregate, "readAggregate");
async function aggregateSettings(trx) {
  await trx.raw(`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
}
__name(aggregateSettings, "aggregateSettings");
var CONCURRENT_AGGREGATES = 2;
var gates = /* @__PURE__ */ new WeakMap();
async function gated(knex, run) {
  let gate = gates.get(knex);
  if (!gate) gates.set(knex, gate = { active: 0, waiting: [] });
  if (gate.active >= CONCURRENT_AGGREGATES) await new Promise((resolve) => gate.waiting.push(resolve));
  else gate.active++;
  try {
    return await run();
  } finally {
    const next = gate.waiting.shift();
    if (next) next();
    else gate.active--;
  }
}
__name(gated, "gated");
async function readConcurrently(db, prepare, reads) {
  const knex = db.knex;
  if (db.kind !== "postgres") {
    return readAggregate(knex, async (trx) => {
      const prepared2 = await prepare(trx);
      const out = [];
      for (const read of reads(prepared2)) out.push(await read(trx));
      return [prepared2, out];
    });
  }
  const options = { isolationLevel: "repeatable read", readOnly: true };
  return gated(
    knex,
    () => knex.transaction(async (trx) => {
      await aggregateSettings(trx);
      const prepared2 = await prepare(trx);
      const [first, ...rest] = reads(prepared2);
      const { rows: rows2 } = await trx.raw("select pg_export_snapshot() as snapshot");
      const snapshot = rows2[0].snapshot;
      const settled = await Promise.allSettled([
        first(trx),
        ...rest.map(
          (read) => knex.transaction(async (other) => {
            if (!/^[0-9A-F-]+$/i.test(snapshot)) throw new Error(`unexpected snapshot id ${snapshot}`);
            await other.raw(`set transaction snapshot '${snapshot}'`);
            await aggregateSettings(other);
            return read(other);
          }, options)
        )
      ]);
      const failed = settled.find((result) => result.status === "rejected");
      if (failed) throw failed.reason;
      return [prepared2, settled.map((result) => result.value)];
    }, options)
  );
}
__name(readConcurrently, "readConcurrently");
async function summary(db, range) {
  const booked = `booked as (
    select id, status, guest_count, confirmed_at, checked_in_at, (created_at at time zone ?)::date as day
      from reservations where created_at >= ? and created_at < ?
  )`;
  const base = [range.timezone, range.start, range.end];
  const [, [byDayAndStatus, money, [leads]]] = await readConcurrently(db, async () => null, () => [
    (trx) => rows(
      trx,
      `with ${booked}
         select to_char(day, 'YYYY-MM-DD') as day, status, count(*) as n, sum(guest_count) as guests,
                count(confirmed_at) as confirmed, count(checked_in_at) as checked_in
           from booked group by day, status`,
      base
    ),
    // Money by day and by gateway in one pass over the paid payments (grouping sets).
    (trx) => rows(
      trx,
      `with ${booked}, ${PAID_PAYMENTS}
         select to_char(day, 'YYYY-MM-DD') as day, gateway, grouping(day) as by_gateway, count(*) as n, sum(paid) as paid, sum(refunded) as refunded
           from paid group by grouping sets ((day), (gateway))`,
      base
    ),
    (trx) => rows(trx, "select count(*) as n from customer_leads where created_at >= ? and created_at < ?", [range.start, range.end])
  ]);
  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  const days = /* @__PURE__ */ new Map();
  for (let day2 = range.from; day2 <= range.to; day2 = addDays(day2, 1)) days.set(day2, { date: day2, holds: 0, bookings: 0, guests: 0, netRevenueVnd: 0 });
  let reservations = 0;
  let bookings = 0;
  let guests = 0;
  let confirmed = 0;
  let checkedIn = 0;
  for (const row of byDayAndStatus) {
    const n = num(row.n);
    const kept = row.status === "CONFIRMED" || row.status === "CHECKED_IN" || row.status === "NO_SHOW";
    reservations += n;
    byStatus[row.status] += n;
    confirmed += num(row.confirmed);
    checkedIn += num(row.checked_in);
    const day2 = days.get(row.day);
    if (day2) day2.holds += n;
    if (kept) {
      bookings += n;
      guests += num(row.guests);
      if (day2) {
        day2.bookings += n;
        day2.guests += num(row.guests);
      }
    }
  }
  let paid = 0;
  let refunded = 0;
  const gateways = [];
  for (const row of money) {
    if (Number(row.by_gateway) === 1) {
      gateways.push({
        gateway: row.gateway,
        payments: num(row.n),
        paidVnd: num(row.paid),
        refundedVnd: num(row.refunded),
        netVnd: num(row.paid) - num(row.refunded)
      });
    } else {
      paid += num(row.paid);
      refunded += num(row.refunded);
      const day2 = days.get(row.day);
      if (day2) day2.netRevenueVnd += num(row.paid) - num(row.refunded);
    }
  }
  gateways.sort((a, b) => a.gateway.localeCompare(b.gateway));
  return {
    range: rangeOut(range),
    reservations,
    byStatus,
    bookings,
    guests,
    averagePartySize: bookings ? Math.round(guests / bookings * 100) / 100 : null,
    revenue: { paidVnd: paid, refundedVnd: refunded, netVnd: paid - refunded },
    funnel: { leads: num(leads?.n), holds: reservations, confirmed, checkedIn },
    cancellations: byStatus.CANCELLED,
    noShows: byStatus.NO_SHOW,
    gateways,
    daily: [...days.values()]
  };
}
__name(summary, "summary");
function titleIn(title, locale) {
  const map = typeof title === "string" ? JSON.parse(title) : title;
  if (!map) return "";
  return map[locale] ?? Object.values(map)[0] ?? "";
}
__name(titleIn, "titleIn");
async function topShows(knex, range, sort, limit, locale) {
  const order = { revenue: "revenue", guests: "guests", bookings: "bookings" }[sort];
  const result = await rows(
    knex,
    `with booked as (
       select r.id, r.status, r.guest_count, e.show_id
         from reservations r join show_events e on e.id = r.show_event_id
        where r.created_at >= ? and r.created_at < ?
     ), ${PAID_PAYMENTS},
     counts as (
       select show_id, count(*) filter (where status in ${KEPT}) as bookings,
              coalesce(sum(guest_count) filter (where status in ${KEPT}), 0) as guests
         from booked group by show_id
     ),
     money as (select show_id, sum(paid - refunded) as revenue from paid group by show_id),
     per_show as (
       select c.show_id, c.bookings, c.guests, coalesce(m.revenue, 0) as revenue
         from counts c left join money m on m.show_id = c.show_id
     )
     select s.id, s.code, s.slug, s.title, p.bookings, p.guests, p.revenue
       from per_show p join shows s on s.id = p.show_id
      order by p.${order} desc, s.code
      limit ?`,
    [range.start, range.end, limit]
  );
  return {
    range: rangeOut(range),
    sort,
    items: result.map((row) => ({
      showId: row.id,
      code: row.code,
      slug: row.slug,
      title: titleIn(row.title, locale),
      bookings: num(row.bookings),
      guests: num(row.guests),
      revenueVnd: num(row.revenue)
    }))
  };
}
__name(topShows, "topShows");
var isSmall = /* @__PURE__ */ __name((n) => n > 0 && n < MIN_GROUP_SIZE, "isSmall");
var shown = /* @__PURE__ */ __name((value) => ({ value, suppressed: false }), "shown");
var hidden = /* @__PURE__ */ __name(() => ({ value: null, suppressed: true }), "hidden");
function suppressParts(total, parts) {
  if (total.suppressed) return parts.map((n) => n === 0 ? shown(0) : hidden());
  const out = parts.map((n) => isSmall(n) ? hidden() : shown(n));
  while (out.filter((c) => c.suppressed).length === 1) {
    let next = -1;
    parts.forEach((n, i) => {
      if (!out[i].suppressed && n > 0 && (next < 0 || n < parts[next])) next = i;
    });
    if (next < 0) break;
    out[next] = hidden();
  }
  return out;
}
__name(suppressParts, "suppressParts");
var HISTOGRAM = ["1", "2", "3", "4", "5+"];
async function sharedAddressPeople(knex) {
  return rows(
    knex,
    `select id, person from (
       select c.id, first_value(c.id) over (partition by c.email_normalized order by c.id) as person
         from customers c where c.email_normalized in (select email_normalized from customers where is_deleted)
     ) s where id <> person`,
    []
  );
}
__name(sharedAddressPeople, "sharedAddressPeople");
async function customerIntelligence(db, range, locale) {
  const bounds = [range.start, range.end];
  const personOf = /* @__PURE__ */ __name((shared, alias) => shared.length ? {
    person: `coalesce(sh.person, ${alias}.customer_id)`,
    join: `left join (select unnest(?::uuid[]) as id, unnest(?::uuid[]) as person) sh on sh.id = ${alias}.customer_id`,
    bindings: [shared.map((s) => s.id), shared.map((s) => s.person)]
  } : { person: `${alias}.customer_id`, join: "", bindings: [] }, "personOf");
  const [, [[people], peopleRows, moneyRows]] = await readConcurrently(db, sharedAddressPeople, (shared) => {
    const inRange = personOf(shared, "r");
    const before = personOf(shared, "p");
    return [
      // Active people (a confirmed booking made in the range), how many bookings each made, and which of them
      // had one before the range (returning).
      (trx) => rows(
        trx,
        `with people as (
             select ${inRange.person} as person, count(*) as n from reservations r ${inRange.join}
              where r.created_at >= ? and r.created_at < ? and r.confirmed_at is not null group by 1
           ), returners as (
             select distinct ${before.person} as person from reservations p ${before.join}
              where p.confirmed_at is not null and p.created_at < ?
           )
           select count(*) as active, count(rt.person) as returners,
                  count(*) filter (where n = 1) as f1, count(*) filter (where n = 2) as f2, count(*) filter (where n = 3) as f3,
                  count(*) filter (where n = 4) as f4, count(*) filter (where n >= 5) as f5
             from people pe left join returners rt on rt.person = pe.person`,
        [...inRange.bindings, ...bounds, ...before.bindings, range.start]
      ),
      // People and bookings per show and per booking path, in one pass (grouping sets).
      (trx) => rows(
        trx,
        `with booked as (
             select ${inRange.person} as person, e.show_id, r.booking_path
               from reservations r join show_events e on e.id = r.show_event_id ${inRange.join}
              where r.created_at >= ? and r.created_at < ? and r.confirmed_at is not null
           )
           select show_id::text as show_id, booking_path, grouping(show_id) as by_path, count(distinct person) as v1, count(*) as v2
             from booked group by grouping sets ((show_id), (booking_path))`,
        [...inRange.bindings, ...bounds]
      ),
      // Net revenue per show and per booking path from the bookings' paid payments. A payment is made for a
      // reservation that exists, so only payments created since the range began can belong to its bookings (the
      // filter halves the payments hashed for a year).
      (trx) => rows(
        trx,
        `select e.show_id::text as show_id, r.booking_path, grouping(e.show_id) as by_path, sum(p.amount_vnd::bigint - p.refunded_vnd::bigint) as v1, 0 as v2
             from reservations r join show_events e on e.id = r.show_event_id join payments p on p.reservation_id = r.id
            where r.created_at >= ? and r.created_at < ? and r.confirmed_at is not null
              and p.status in ${PAID} and p.created_at >= ?
            group by grouping sets ((e.show_id), (r.booking_path))`,
        [...bounds, range.start]
      )
    ];
  });
  const keyOf2 = /* @__PURE__ */ __name((row2) => `${Number(row2.by_path) === 1 ? "path" : "show"}:${Number(row2.by_path) === 1 ? row2.booking_path : row2.show_id}`, "keyOf");
  const money = new Map(moneyRows.map((row2) => [keyOf2(row2), row2.v1]));
  const revenueRows = peopleRows.map((row2) => {
    const key = keyOf2(row2);
    const [kind, id] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
    return { kind, key: id, customers: row2.v1, bookings: row2.v2, revenue: money.get(key) ?? "0" };
  });
  const showIds = revenueRows.filter((row2) => row2.kind === "show").map((row2) => row2.key);
  const shows = showIds.length ? await db.knex("shows").whereIn("id", showIds).select("id", "code", "title") : [];
  const showById = new Map(shows.map((show2) => [show2.id, show2]));
  const activeN = num(people?.active);
  const returningN = num(people?.returners);
  const active = isSmall(activeN) ? hidden() : shown(activeN);
  const [newCount, returning] = suppressParts(active, [activeN - returningN, returningN]);
  const histogramN = [people?.f1, people?.f2, people?.f3, people?.f4, people?.f5].map(num);
  const repeatN = histogramN.slice(1).reduce((a, b) => a + b, 0);
  const [oneTime, repeat] = suppressParts(active, [histogramN[0], repeatN]);
  const buckets = [oneTime, ...suppressParts(repeat, histogramN.slice(1))];
  const row = /* @__PURE__ */ __name((r) => {
    const customers = num(r.customers);
    const suppressed = active.suppressed || isSmall(customers);
    return suppressed ? { customers: null, bookings: null, revenueVnd: null, suppressed: true } : { customers, bookings: num(r.bookings), revenueVnd: num(r.revenue), suppressed: false };
  }, "row");
  return {
    range: rangeOut(range),
    minimumGroupSize: MIN_GROUP_SIZE,
    customers: { active, new: newCount, returning },
    returningRate: !active.suppressed && !returning.suppressed && activeN > 0 ? Math.round(returningN / activeN * 1e4) / 1e4 : null,
    frequency: { oneTime, repeat, histogram: HISTOGRAM.map((bookings, i) => ({ bookings, customers: buckets[i] })) },
    revenueByShow: revenueRows.filter((r) => r.kind === "show").map((r) => {
      const show2 = showById.get(r.key);
      return { showId: r.key, code: show2?.code ?? "", title: titleIn(show2?.title ?? null, locale), ...row(r) };
    }).sort((a, b) => (b.revenueVnd ?? -1) - (a.revenueVnd ?? -1) || a.code.localeCompare(b.code)),
    revenueByBookingType: revenueRows.filter((r) => r.kind === "path").map((r) => ({ bookingPath: r.key, ...row(r) })).sort((a, b) => (b.revenueVnd ?? -1) - (a.revenueVnd ?? -1) || a.bookingPath.localeCompare(b.bookingPath))
  };
}
__name(customerIntelligence, "customerIntelligence");
async function purchaseFacts(trx, reservationId) {
  return trx("reservations as r").join("customers as c", "c.id", "r.customer_id").join("show_events as e", "e.id", "r.show_event_id").where("r.id", reservationId).first("r.reference", "c.email", "c.phone", "e.slug");
}
__name(purchaseFacts, "purchaseFacts");

// server/modules/analytics/commands/deliverMetaEvent.ts
async function deliverMetaEvent(app, outboxId, job, fetchImpl) {
  const knex = app.db.knex;
  const row = await MetaCapiOutboxEntry.query(knex).findById(outboxId);
  if (!row) return "gone";
  const startedAt = /* @__PURE__ */ new Date();
  const result = await sendMetaEvents(metaCapiOptions(app.config), [row.payload], fetchImpl);
  const finishedAt = /* @__PURE__ */ new Date();
  const finalAttempt = job.attempt > job.retryLimit;
  const status = result.ok ? "SENT" : result.retryable && !finalAttempt ? "RETRYING" : "FAILED";
  await inUnitOfWork({ knex, logger: app.logger }, async ({ trx }) => {
    await MetaCapiEvent.query(trx).insert({
      eventName: row.eventName,
      eventId: row.eventId,
      source: row.source,
      status,
      httpStatus: result.httpStatus,
      fbtraceId: result.fbtraceId,
      eventsReceived: result.ok ? result.eventsReceived : null,
      errorMessage: result.ok ? null : result.errorMessage,
      attempt: job.attempt,
      startedAt,
      finishedAt
    });
    if (status !== "RETRYING") await MetaCapiOutboxEntry.query(trx).deleteById(row.id);
  });
  if (result.ok) return "sent";
  if (status === "RETRYING") throw new Error(`Meta Conversions API: ${result.errorMessage} (attempt ${job.attempt}; it will be retried)`);
  if (!result.retryable) return "refused";
  throw new Error(`Meta Conversions API: ${result.errorMessage} (attempt ${job.attempt}, the last)`);
}
__name(deliverMetaEvent, "deliverMetaEvent");

// server/modules/analytics/meta.ts
var META_SEND_QUEUE = "meta.send-event";
var META_SEND_RETRY_LIMIT = 4;
var metaEnabled = /* @__PURE__ */ __name((app) => isMetaConfigured({ pixelId: app.config.metaPixelId, accessToken: app.config.metaCapiAccessToken }), "metaEnabled");
function metaEvent(input) {
  const event2 = {
    event_name: input.eventName,
    event_time: input.eventTime,
    event_id: input.eventId,
    action_source: input.actionSource,
    user_data: buildUserData(input.contact ?? {}, input.client ?? {})
  };
  if (input.eventSourceUrl) event2.event_source_url = input.eventSourceUrl;
  if (input.customData && Object.keys(input.customData).length) event2.custom_data = input.customData;
  return event2;
}
__name(metaEvent, "metaEvent");
var purchaseConversion = subscriber({
  name: "analytics.meta-purchase",
  event: "payment.captured",
  phase: "in-transaction",
  order: 10,
  async handle(payment, ctx) {
    if (!metaEnabled(ctx.app)) return;
    const reservation = await purchaseFacts(ctx.trx, payment.reservationId);
    if (!reservation) return;
    await queueMetaEvent(
      ctx.app,
      {
        eventName: "Purchase",
        eventId: reservation.reference,
        source: "SERVER",
        eventTime: Math.floor(ctx.now.getTime() / 1e3),
        actionSource: "system_generated",
        contact: { email: reservation.email, phone: reservation.phone },
        customData: { value: payment.amountVnd, currency: "VND", ...reservation.slug ? { content_ids: [reservation.slug] } : {} }
      },
      ctx.trx
    );
  }
});
async function queueLeadConversion(app, input) {
  if (!metaEnabled(app)) return;
  try {
    const eventId = `lead.${createHash11("sha256").update(input.leadReference).digest("hex").slice(0, 32)}`;
    const sourceUrl = input.sourceUrl && /^https?:\/\//i.test(input.sourceUrl) ? input.sourceUrl.slice(0, 2e3) : void 0;
    await queueMetaEvent(app, {
      eventName: "Lead",
      eventId,
      source: "SERVER",
      eventTime: Math.floor(Date.now() / 1e3),
      actionSource: sourceUrl ? "website" : "system_generated",
      eventSourceUrl: sourceUrl,
      contact: { email: input.email, phone: input.phone },
      client: { ip: input.ip, userAgent: input.userAgent.slice(0, 1e3) || void 0 }
    });
  } catch (err) {
    app.logger.error({ err }, "could not queue the Meta Lead conversion");
  }
}
__name(queueLeadConversion, "queueLeadConversion");

// server/modules/analytics/throttle.ts
function analyticsServices(platform) {
  const { config, db } = platform;
  return { metaEventLimit: new RateLimit({ name: "meta-event-address", points: config.metaEventRateLimitPerMinute, windowSeconds: 60 }, rateLimitStoreFor(db)) };
}
__name(analyticsServices, "analyticsServices");
async function throttleMetaEvent(app, ip) {
  await consumeOrThrow([[app.metaEventLimit, addressKey(ip)]], "Too many events from this address; try again later.");
}
__name(throttleMetaEvent, "throttleMetaEvent");

// server/modules/analytics/commands/sendMetaOutboundEvent.ts
var MAX_EVENT_AGE_SECONDS = 7 * 24 * 3600;
var MAX_EVENT_SKEW_SECONDS = 300;
async function sendMetaOutboundEvent(app, body, client) {
  await throttleMetaEvent(app, client.ip);
  const now = Math.floor(Date.now() / 1e3);
  const eventTime = body.eventTime ?? now;
  if (eventTime < now - MAX_EVENT_AGE_SECONDS || eventTime > now + MAX_EVENT_SKEW_SECONDS) {
    throw Unprocessable("event_time_out_of_range", "eventTime must be within the last 7 days.", [
      { path: "body/eventTime", message: "more than 7 days old or in the future", code: "event_time_out_of_range" }
    ]);
  }
  if (!metaEnabled(app)) return { eventId: body.eventId, queued: false };
  const custom = body.customData ?? {};
  const customData = {};
  if (custom.value !== void 0) {
    customData.value = custom.value;
    customData.currency = "VND";
  } else if (custom.currency) customData.currency = custom.currency;
  if (custom.contentName) customData.content_name = custom.contentName;
  if (custom.contentIds?.length) customData.content_ids = custom.contentIds;
  await queueMetaEvent(app, {
    eventName: body.eventName,
    eventId: body.eventId,
    source: "BROWSER",
    eventTime,
    actionSource: "website",
    eventSourceUrl: body.eventSourceUrl,
    contact: body.userData ?? {},
    client: { ip: client.ip, userAgent: client.userAgent.slice(0, 1e3) || void 0, fbp: body.fbp, fbc: body.fbc },
    customData
  });
  return { eventId: body.eventId, queued: true };
}
__name(sendMetaOutboundEvent, "sendMetaOutboundEvent");

// server/modules/analytics/handlers.ts
var handlers14 = {
  async getAnalyticsSummary(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await summary(call.app.db, range));
  },
  async getAnalyticsTopShows(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await readAggregate(call.app.db.knex, (trx) => topShows(trx, range, call.query.sort ?? "revenue", call.query.limit ?? 10, call.app.config.defaultLocale)));
  },
  async getCustomerIntelligence(call) {
    const range = resolveRange(call.query, call.app.config.venueTimezone);
    return json(200, await customerIntelligence(call.app.db, range, call.app.config.defaultLocale));
  },
  async sendMetaOutboundEvent(call) {
    const accepted = await sendMetaOutboundEvent(call.app, call.body, { ip: call.ip, userAgent: call.header("user-agent") });
    return json(202, accepted);
  }
};

// server/modules/analytics/jobs.ts
var jobs = [
  {
    name: META_SEND_QUEUE,
    retryLimit: META_SEND_RETRY_LIMIT,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(data, job) {
      if (!job.app) throw new Error(`${META_SEND_QUEUE}: the job engine was started without the app's services`);
      const outcome = await deliverMetaEvent(job.app, data.outboxId, job);
      if (outcome === "refused") job.log.warn("Meta refused the event (4xx); not retried");
      return { outcome };
    }
  }
];

// server/modules/analytics/publicPolicy.ts
var policy8 = [{ path: "/api/analytics/meta/outbound-event", match: "exact", methods: ["POST"], level: "public" }];

// server/modules/analytics/index.ts
function record13() {
  return { tag: "analytics", handlers: handlers14, policy: policy8, jobs, subscribers: [purchaseConversion], services: analyticsServices };
}
__name(record13, "record");

// server/modules/booking/commands/upsertCustomer.ts
async function upsertCustomer(trx, contact, source = "guest") {
  return upsertCustomerByEmail(
    trx,
    { honorific: contact.honorific ?? null, name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone ?? null, locale: contact.locale ?? null },
    source
  );
}
__name(upsertCustomer, "upsertCustomer");
async function bookContact(trx, contact, source) {
  const id = await upsertCustomer(trx, contact, source);
  return { id, honorific: contact.honorific ?? null, name: contact.name.trim(), email: contact.email.trim(), phone: contact.phone ?? null };
}
__name(bookContact, "bookContact");

// server/modules/booking/commands/captureCustomerLead.ts
var LEAD_TTL_HOURS = 24;
async function captureCustomerLead(app, input, origin, now = /* @__PURE__ */ new Date()) {
  const leadReference = newLeadReference();
  const expiresAt = new Date(now.getTime() + LEAD_TTL_HOURS * 36e5);
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const eventId = input.eventSlug ? await showEventIdBySlug(trx, input.eventSlug) : void 0;
      if (input.eventSlug && !eventId) {
        throw Unprocessable("unknown_event", "No show event has this slug.", [{ path: "body/eventSlug", message: "is not a show event", code: "unknown_event" }]);
      }
      const contact = await bookContact(trx, input, "guest");
      await insertLead(trx, {
        customerId: contact.id,
        honorific: contact.honorific,
        name: contact.name,
        email: contact.email,
        phone: contact.phone,
        locale: input.locale ?? null,
        referenceHash: digest3(leadReference),
        showEventId: eventId ?? null,
        bookingPath: input.bookingPath ?? null,
        guestCount: input.guestCount ?? null,
        experienceType: input.experienceType ?? null,
        analyticsSessionId: input.analytics?.sessionId ?? null,
        analyticsDistinctId: input.analytics?.distinctId ?? null,
        analyticsLocalSessionId: input.analytics?.localSessionId ?? null,
        expiresAt
      });
    },
    now
  );
  await queueLeadConversion(app, { leadReference, email: input.email, phone: input.phone, ip: origin.ip, userAgent: origin.userAgent, sourceUrl: origin.sourceUrl });
  return { leadReference, expiresAt };
}
__name(captureCustomerLead, "captureCustomerLead");

// server/modules/booking/commands/createPublicReservation.ts
import { createHash as createHash13 } from "node:crypto";

// server/platform/db/models.ts
var IdempotencyKey = class extends RecordModel {
  static {
    __name(this, "IdempotencyKey");
  }
  static tableName = "idempotency_keys";
  static get idColumn() {
    return ["route", "key_hash"];
  }
  route;
  keyHash;
  requestHash;
  responseStatus;
  responseBody;
  createdAt;
};

// server/platform/db/idempotency.ts
import { createCipheriv as createCipheriv2, createDecipheriv as createDecipheriv2, createHash as createHash12, randomBytes as randomBytes3 } from "node:crypto";
var IDEMPOTENCY_TTL_HOURS = 24;
async function rememberedAnswer(knex, route, key, requestHash4, now) {
  const row = await IdempotencyKey.query(knex).where({ route, key_hash: sha256(key) }).andWhere("created_at", ">", new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 36e5)).first();
  if (!row) return void 0;
  if (!Buffer.from(row.requestHash).equals(requestHash4)) {
    throw Unprocessable("idempotency_key_reused", "This Idempotency-Key was used with another request body in the last 24 hours.", [
      { path: "header/idempotency-key", message: "was used with another body", code: "idempotency_key_reused" }
    ]);
  }
  return { status: row.responseStatus, body: unseal(key, row.responseBody) };
}
__name(rememberedAnswer, "rememberedAnswer");
async function lockIdempotencyKey(trx, route, key) {
  await trx.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`${route} ${key}`]);
}
__name(lockIdempotencyKey, "lockIdempotencyKey");
async function rememberAnswer(trx, route, key, requestHash4, status, body, now, options = {}) {
  if (!options.forgotten) await forgetAnswer(trx, route, key);
  await IdempotencyKey.query(trx).insert({ route, keyHash: sha256(key), requestHash: requestHash4, responseStatus: status, responseBody: seal(key, body), createdAt: now });
}
__name(rememberAnswer, "rememberAnswer");
async function forgetAnswer(trx, route, key) {
  await IdempotencyKey.query(trx).delete().where({ route, key_hash: sha256(key) });
}
__name(forgetAnswer, "forgetAnswer");
var sealKey = /* @__PURE__ */ __name((idempotencyKey) => createHash12("sha256").update(`booking-idempotency-seal\0${idempotencyKey}`, "utf8").digest(), "sealKey");
function seal(idempotencyKey, plaintext) {
  const iv = randomBytes3(12);
  const cipher = createCipheriv2("aes-256-gcm", sealKey(idempotencyKey), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}
__name(seal, "seal");
function unseal(idempotencyKey, sealed) {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  const decipher = createDecipheriv2("aes-256-gcm", sealKey(idempotencyKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}
__name(unseal, "unseal");

// server/modules/booking/commands/expireHolds.ts
async function expireHolds(app, now = /* @__PURE__ */ new Date()) {
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx, afterCommit }) => {
      const ids = await expireHeldUntil(trx, now);
      if (ids.length) await publish({ trx, app, actor: "SYSTEM", now, afterCommit }, "holds.expired", { reservationIds: ids });
      return ids.length;
    },
    now
  );
}
__name(expireHolds, "expireHolds");

// server/modules/booking/jobs.ts
var EXPIRE_HOLDS_QUEUE = "booking.expire-holds";
var jobs2 = [
  {
    name: EXPIRE_HOLDS_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 60,
    async handler(_data, job) {
      if (!job.app) throw new Error(`${EXPIRE_HOLDS_QUEUE}: the job engine was started without the app's services`);
      const expired = await expireHolds(job.app, /* @__PURE__ */ new Date());
      if (expired) job.log.info({ expired }, "holds expired");
      return { expired };
    }
  }
];

// server/modules/booking/presenters.ts
var iso3 = /* @__PURE__ */ __name((value) => value === null ? null : new Date(value).toISOString(), "iso");
function presentGuestReservation(reservation, money, p) {
  const r = reservation;
  const locale = r.locale && p.siteLocales.includes(r.locale) ? r.locale : p.defaultLocale;
  const status = statusAt(r, p.now);
  const until = cancellableUntil(r.eventStartsAt, p.cancellationWindowHours);
  return {
    reference: r.reference,
    status,
    holdExpiresAt: status === "HELD" ? iso3(r.holdExpiresAt) : null,
    guestCount: r.guestCount,
    locale,
    customerNote: r.customerNote,
    // The reservation's own snapshot: what this guest booked with, never the customer record.
    contact: { honorific: r.contactHonorific, name: r.contactName, email: r.contactEmail, phone: r.contactPhone },
    event: {
      slug: r.eventSlug,
      startsAt: iso3(r.eventStartsAt),
      doorsAt: iso3(r.eventDoorsAt),
      status: r.eventStatus,
      show: { slug: r.showSlug, code: r.showCode, title: pickLocale(r.showTitle, locale, p.defaultLocale) }
    },
    offer: { code: r.offerCode, name: pickLocale(r.offerName, locale, p.defaultLocale), bookingPath: r.bookingPath },
    price: {
      currency: "VND",
      pricePerGuestVnd: r.pricePerGuestVnd,
      subtotalVnd: r.subtotalVnd,
      discountVnd: r.discountVnd,
      serviceChargeVnd: r.serviceChargeVnd,
      vatVnd: r.vatVnd,
      voucherCreditVnd: r.voucherCreditVnd,
      totalVnd: r.totalVnd,
      serviceChargePercent: Number(r.serviceChargePercent),
      vatPercent: Number(r.vatPercent)
    },
    payment: presentGuestPayment(Number(r.totalVnd), status, money),
    refunds: money.refunds.map((refund) => ({
      amountVnd: Number(refund.amountVnd),
      status: refund.status,
      requestedAt: iso3(refund.createdAt),
      completedAt: iso3(refund.completedAt)
    })),
    attribution: { promoCode: r.promoCode, voucherCode: r.voucherCode, referralCode: r.referralCode },
    cancellableUntil: until.toISOString(),
    canCancel: (status === "HELD" || status === "CONFIRMED") && p.now < until,
    createdAt: iso3(r.createdAt),
    cancelledAt: iso3(r.cancelledAt)
  };
}
__name(presentGuestReservation, "presentGuestReservation");
var SETTLED = ["SUCCEEDED", "PARTIALLY_REFUNDED", "REFUNDED"];
var OWING = ["HELD", "CONFIRMED", "CHECKED_IN"];
function presentGuestPayment(totalVnd, status, money) {
  const settled = money.payments.filter((payment) => SETTLED.includes(payment.status));
  const paidVnd = settled.reduce((sum, payment) => sum + Number(payment.amountVnd), 0);
  const refundedVnd = settled.reduce((sum, payment) => sum + Number(payment.refundedVnd), 0);
  const dueVnd = OWING.includes(status) ? Math.max(0, totalVnd - paidVnd) : 0;
  const pending = money.payments.filter((payment) => payment.status === "PENDING");
  const latest = settled.at(-1) ?? pending.at(-1);
  let state;
  if (refundedVnd > 0) state = refundedVnd >= paidVnd ? "REFUNDED" : "PARTIALLY_REFUNDED";
  else if (paidVnd > 0) state = dueVnd > 0 ? "PARTIALLY_PAID" : "PAID";
  else if (pending.length > 0 && dueVnd > 0) state = "PENDING";
  else state = dueVnd > 0 ? "UNPAID" : "NOTHING_DUE";
  return { state, method: latest?.gateway ?? null, paidVnd, refundedVnd, dueVnd };
}
__name(presentGuestPayment, "presentGuestPayment");

// server/modules/booking/commands/createHold.ts
import { randomUUID as randomUUID8 } from "node:crypto";

// server/modules/booking/adjustments.ts
async function priceBooking(context, rules, providers) {
  const adjustments = [];
  for (const provider of providers) {
    const adjustment = await provider.adjust(context);
    if (adjustment) adjustments.push(adjustment);
  }
  const sum = /* @__PURE__ */ __name((kind, field) => adjustments.filter((a) => a.kind === kind).reduce((total, a) => total + Math.max(0, Math.round(a[field] ?? 0)), 0), "sum");
  const promo = sum("promo", "discountVnd");
  const referral = sum("referral", "discountVnd");
  const voucher = adjustments.reduce((total, a) => total + Math.max(0, Math.round(a.creditVnd ?? 0)), 0);
  const price2 = breakdown(context.offer.pricePerGuestVnd, context.guestCount, rules, { discountVnd: promo + referral, creditVnd: voucher });
  const promoApplied = Math.min(promo, price2.discountVnd);
  const columns = Object.assign(
    {
      promoDiscountVnd: promoApplied,
      referralDiscountVnd: price2.discountVnd - promoApplied,
      voucherCreditVnd: price2.creditVnd
    },
    ...adjustments.map((a) => a.columns ?? {})
  );
  return { price: price2, columns, adjustments };
}
__name(priceBooking, "priceBooking");

// server/modules/booking/commands/createHold.ts
async function createHold(extensions, trx, input, now, contactSource = "guest", beforeLock) {
  const rules = await bookingRules(trx);
  const offerRow = await offerByCode(trx, input.offerCode);
  const booking = await bookingCustomer(trx, input, now, contactSource).then(
    (found) => () => found,
    (err) => {
      if (!(err instanceof Problem)) throw err;
      return () => {
        throw err;
      };
    }
  );
  const accessToken = newAccessToken();
  const accessTokenSealed = await sealSecret(trx, accessToken);
  const reference = await freeReference(trx);
  const planned = { reservationId: randomUUID8(), holdExpiresAt: new Date(now.getTime() + rules.holdMinutes * 6e4) };
  await beforeLock?.(planned);
  const { event: event2, offer } = assertBookable(await lockEventBySlug(trx, input.eventSlug), rules, offerRow, input, now);
  const { customer: customer2, leadId, locale } = booking();
  const claims = [];
  for (const claimer of extensions.seatClaims) {
    const claim = await claimer.claim(trx, input, event2, now);
    if (claim) claims.push(claim);
  }
  const seatsTaken = await seatsTakenOf(trx, event2.id, now) - claims.reduce((sum, claim) => sum + claim.seats, 0);
  assertSeatsLeft(event2.capacity - seatsTaken, input.guestCount);
  const { price: price2, columns, adjustments } = await priceBooking(
    {
      trx,
      input,
      event: { id: event2.id, showId: event2.showId, startsAt: event2.startsAt },
      offer: { id: offer.id, code: offer.code, showId: offer.showId, pricePerGuestVnd: offer.pricePerGuestVnd },
      guestCount: input.guestCount,
      subtotalVnd: offer.pricePerGuestVnd * input.guestCount,
      now
    },
    { serviceChargePercent: rules.serviceChargePercent, vatPercent: rules.vatPercent },
    extensions.priceAdjustments
  );
  const reservation = await Reservation.query(trx).insert({
    id: planned.reservationId,
    reference,
    showEventId: event2.id,
    offerId: offer.id,
    customerId: customer2.id,
    contactHonorific: customer2.honorific,
    contactName: customer2.name,
    contactEmail: customer2.email,
    contactPhone: customer2.phone,
    leadId,
    guestCount: input.guestCount,
    status: "HELD",
    holdExpiresAt: planned.holdExpiresAt,
    pricePerGuestVnd: price2.pricePerGuestVnd,
    subtotalVnd: price2.subtotalVnd,
    discountVnd: price2.discountVnd,
    serviceChargeVnd: price2.serviceChargeVnd,
    vatVnd: price2.vatVnd,
    totalVnd: price2.totalVnd,
    serviceChargePercent: rules.serviceChargePercent,
    vatPercent: rules.vatPercent,
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    locale,
    accessTokenHash: digest3(accessToken),
    accessTokenSealed,
    customerNote: input.customerNote ?? null,
    analyticsSessionId: input.analytics?.sessionId ?? null,
    analyticsDistinctId: input.analytics?.distinctId ?? null,
    analyticsLocalSessionId: input.analytics?.localSessionId ?? null,
    promoCode: input.promoCode ?? null,
    voucherCode: input.voucherCode ?? null,
    referralCode: input.referral?.code ?? null,
    referralLinkSlug: input.referral?.linkSlug ?? null,
    referralPartnerSlug: input.referral?.partnerSlug ?? null,
    // What the adjustments set (their amounts by kind, codes, referral ids), named as columns.
    ...columns,
    createdAt: now,
    updatedAt: now
  }).returning("*");
  for (const adjustment of adjustments) await adjustment.afterInsert?.(reservation.id);
  for (const claim of claims) await claim.afterInsert(reservation.id);
  const view = {
    ...reservation,
    eventSlug: event2.slug,
    eventStartsAt: event2.startsAt,
    eventDoorsAt: event2.doorsAt,
    eventStatus: event2.status,
    showSlug: event2.showSlug,
    showCode: event2.showCode,
    showTitle: event2.showTitle,
    offerCode: offer.code,
    offerName: offer.name
  };
  return { reservationId: reservation.id, accessToken, cancellationWindowHours: rules.cancellationWindowHours, view };
}
__name(createHold, "createHold");
function assertBookable(event2, rules, offer, input, now) {
  if (!event2 || event2.showStatus !== "PUBLISHED") throw NotFound("No such show event.");
  const startsAt = new Date(event2.startsAt);
  if (event2.status !== "SCHEDULED") throw Conflict("event_not_bookable", `The event is ${event2.status.toLowerCase()}.`);
  if (!event2.salesOpen) throw Conflict("sales_closed", "Sales for this event are closed.");
  if (now.getTime() >= startsAt.getTime() - rules.bookingCutoffMinutes * 6e4) {
    throw Conflict("booking_closed", "Booking for this event has closed (the booking cut-off has passed).");
  }
  if (!offer || offer.status !== "ACTIVE" || offer.showId !== null && offer.showId !== event2.showId) {
    throw Unprocessable("offer_unavailable", "No such offer on sale for this event.", [{ path: "body/offerCode", message: "is not on sale for this event", code: "offer_unavailable" }]);
  }
  const salesStart = offer.salesStartsAt ? new Date(offer.salesStartsAt) : null;
  const salesEnd = offer.salesEndsAt ? new Date(offer.salesEndsAt) : null;
  if (salesStart && now < salesStart || salesEnd && now >= salesEnd) {
    throw Conflict("offer_sales_closed", "This offer is not on sale now.");
  }
  if (input.guestCount < offer.minGuests || input.guestCount > offer.maxGuests) {
    throw Unprocessable("guest_count_out_of_range", `This offer takes ${offer.minGuests} to ${offer.maxGuests} guests.`, [
      { path: "body/guestCount", message: `must be between ${offer.minGuests} and ${offer.maxGuests}`, code: "guest_count_out_of_range" }
    ]);
  }
  return { event: event2, offer };
}
__name(assertBookable, "assertBookable");
function assertSeatsLeft(left, guestCount) {
  if (left <= 0) throw Conflict("sold_out", "The event is sold out.");
  if (left < guestCount) throw Conflict("not_enough_seats", `Only ${left} seats are left.`);
}
__name(assertSeatsLeft, "assertSeatsLeft");
async function outlookBeforeLock(knex, extensions, input, row, now) {
  const bypass = { bypass: true };
  if (!row || mayClaimSeats(extensions, input)) return bypass;
  try {
    assertBookable(
      row,
      { bookingCutoffMinutes: Number(row.bookingCutoffMinutes) },
      row.offerId === null ? void 0 : { showId: row.offerShowId, status: row.offerStatus, salesStartsAt: row.offerSalesStartsAt, salesEndsAt: row.offerSalesEndsAt, minGuests: row.offerMinGuests, maxGuests: row.offerMaxGuests },
      input,
      now
    );
  } catch {
    return bypass;
  }
  if (!input.contact && !input.leadReference) return bypass;
  const left = row.capacity - Number(row.seatsTaken);
  if (left >= input.guestCount) return { left };
  if (!input.contact && !await liveLead(knex, input.leadReference, now)) return bypass;
  assertSeatsLeft(left, input.guestCount);
  return { left };
}
__name(outlookBeforeLock, "outlookBeforeLock");
var mayClaimSeats = /* @__PURE__ */ __name((extensions, input) => extensions.seatClaims.some((provider) => !provider.applies || provider.applies(input)), "mayClaimSeats");
async function bookingCustomer(trx, input, now, source) {
  if (input.contact) {
    const customer3 = await bookContact(trx, input.contact, source);
    const lead2 = input.leadReference ? await liveLead(trx, input.leadReference, now) : void 0;
    return { customer: customer3, leadId: lead2?.id ?? null, locale: input.locale ?? input.contact.locale ?? null };
  }
  if (!input.leadReference) {
    throw Unprocessable("contact_required", "Send a lead reference or the contact.", [{ path: "body/contact", message: "is required without leadReference", code: "required" }]);
  }
  const lead = await liveLead(trx, input.leadReference, now);
  if (!lead) {
    throw Unprocessable("unknown_lead", "The lead reference is unknown or has expired; send the contact.", [
      { path: "body/leadReference", message: "is unknown or expired", code: "unknown_lead" }
    ]);
  }
  const customer2 = { id: lead.customerId, honorific: lead.honorific, name: lead.name, email: lead.email, phone: lead.phone };
  return { customer: customer2, leadId: lead.id, locale: input.locale ?? lead.locale ?? null };
}
__name(bookingCustomer, "bookingCustomer");
async function freeReference(trx) {
  for (; ; ) {
    const reference = newReservationReference();
    if (!await referenceTaken(trx, reference)) return reference;
  }
}
__name(freeReference, "freeReference");

// server/modules/booking/commands/createPublicReservation.ts
var HOLD_ROUTE = "POST /api/public/reservations";
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().filter((key) => value[key] !== void 0).map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
__name(canonical, "canonical");
var requestHash = /* @__PURE__ */ __name((body) => createHash13("sha256").update(canonical(body)).digest(), "requestHash");
async function remembered(knex, key, hash2, now) {
  const answer2 = await rememberedAnswer(knex, HOLD_ROUTE, key, hash2, now);
  return answer2 ? { status: answer2.status, body: JSON.parse(answer2.body), replayed: true } : void 0;
}
__name(remembered, "remembered");
async function createPublicReservation(app, input, idempotencyKey, p, options = {}) {
  const { throttle: throttle2 = /* @__PURE__ */ __name(async () => void 0, "throttle"), now = /* @__PURE__ */ new Date() } = options;
  const { knex } = app.db;
  const { jobs: jobs8 } = app;
  const hash2 = requestHash(input);
  if (idempotencyKey) {
    const before = await remembered(knex, idempotencyKey, hash2, now);
    if (before) return before;
  }
  const holdInTransaction = /* @__PURE__ */ __name(async () => {
    await throttle2();
    return inUnitOfWork(
      { knex, logger: app.logger },
      async ({ trx, afterCommit }) => {
        if (idempotencyKey) {
          await lockIdempotencyKey(trx, HOLD_ROUTE, idempotencyKey);
          const raced = await remembered(trx, idempotencyKey, hash2, now);
          if (raced) return raced;
          await forgetAnswer(trx, HOLD_ROUTE, idempotencyKey);
        }
        const enqueueExpiry = /* @__PURE__ */ __name(async ({ reservationId: reservationId2, holdExpiresAt }) => {
          await jobs8.enqueue(EXPIRE_HOLDS_QUEUE, { reservationId: reservationId2 }, { trx, startAfter: holdExpiresAt });
        }, "enqueueExpiry");
        const hold = await createHold(app.bookingExtensions, trx, input, now, "guest", enqueueExpiry);
        const { reservationId, accessToken, cancellationWindowHours: cancellationWindowHours2 } = hold;
        await publish({ trx, app, actor: "GUEST", now, afterCommit }, "hold.placed", { reservationId, showEventId: hold.view.showEventId });
        let view = hold.view;
        if (view.totalVnd === 0) {
          await confirmReservation({ trx, app, actor: "SYSTEM", now, afterCommit }, reservationId, { by: "SYSTEM" });
          view = await reservationDetails(trx, reservationId);
        }
        const body = { ...presentGuestReservation(view, NO_MONEY, { ...p, now, cancellationWindowHours: cancellationWindowHours2 }), accessToken };
        if (idempotencyKey) {
          await rememberAnswer(trx, HOLD_ROUTE, idempotencyKey, hash2, 201, JSON.stringify(body), now, { forgotten: true });
        }
        return { status: 201, body, replayed: false, reservationId };
      },
      now
    );
  }, "holdInTransaction");
  const answer2 = mayClaimSeats(app.bookingExtensions, input) ? await holdInTransaction() : await app.bookingGate.run({
    event: input.eventSlug,
    readKey: `${input.eventSlug}\0${input.offerCode}`,
    seats: input.guestCount,
    read: /* @__PURE__ */ __name(async () => {
      const readAt = /* @__PURE__ */ new Date();
      return { readAt, row: await holdOutlookRow(knex, input.eventSlug, input.offerCode, readAt) };
    }, "read"),
    judge: /* @__PURE__ */ __name(async ({ readAt, row }) => {
      if (readAt < now) return { bypass: true };
      try {
        return await outlookBeforeLock(knex, app.bookingExtensions, input, row, now);
      } catch (refusal2) {
        const replay2 = idempotencyKey ? await remembered(knex, idempotencyKey, hash2, now) : void 0;
        if (replay2) return { answer: replay2 };
        throw refusal2;
      }
    }, "judge"),
    hold: holdInTransaction
  });
  if (answer2.reservationId) await captureBusinessEvent(app, BUSINESS_EVENTS.reservationCreated, answer2.reservationId);
  return answer2;
}
__name(createPublicReservation, "createPublicReservation");

// server/modules/booking/seatGate.ts
var PLENTY = 64;
var PLENTY_FOR_MS = 2e3;
var SEEN_MAX = 1e3;
var SeatGate = class {
  static {
    __name(this, "SeatGate");
  }
  events = /* @__PURE__ */ new Map();
  /** Seats left at each event's last read that admitted a hold, and when (only to skip a read, see above). */
  seen = /* @__PURE__ */ new Map();
  /**
   * Runs `hold` (the locked transaction) for `seats` of `event` once the gate admits it, or answers without it.
   * `read` is the unlocked read, shared by the waiting requests of one `readKey`; `judge` turns a read into this
   * request's judgement (it throws the refusal). A failed read lets the request through to the lock unjudged.
   */
  async run(options) {
    const { event: event2, readKey, seats, read, judge, hold } = options;
    const state = this.enter(event2);
    let since = FreshRead.now();
    const admit = /* @__PURE__ */ __name(async () => {
      state.admitted += seats;
      try {
        return await hold();
      } finally {
        state.admitted -= seats;
        const woken = state.waiters;
        state.waiters = [];
        const now = FreshRead.now();
        for (const wake of woken) wake(now);
      }
    }, "admit");
    try {
      const last = this.seen.get(event2);
      if (last && Date.now() - last.at < PLENTY_FOR_MS && last.left - state.admitted - seats >= PLENTY) return await admit();
      for (; ; ) {
        const reads = state.reads.get(readKey) ?? new FreshRead();
        state.reads.set(readKey, reads);
        let snapshot;
        try {
          snapshot = await reads.fresh(read, since);
        } catch {
          return await hold();
        }
        const judgement = await judge(snapshot);
        if ("answer" in judgement) return judgement.answer;
        if ("bypass" in judgement) return await hold();
        this.remember(event2, judgement.left);
        if (judgement.left - state.admitted >= seats) return await admit();
        since = await new Promise((resolve) => state.waiters.push(resolve));
      }
    } finally {
      if (--state.users === 0) this.events.delete(event2);
    }
  }
  /** Events with a request in the gate (for tests: it empties once they are answered). */
  get size() {
    return this.events.size;
  }
  remember(event2, left) {
    this.seen.delete(event2);
    this.seen.set(event2, { left, at: Date.now() });
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.keys().next().value);
  }
  enter(event2) {
    let state = this.events.get(event2);
    if (!state) {
      state = { admitted: 0, users: 0, waiters: [], reads: /* @__PURE__ */ new Map() };
      this.events.set(event2, state);
    }
    state.users++;
    return state;
  }
};
var readsStarted = 0;
var FreshRead = class {
  static {
    __name(this, "FreshRead");
  }
  running;
  next;
  static now() {
    return readsStarted;
  }
  fresh(read, since) {
    if (!this.running) return this.start(read);
    if (this.running.seq > since) return this.running.promise;
    this.next ??= this.running.promise.then(
      () => this.startNext(read),
      () => this.startNext(read)
    );
    return this.next;
  }
  startNext(read) {
    this.next = void 0;
    return this.start(read);
  }
  start(read) {
    let promise;
    try {
      promise = read();
    } catch (err) {
      promise = Promise.reject(err);
    }
    const running = { seq: ++readsStarted, promise };
    this.running = running;
    const done = /* @__PURE__ */ __name(() => {
      if (this.running === running) this.running = void 0;
    }, "done");
    promise.then(done, done);
    return promise;
  }
};

// server/modules/booking/services.ts
function bookingServices(platform) {
  const store = rateLimitStoreFor(platform.db);
  return {
    bookingLimits: {
      leads: new RateLimit({ name: "booking-lead-address", points: 20, windowSeconds: 600 }, store),
      holds: new RateLimit({ name: "booking-hold-address", points: 30, windowSeconds: 600 }, store)
    },
    bookingGate: new SeatGate()
  };
}
__name(bookingServices, "bookingServices");
async function throttle(limit, ip) {
  await consumeOrThrow([[limit, addressKey(ip)]], "Too many booking requests from this address; try again later.");
}
__name(throttle, "throttle");

// server/modules/booking/handlers.ts
var NoSuchReservation = /* @__PURE__ */ __name(() => NotFound("No such reservation, or the token does not open it."), "NoSuchReservation");
var TOKEN_HEADER = "x-reservation-token";
var token = /* @__PURE__ */ __name((call) => call.header(TOKEN_HEADER) || void 0, "token");
async function presentation2(call) {
  const windowHours = await cancellationWindowHours(call.app.db.knex);
  const { siteLocales, defaultLocale } = call.app.config;
  return { siteLocales, defaultLocale, cancellationWindowHours: windowHours, now: /* @__PURE__ */ new Date() };
}
__name(presentation2, "presentation");
var handlers15 = {
  async captureCustomerLead(call) {
    await throttle(call.app.bookingLimits.leads, call.ip);
    const origin = { ip: call.ip, userAgent: call.header("user-agent"), sourceUrl: call.header("referer") || void 0 };
    const lead = await captureCustomerLead(call.app, call.body, origin);
    return json(201, { leadReference: lead.leadReference, expiresAt: lead.expiresAt.toISOString() });
  },
  async createPublicReservation(call) {
    const key = call.header("idempotency-key") || void 0;
    const { siteLocales, defaultLocale } = call.app.config;
    const spend = /* @__PURE__ */ __name(() => throttle(call.app.bookingLimits.holds, call.ip), "spend");
    const answer2 = await createPublicReservation(call.app, call.body, key, { siteLocales, defaultLocale }, { throttle: spend });
    return json(201, answer2.body, { "Cache-Control": "no-store", ...answer2.replayed ? { "Idempotent-Replayed": "true" } : {} });
  },
  async getPublicReservation(call) {
    const { knex } = call.app.db;
    const reservation = await guestReservation(knex, call.params.reference, token(call));
    if (!reservation) throw NoSuchReservation();
    return json(200, presentGuestReservation(reservation, await guestMoney(knex, reservation.id), await presentation2(call)), { "Cache-Control": "no-store" });
  },
  async getPublicReservationTicket(call) {
    const { knex } = call.app.db;
    const reservation = await guestReservation(knex, call.params.reference, token(call));
    if (!reservation) throw NoSuchReservation();
    const checkInToken = await guestTicketToken(knex, reservation);
    const headers = { "Cache-Control": "no-store" };
    if (call.query.format === "svg") return bytes(Buffer.from(await checkInQrSvg(checkInToken)), "image/svg+xml", { headers });
    return bytes(await checkInQrPng(checkInToken), "image/png", { headers });
  },
  async cancelPublicReservation(call) {
    const reservation = await cancelPublicReservation(call.app, call.params.reference, token(call), call.body?.reason);
    if (!reservation) throw NoSuchReservation();
    return json(200, presentGuestReservation(reservation, await guestMoney(call.app.db.knex, reservation.id), await presentation2(call)), { "Cache-Control": "no-store" });
  }
};

// server/modules/booking/publicPolicy.ts
var policy9 = [
  { path: "/api/reservations/customer-lead", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/public/reservations", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/public/reservations/", match: "prefix", methods: ["GET", "HEAD", "POST"], level: "public" }
];

// server/modules/booking/index.ts
function record14() {
  return { tag: "booking", handlers: handlers15, policy: policy9, jobs: jobs2, services: bookingServices };
}
__name(record14, "record");

// server/modules/email/templates.ts
import fs6 from "node:fs";
import path7 from "node:path";
import { fileURLToPath as fileURLToPath4 } from "node:url";
import { Eta } from "eta";

// server/modules/email/qr.ts
var qrcode = /* @__PURE__ */ __name(async () => (await import("qrcode")).default, "qrcode");
async function checkInQrPng(token2) {
  if (!token2) throw new TypeError("a check-in token is required");
  return (await qrcode()).toBuffer(token2, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 240 });
}
__name(checkInQrPng, "checkInQrPng");
async function checkInQrSvg(token2) {
  if (!token2) throw new TypeError("a check-in token is required");
  return (await qrcode()).toString(token2, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
__name(checkInQrSvg, "checkInQrSvg");

// server/modules/email/templates.ts
var LOCALES = ["en", "vi"];
var DEFAULT_LOCALE = "en";
var VENUE_TIME_ZONE = "Asia/Ho_Chi_Minh";
var CHECK_IN_QR_CONTENT_ID = "checkin-qr@venue";
var DEFINITIONS = {
  "reservation-confirmation": {
    async prepare(data) {
      for (const field of ["guestName", "showName", "reservationReference", "checkInToken"]) {
        if (typeof data[field] !== "string" || data[field] === "") throw new TypeError(`reservation-confirmation: ${field} is required`);
      }
      if (!Number.isInteger(data.partySize) || data.partySize < 1) throw new TypeError("reservation-confirmation: partySize must be a positive integer");
      if (!Number.isSafeInteger(data.totalVnd) || data.totalVnd < 0) throw new TypeError("reservation-confirmation: totalVnd must be a whole number of VND");
      if (Number.isNaN(new Date(data.startsAt).getTime())) throw new TypeError("reservation-confirmation: startsAt must be a date");
      if (data.price) checkPrice(data.price);
      const png = await checkInQrPng(data.checkInToken);
      const qrFilename = `check-in-${safeFilePart(data.reservationReference)}.png`;
      const attachments = [
        { filename: "check-in.png", contentType: "image/png", content: png, contentId: CHECK_IN_QR_CONTENT_ID },
        { filename: qrFilename, contentType: "image/png", content: png }
      ];
      let calendarFilename = null;
      if (data.endsAt) {
        calendarFilename = `${safeFilePart(data.reservationReference)}.ics`;
        attachments.push({ filename: calendarFilename, contentType: "text/calendar", content: Buffer.from(await calendarEvent(data), "utf8") });
      }
      return { vars: { qrContentId: CHECK_IN_QR_CONTENT_ID, qrFilename, calendarFilename }, attachments };
    }
  },
  "test-message": {
    async prepare() {
      return {};
    }
  },
  "reservation-cancelled": {
    async prepare(data) {
      for (const field of ["guestName", "showName", "reservationReference"]) {
        if (typeof data[field] !== "string" || data[field] === "") throw new TypeError(`reservation-cancelled: ${field} is required`);
      }
      if (!Number.isInteger(data.partySize) || data.partySize < 1) throw new TypeError("reservation-cancelled: partySize must be a positive integer");
      if (!Number.isSafeInteger(data.paidVnd) || data.paidVnd < 0) throw new TypeError("reservation-cancelled: paidVnd must be a whole number of VND");
      if (Number.isNaN(new Date(data.startsAt).getTime())) throw new TypeError("reservation-cancelled: startsAt must be a date");
      return {};
    }
  },
  "customer-message": {
    async prepare(data) {
      for (const field of ["guestName", "subject", "body"]) {
        if (typeof data[field] !== "string" || data[field].trim() === "") throw new TypeError(`customer-message: ${field} is required`);
      }
      const paragraphs = data.body.replace(/\r\n?/g, "\n").split(/\n\s*\n/).map((paragraph) => paragraph.split("\n").map((line) => line.trimEnd())).filter((lines) => lines.some((line) => line !== ""));
      return { vars: { paragraphs } };
    }
  },
  "inquiry-acknowledgement": { prepare: /* @__PURE__ */ __name(async () => ({}), "prepare") },
  "inquiry-notification": { prepare: /* @__PURE__ */ __name(async () => ({}), "prepare") },
  "inquiry-follow-up": { prepare: /* @__PURE__ */ __name(async () => ({}), "prepare") },
  "waitlist-offer": { prepare: /* @__PURE__ */ __name(async () => ({}), "prepare") },
  "chat-transcript": {
    async prepare(data) {
      if (!Array.isArray(data.messages) || data.messages.length === 0) throw new TypeError("chat-transcript: messages are required");
      return {};
    }
  },
  "reservation-cancelled-by-venue": { prepare: /* @__PURE__ */ __name(async (data) => checkCancellation("reservation-cancelled-by-venue", data), "prepare") },
  "reservation-cancelled-by-guest": { prepare: /* @__PURE__ */ __name(async (data) => checkCancellation("reservation-cancelled-by-guest", data), "prepare") },
  "refund-completed": { prepare: /* @__PURE__ */ __name(async (data) => checkRefund("refund-completed", data), "prepare") },
  "refund-failed": { prepare: /* @__PURE__ */ __name(async (data) => checkRefund("refund-failed", data), "prepare") },
  "hold-expired": {
    async prepare(data) {
      requireText("hold-expired", data, ["guestName", "showName", "reservationReference", "bookAgainUrl"]);
      requireDate("hold-expired", data.startsAt);
      return {};
    }
  },
  "reservation-reminder": {
    async prepare(data) {
      requireText("reservation-reminder", data, ["guestName", "showName", "reservationReference"]);
      requireDate("reservation-reminder", data.startsAt);
      requireVnd("reservation-reminder", "dueVnd", data.dueVnd);
      return {};
    }
  }
};
function requireText(template, data, fields) {
  for (const field of fields) {
    const value = data[field];
    if (typeof value !== "string" || value === "") throw new TypeError(`${template}: ${field} is required`);
  }
}
__name(requireText, "requireText");
function requireDate(template, value) {
  if (value === null || value === void 0 || Number.isNaN(new Date(value).getTime())) throw new TypeError(`${template}: startsAt must be a date`);
}
__name(requireDate, "requireDate");
function requireVnd(template, field, value) {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${template}: ${field} must be a whole number of VND`);
}
__name(requireVnd, "requireVnd");
function checkPrice(price2) {
  for (const field of ["subtotalVnd", "promoDiscountVnd", "referralDiscountVnd", "serviceChargeVnd", "vatVnd", "voucherCreditVnd", "totalVnd", "paidVnd", "dueVnd"]) {
    requireVnd("reservation-confirmation", `price.${field}`, price2[field]);
  }
}
__name(checkPrice, "checkPrice");
async function checkCancellation(template, data) {
  requireText(template, data, ["guestName", "showName", "reservationReference", "bookAgainUrl"]);
  requireDate(template, data.startsAt);
  requireVnd(template, "paidVnd", data.paidVnd);
  if (!Array.isArray(data.refunds)) throw new TypeError(`${template}: refunds must be a list`);
  for (const line of data.refunds) requireVnd(template, "refunds[].amountVnd", line.amountVnd);
  const refundedVnd = data.refunds.filter((line) => line.state !== "FAILED").reduce((sum, line) => sum + line.amountVnd, 0);
  return { vars: { refundedVnd } };
}
__name(checkCancellation, "checkCancellation");
async function checkRefund(template, data) {
  requireText(template, data, ["guestName", "showName", "reservationReference", "gateway"]);
  requireDate(template, data.startsAt);
  requireVnd(template, "amountVnd", data.amountVnd);
  return { vars: { onSite: data.gateway !== "VNPAY" } };
}
__name(checkRefund, "checkRefund");
var safeFilePart = /* @__PURE__ */ __name((value) => value.replace(/[^\w-]+/g, "_").slice(0, 60) || "booking", "safeFilePart");
async function calendarEvent(data) {
  const { createEvent } = await import("ics");
  const start = new Date(data.startsAt).getTime();
  const end = new Date(data.endsAt ?? data.startsAt).getTime();
  const description = [`${data.reservationReference}`, `${data.partySize} \xD7 ${data.offerName ?? data.showName}`, data.manageUrl ?? ""].filter(Boolean).join("\n");
  const { error, value } = createEvent({
    uid: `${safeFilePart(data.reservationReference)}@reservations`,
    productId: "venue/reservations",
    method: "PUBLISH",
    title: data.showName,
    start,
    startInputType: "utc",
    startOutputType: "utc",
    end: Math.max(end, start + 6e4),
    endInputType: "utc",
    endOutputType: "utc",
    description,
    ...data.location ? { location: data.location } : {},
    ...data.manageUrl ? { url: data.manageUrl } : {},
    status: "CONFIRMED",
    busyStatus: "BUSY"
  });
  if (error || !value) throw new Error(`reservation-confirmation: the calendar event could not be made: ${error?.message ?? "no value"}`);
  return value;
}
__name(calendarEvent, "calendarEvent");
function isTemplateName(name) {
  return Object.hasOwn(DEFINITIONS, name);
}
__name(isTemplateName, "isTemplateName");
var TEMPLATES_DIR = path7.join(path7.dirname(fileURLToPath4(new URL("../server/modules/email/templates.ts", import.meta.url).href)), "templates");
var htmlEta = new Eta({ autoEscape: true, cache: true, useWith: false });
var plainEta = new Eta({ autoEscape: false, autoTrim: false, cache: true, useWith: false });
var compiled = /* @__PURE__ */ new Map();
var layout;
function load(name, locale) {
  const key = `${name}.${locale}`;
  if (compiled.has(key)) return compiled.get(key);
  const file = path7.join(TEMPLATES_DIR, `${key}.eta`);
  let result = null;
  if (fs6.existsSync(file)) {
    const sections = parseSections(fs6.readFileSync(file, "utf8"), file);
    result = {
      subject: plainEta.compile(sections.subject),
      html: htmlEta.compile(sections.html),
      text: plainEta.compile(sections.text)
    };
  }
  compiled.set(key, result);
  return result;
}
__name(load, "load");
function parseSections(source, file) {
  const parts = {};
  const marker = /^=== (subject|html|text) ===\r?\n/gm;
  const found = [...source.matchAll(marker)];
  found.forEach((match, index) => {
    const start = match.index + match[0].length;
    const end = index + 1 < found.length ? found[index + 1].index : source.length;
    parts[match[1]] = source.slice(start, end);
  });
  for (const section of ["subject", "html", "text"]) {
    if (parts[section] === void 0) throw new Error(`${file}: missing the "=== ${section} ===" section`);
  }
  return parts;
}
__name(parseSections, "parseSections");
function resolveLocale(name, requested) {
  const primary = (requested ?? "").trim().toLowerCase().split(/[-_]/)[0];
  const locale = LOCALES.includes(primary) ? primary : DEFAULT_LOCALE;
  return load(name, locale) ? locale : DEFAULT_LOCALE;
}
__name(resolveLocale, "resolveLocale");
var FOOTERS = {
  en: /* @__PURE__ */ __name((venue) => `${venue}. You receive this e-mail because of a reservation or a request you made.`, "en"),
  vi: /* @__PURE__ */ __name((venue) => `${venue}. Qu\xFD kh\xE1ch nh\u1EADn \u0111\u01B0\u1EE3c th\u01B0 n\xE0y v\xEC \u0111\xE3 \u0111\u1EB7t ch\u1ED7 ho\u1EB7c g\u1EEDi y\xEAu c\u1EA7u cho ch\xFAng t\xF4i.`, "vi")
};
function formatters(locale, timeZone = VENUE_TIME_ZONE) {
  const tag = locale === "vi" ? "vi-VN" : "en-GB";
  const vnd2 = locale === "vi" ? new Intl.NumberFormat("vi-VN", { style: "currency", currency: "VND" }) : new Intl.NumberFormat("en-US");
  const fullDate = new Intl.DateTimeFormat(tag, { dateStyle: "full", timeZone });
  const time2 = new Intl.DateTimeFormat(tag, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone });
  const date = new Intl.DateTimeFormat(tag, { day: "numeric", month: "long", year: "numeric", timeZone });
  return {
    /** en: `1,500,000 VND`; vi: `1.500.000 ₫`. */
    formatVnd: /* @__PURE__ */ __name((amount) => locale === "vi" ? vnd2.format(amount) : `${vnd2.format(amount)} VND`, "formatVnd"),
    /** en: `Saturday, 5 December 2026 at 19:30`; vi: `19:30, Thứ Bảy, 5 tháng 12, 2026` (venue time). */
    formatDateTime: /* @__PURE__ */ __name((value) => {
      const when = new Date(value);
      return locale === "vi" ? `${time2.format(when)}, ${fullDate.format(when)}` : `${fullDate.format(when)} at ${time2.format(when)}`;
    }, "formatDateTime"),
    formatDate: /* @__PURE__ */ __name((value) => date.format(new Date(value)), "formatDate"),
    /** `19:30` (venue time). */
    formatTime: /* @__PURE__ */ __name((value) => time2.format(new Date(value)), "formatTime"),
    /** A percentage as set up (`5`, `8.5`). */
    formatPercent: /* @__PURE__ */ __name((value) => `${Number(value).toLocaleString(tag, { maximumFractionDigits: 2 })}%`, "formatPercent")
  };
}
__name(formatters, "formatters");
async function renderTemplate(name, requestedLocale, data, options) {
  if (!isTemplateName(name)) throw new TypeError(`unknown e-mail template "${name}"`);
  const locale = resolveLocale(name, requestedLocale);
  const template = load(name, locale);
  if (!template) throw new Error(`e-mail template "${name}" has no ${DEFAULT_LOCALE} file`);
  const prepared2 = await DEFINITIONS[name].prepare(data);
  const it = { ...data, ...prepared2.vars, ...formatters(locale, options.timeZone), locale, venueName: options.venueName };
  const subject = template.subject.call(plainEta, it).replace(/\s+/g, " ").trim();
  const body = template.html.call(htmlEta, it);
  layout ??= htmlEta.compile(fs6.readFileSync(path7.join(TEMPLATES_DIR, "layout.html.eta"), "utf8"));
  const html = layout.call(htmlEta, { locale, subject, body, footer: FOOTERS[locale](options.venueName) });
  const text = template.text.call(plainEta, it).replace(/\n{3,}/g, "\n\n").trim() + "\n";
  return { locale, subject, html, text, attachments: prepared2.attachments ?? [] };
}
__name(renderTemplate, "renderTemplate");

// server/modules/email/commands/recordEmail.ts
var EMAIL_SEND_QUEUE = "email.send";
var MAX_ATTACHMENTS = 10;
var MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
var ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
var CONTENT_TYPE = /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/i;
var CONTENT_ID = /^[\w.+-]+(@[\w.-]+)?$/;
async function recordEmail(trx, input, deps) {
  const to = input.to?.trim() ?? "";
  if (to.length > 254 || !ADDRESS.test(to)) {
    throw Unprocessable("invalid_recipient", "The recipient is not a single valid e-mail address.", [
      { path: "to", message: "must be one e-mail address", code: "format" }
    ]);
  }
  const rendered = await renderTemplate(input.template, input.locale, input.data, { venueName: displayName(deps.emailFrom), timeZone: deps.timeZone });
  const attachments = [...rendered.attachments, ...input.attachments ?? []];
  checkAttachments(attachments);
  const descriptors = attachments.map((a) => ({
    filename: a.filename,
    contentType: a.contentType.toLowerCase(),
    size: a.content.length,
    contentId: a.contentId ?? null
  }));
  const message = await EmailMessage.query(trx).insertAndFetch({
    status: "QUEUED",
    toAddress: to,
    fromAddress: deps.emailFrom,
    subject: rendered.subject,
    template: input.template,
    locale: rendered.locale,
    customerId: input.customerId ?? null,
    reservationId: input.reservationId ?? null,
    htmlBody: rendered.html,
    textBody: rendered.text,
    attachments: descriptors
  });
  if (attachments.length) {
    await EmailAttachment.query(trx).insert(
      attachments.map((a, position) => ({
        messageId: message.id,
        position,
        filename: a.filename,
        contentType: descriptors[position].contentType,
        contentId: a.contentId ?? null,
        size: a.content.length,
        content: a.content
      }))
    );
  }
  await deps.enqueue(EMAIL_SEND_QUEUE, { messageId: message.id }, { trx });
  return message;
}
__name(recordEmail, "recordEmail");
function checkAttachments(attachments) {
  const invalid2 = /* @__PURE__ */ __name((detail) => new Error(`invalid e-mail attachment: ${detail}`), "invalid");
  if (attachments.length > MAX_ATTACHMENTS) throw invalid2(`At most ${MAX_ATTACHMENTS} attachments.`);
  let total = 0;
  for (const a of attachments) {
    if (!Buffer.isBuffer(a.content)) throw invalid2("An attachment has no content.");
    if (!a.filename || /[\r\n\\/]/.test(a.filename) || a.filename.length > 200) throw invalid2("An attachment has an invalid file name.");
    if (!CONTENT_TYPE.test(a.contentType)) throw invalid2("An attachment has an invalid content type.");
    if (a.contentId !== void 0 && !CONTENT_ID.test(a.contentId)) throw invalid2("An attachment has an invalid content id.");
    total += a.content.length;
  }
  if (total > MAX_ATTACHMENT_BYTES) throw invalid2(`Attachments are limited to ${MAX_ATTACHMENT_BYTES} bytes per message.`);
}
__name(checkAttachments, "checkAttachments");

// server/modules/email/commands/guestMessages.ts
var REMINDER_QUEUE = "email.reservation-reminder";
var HOLD_EXPIRED_QUEUE = "email.hold-expired";
function ledgerDeps(app) {
  return { enqueue: /* @__PURE__ */ __name((queue, data, options) => app.jobs.enqueue(queue, data, options), "enqueue"), emailFrom: app.config.emailFrom, timeZone: app.config.venueTimezone };
}
__name(ledgerDeps, "ledgerDeps");
function guestLocale(app, requested) {
  const primary = (requested ?? "").trim().toLowerCase().split(/[-_]/)[0];
  return app.config.siteLocales.includes(primary) ? primary : app.config.defaultLocale;
}
__name(guestLocale, "guestLocale");
function manageBookingUrl(publicSiteUrl, locale, reference, token2) {
  return `${siteRoutes(publicSiteUrl, locale).baseUrl}/booking/${encodeURIComponent(reference)}#token=${encodeURIComponent(token2)}`;
}
__name(manageBookingUrl, "manageBookingUrl");
var localized = /* @__PURE__ */ __name((value, locale, fallback) => value && (value[locale] ?? value[fallback] ?? Object.values(value)[0]) || "", "localized");
async function details(trx, app, id) {
  const row = await reservationForMessage(trx, id);
  if (!row) throw new Error(`guest message: no reservation ${id}`);
  const locale = guestLocale(app, row.locale);
  const fallback = app.config.defaultLocale;
  const startsAt = new Date(row.eventStartsAt);
  return {
    id,
    reference: row.reference,
    status: row.status,
    customerId: row.customerId,
    guestCount: row.guestCount,
    locale,
    guestName: [row.contactHonorific, row.contactName].filter(Boolean).join(" "),
    email: row.contactEmail,
    showName: localized(row.showTitle, locale, fallback),
    offerName: localized(row.offerName, locale, fallback),
    startsAt,
    doorsAt: row.eventDoorsAt ? new Date(row.eventDoorsAt) : null,
    endsAt: new Date(startsAt.getTime() + Number(row.showDurationMinutes) * 6e4),
    eventSlug: row.eventSlug,
    eventStatus: row.eventStatus,
    accessTokenSealed: row.accessTokenSealed ?? null,
    row
  };
}
__name(details, "details");
function priceOf(d, paidVnd) {
  const r = d.row;
  const promo = Number(r.promoDiscountVnd ?? 0);
  const referral = Number(r.referralDiscountVnd ?? 0);
  return {
    subtotalVnd: Number(r.subtotalVnd),
    promoDiscountVnd: promo,
    promoCode: r.promoCode ?? null,
    referralDiscountVnd: referral,
    referralCode: r.referralCode ?? null,
    otherDiscountVnd: Math.max(0, Number(r.discountVnd ?? 0) - promo - referral),
    serviceChargeVnd: Number(r.serviceChargeVnd),
    serviceChargePercent: Number(r.serviceChargePercent),
    vatVnd: Number(r.vatVnd),
    vatPercent: Number(r.vatPercent),
    voucherCreditVnd: Number(r.voucherCreditVnd ?? 0),
    voucherCode: r.voucherCode ?? null,
    totalVnd: Number(r.totalVnd),
    paidVnd,
    dueVnd: Math.max(0, Number(r.totalVnd) - paidVnd)
  };
}
__name(priceOf, "priceOf");
async function manageUrlOf(trx, app, d) {
  const token2 = await openSecret(trx, d.accessTokenSealed);
  return token2 ? manageBookingUrl(app.config.publicSiteUrl, d.locale, d.reference, token2) : null;
}
__name(manageUrlOf, "manageUrlOf");
function bookAgain(app, d, now) {
  const routes = siteRoutes(app.config.publicSiteUrl, d.locale);
  if (d.eventSlug && d.eventStatus === "SCHEDULED" && d.startsAt > now) return { url: routes.booking(d.eventSlug), sameEvent: true };
  return { url: routes.pages.shows, sameEvent: false };
}
__name(bookAgain, "bookAgain");
var venueLocation = /* @__PURE__ */ __name((app) => [displayName(app.config.emailFrom), app.config.venueAddress].filter(Boolean).join(", "), "venueLocation");
async function queueConfirmationEmail(ctx, id, checkInToken) {
  const d = await details(ctx.trx, ctx.app, id);
  const price2 = priceOf(d, await netPaid(ctx.trx, id));
  await recordEmail(
    ctx.trx,
    {
      template: "reservation-confirmation",
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: id,
      data: {
        guestName: d.guestName,
        showName: d.showName,
        startsAt: d.startsAt,
        doorsAt: d.doorsAt,
        endsAt: d.endsAt,
        offerName: d.offerName || null,
        partySize: d.guestCount,
        totalVnd: price2.totalVnd,
        price: price2,
        reservationReference: d.reference,
        checkInToken,
        manageUrl: await manageUrlOf(ctx.trx, ctx.app, d),
        location: venueLocation(ctx.app)
      }
    },
    ledgerDeps(ctx.app)
  );
}
__name(queueConfirmationEmail, "queueConfirmationEmail");
async function scheduleReminder(ctx, id) {
  const hours = ctx.app.config.reminderHoursBefore;
  if (!hours) return null;
  const startsAt = await eventStartOf(ctx.trx, id);
  const due = new Date(new Date(startsAt).getTime() - hours * 36e5);
  if (due <= ctx.now) return null;
  await ctx.app.jobs.enqueue(REMINDER_QUEUE, { reservationId: id }, { trx: ctx.trx, startAfter: due });
  return due;
}
__name(scheduleReminder, "scheduleReminder");
var REMINDER_EARLY_MS = 5 * 6e4;
async function sendReminder(app, reservationId, now = /* @__PURE__ */ new Date()) {
  return app.db.knex.transaction(async (trx) => {
    const reservation = await lockReservationForReminder(trx, reservationId);
    if (!reservation) return "no_reservation";
    if (reservation.status !== "CONFIRMED") return "not_confirmed";
    if (reservation.eventStatus !== "SCHEDULED") return "event_not_scheduled";
    const startsAt = new Date(reservation.eventStartsAt);
    if (startsAt <= now) return "event_started";
    if (await hasMessage(trx, reservationId, "reservation-reminder")) return "already_sent";
    const hours = app.config.reminderHoursBefore;
    if (!hours) return "disabled";
    const due = new Date(startsAt.getTime() - hours * 36e5);
    if (due.getTime() - now.getTime() > REMINDER_EARLY_MS) {
      await app.jobs.enqueue(REMINDER_QUEUE, { reservationId }, { trx, startAfter: due });
      return "rescheduled";
    }
    const d = await details(trx, app, reservationId);
    const price2 = priceOf(d, await netPaid(trx, reservationId));
    await recordEmail(
      trx,
      {
        template: "reservation-reminder",
        to: d.email,
        locale: d.locale,
        customerId: d.customerId,
        reservationId,
        data: {
          guestName: d.guestName,
          showName: d.showName,
          startsAt: d.startsAt,
          doorsAt: d.doorsAt,
          partySize: d.guestCount,
          offerName: d.offerName || null,
          reservationReference: d.reference,
          dueVnd: price2.dueVnd,
          manageUrl: await manageUrlOf(trx, app, d)
        }
      },
      ledgerDeps(app)
    );
    return "sent";
  });
}
__name(sendReminder, "sendReminder");
async function refundLines(trx, reservationId, requestedAt) {
  const rows2 = await refundsOf(trx, reservationId);
  return rows2.filter((row) => row.createdAt.getTime() === requestedAt.getTime()).map((row) => ({
    amountVnd: row.amountVnd,
    state: row.status === "SUCCEEDED" ? "COMPLETED" : row.status === "FAILED" ? "FAILED" : row.gateway === "VNPAY" ? "PROCESSING" : "VENUE_WILL_ARRANGE"
  }));
}
__name(refundLines, "refundLines");
async function queueCancellationEmail(ctx, id, by, requestedAt) {
  const d = await details(ctx.trx, ctx.app, id);
  const refunds = await refundLines(ctx.trx, id, requestedAt);
  const paidVnd = await netPaid(ctx.trx, id) + refunds.filter((line) => line.state === "COMPLETED").reduce((sum, line) => sum + line.amountVnd, 0);
  await recordEmail(
    ctx.trx,
    {
      template: by === "STAFF" ? "reservation-cancelled-by-venue" : "reservation-cancelled-by-guest",
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: id,
      data: {
        guestName: d.guestName,
        showName: d.showName,
        startsAt: d.startsAt,
        partySize: d.guestCount,
        offerName: d.offerName || null,
        reservationReference: d.reference,
        paidVnd,
        refunds,
        bookAgainUrl: bookAgain(ctx.app, d, ctx.now).url
      }
    },
    ledgerDeps(ctx.app)
  );
}
__name(queueCancellationEmail, "queueCancellationEmail");
async function queueEventCancellationEmail(trx, app, id, paidVnd) {
  const d = await details(trx, app, id);
  await recordEmail(
    trx,
    {
      template: "reservation-cancelled",
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: id,
      data: { guestName: d.guestName, showName: d.showName, startsAt: d.startsAt, partySize: d.guestCount, reservationReference: d.reference, paidVnd }
    },
    ledgerDeps(app)
  );
}
__name(queueEventCancellationEmail, "queueEventCancellationEmail");
async function queueRefundOutcomeEmail(ctx, refundId) {
  const refund = await refundForMessage(ctx.trx, refundId);
  if (!refund || refund.status !== "SUCCEEDED" && refund.status !== "FAILED") return;
  const d = await details(ctx.trx, ctx.app, refund.reservationId);
  try {
    await writeRefundOutcome(ctx, refund, d);
  } catch (err) {
    if (!(err instanceof TypeError) && !(err instanceof Problem && err.status === 422)) throw err;
    ctx.app.logger.warn({ err, refundId, reservationId: d.id }, "the refund outcome e-mail could not be written; the refund is settled without it");
  }
}
__name(queueRefundOutcomeEmail, "queueRefundOutcomeEmail");
async function writeRefundOutcome(ctx, refund, d) {
  await recordEmail(
    ctx.trx,
    {
      template: refund.status === "SUCCEEDED" ? "refund-completed" : "refund-failed",
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: d.id,
      data: { guestName: d.guestName, showName: d.showName, startsAt: d.startsAt, reservationReference: d.reference, amountVnd: refund.amountVnd, gateway: refund.gateway }
    },
    ledgerDeps(ctx.app)
  );
}
__name(writeRefundOutcome, "writeRefundOutcome");
async function queueHoldExpiredJob(trx, reservationIds, jobs8) {
  if (!jobs8 || reservationIds.length === 0) return;
  await jobs8.enqueue(HOLD_EXPIRED_QUEUE, { reservationIds }, { trx });
}
__name(queueHoldExpiredJob, "queueHoldExpiredJob");
async function sendHoldExpired(app, reservationIds, now = /* @__PURE__ */ new Date()) {
  let written = 0;
  for (const id of reservationIds) {
    const done = await app.db.knex.transaction(async (trx) => {
      const reservation = await lockReservationContact(trx, id);
      if (!reservation || reservation.status !== "EXPIRED" || !reservation.contactEmail) return false;
      if (await hasMessage(trx, id, "hold-expired")) return false;
      const d = await details(trx, app, id);
      const again = bookAgain(app, d, now);
      await recordEmail(
        trx,
        {
          template: "hold-expired",
          to: d.email,
          locale: d.locale,
          customerId: d.customerId,
          reservationId: id,
          data: { guestName: d.guestName, showName: d.showName, startsAt: d.startsAt, partySize: d.guestCount, reservationReference: d.reference, bookAgainUrl: again.url, sameEvent: again.sameEvent }
        },
        ledgerDeps(app)
      );
      return true;
    });
    if (done) written++;
  }
  return written;
}
__name(sendHoldExpired, "sendHoldExpired");

// server/modules/email/jobs.ts
var EMAIL_SEND_RETRY_LIMIT = 5;
function isFinalAttempt(job, retryLimit = EMAIL_SEND_RETRY_LIMIT) {
  return (job.retryCount ?? 0) >= (job.retryLimit ?? retryLimit);
}
__name(isFinalAttempt, "isFinalAttempt");
var emailSend = {
  name: EMAIL_SEND_QUEUE,
  // 6 attempts: at once, then about 30 s, 1 min, 2 min, 4 min, 8 min later (≈ 15 min of retries).
  retryLimit: EMAIL_SEND_RETRY_LIMIT,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  handler: /* @__PURE__ */ __name((job, deps) => deliverEmail({ knex: deps.db.knex, mailer: deps.mailer, logger: deps.logger }, job.data.messageId, {
    finalAttempt: isFinalAttempt(job)
  }), "handler")
};
function forEngine(definition) {
  const { handler, ...settings } = definition;
  return {
    ...settings,
    handler(data, job) {
      if (!job.app) throw new Error(`${definition.name}: the job engine was started without the app's services`);
      return handler({ id: job.id, data, retryCount: job.attempt - 1, retryLimit: job.retryLimit }, { db: job.app.db, mailer: job.app.mailer, logger: job.log });
    }
  };
}
__name(forEngine, "forEngine");
var definitions = [emailSend];
var guestMessageJobs = [
  {
    name: REMINDER_QUEUE,
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 60,
    async handler(data, job) {
      if (!job.app) throw new Error(`${REMINDER_QUEUE}: the job engine was started without the app's services`);
      const outcome = await sendReminder(job.app, data.reservationId);
      job.log.info({ reservationId: data.reservationId, outcome }, "reservation reminder");
      return { outcome };
    }
  },
  {
    name: HOLD_EXPIRED_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(data, job) {
      if (!job.app) throw new Error(`${HOLD_EXPIRED_QUEUE}: the job engine was started without the app's services`);
      const written = await sendHoldExpired(job.app, data.reservationIds ?? []);
      return { written };
    }
  }
];
var jobs3 = [...definitions.map(forEngine), ...guestMessageJobs];

// server/modules/email/subscribers.ts
var holdExpiredMessages = subscriber({
  name: "email.hold-expired",
  event: "holds.expired",
  phase: "in-transaction",
  order: 10,
  handle: /* @__PURE__ */ __name(({ reservationIds }, ctx) => queueHoldExpiredJob(ctx.trx, reservationIds, ctx.app.jobs), "handle")
});
var cancellationMessage = subscriber({
  name: "email.cancellation",
  event: "reservation.cancelled",
  phase: "in-transaction",
  order: 90,
  async handle({ reservationId, by, notifyGuest }, ctx) {
    if (!notifyGuest || by === "SYSTEM") return;
    await queueCancellationEmail(ctx, reservationId, by, ctx.now);
  }
});

// server/modules/email/index.ts
function record15() {
  return { tag: "email", handlers: handlers10, jobs: jobs3, subscribers: [holdExpiredMessages, cancellationMessage] };
}
__name(record15, "record");

// server/modules/fulfillment/commands/upsertFulfillmentItems.ts
import { isDeepStrictEqual } from "node:util";

// server/modules/fulfillment/models.ts
var FulfillmentItem = class extends BaseModel {
  static {
    __name(this, "FulfillmentItem");
  }
  static tableName = "fulfillment_items";
  static jsonAttributes = ["name", "dietaryTags"];
  code;
  name;
  kind;
  dietaryTags;
};

// server/modules/fulfillment/commands/upsertFulfillmentItems.ts
var fieldsOf = /* @__PURE__ */ __name((seed2) => ({ name: seed2.name, kind: seed2.kind, dietaryTags: [...new Set(seed2.dietaryTags ?? [])].sort() }), "fieldsOf");
async function upsertFulfillmentItems(app, seeds) {
  const errors = [];
  const firstIndex = /* @__PURE__ */ new Map();
  seeds.forEach((seed2, index) => {
    if (firstIndex.has(seed2.code)) errors.push({ path: `body/items/${index}/code`, message: `listed twice (also at ${firstIndex.get(seed2.code)})`, code: "duplicate_code" });
    else firstIndex.set(seed2.code, index);
  });
  if (errors.length) throw Unprocessable("duplicate_code", "A code appears twice in the list.", errors);
  const localeErrors = seeds.flatMap((seed2, index) => localizedErrors({ name: seed2.name }, app.config, `body/items/${index}`));
  if (localeErrors.length) throw localizedProblem(localeErrors);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      await catalogChanged(app, trx, { entity: "fulfillmentItem" });
      const existing = new Map(
        (await FulfillmentItem.query(trx).whereIn("code", [...firstIndex.keys()]).forUpdate()).map((item) => [item.code, item])
      );
      const results = [];
      for (const seed2 of seeds) {
        const fields = fieldsOf(seed2);
        const row = existing.get(seed2.code);
        if (!row) {
          results.push({ code: seed2.code, outcome: "created", item: await FulfillmentItem.query(trx).insertAndFetch({ code: seed2.code, ...fields }) });
        } else if (isDeepStrictEqual({ name: row.name, kind: row.kind, dietaryTags: row.dietaryTags }, fields)) {
          results.push({ code: seed2.code, outcome: "unchanged", item: row });
        } else {
          results.push({ code: seed2.code, outcome: "updated", item: await row.$query(trx).patchAndFetch(fields) });
        }
      }
      return results;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict("code_taken", "Another request created one of these codes at the same time; run it again.");
    throw err;
  }
}
__name(upsertFulfillmentItems, "upsertFulfillmentItems");
function countOutcomes(results) {
  const counts = { created: 0, updated: 0, unchanged: 0 };
  for (const { outcome } of results) counts[outcome] += 1;
  return counts;
}
__name(countOutcomes, "countOutcomes");

// server/modules/fulfillment/presenters.ts
function presentFulfillmentItem(item, config) {
  return {
    id: item.id,
    code: item.code,
    name: staffText(item.name, config),
    untranslated: untranslated({ name: item.name }, config),
    kind: item.kind,
    dietaryTags: [...item.dietaryTags ?? []],
    createdAt: iso2(item.createdAt),
    updatedAt: iso2(item.updatedAt)
  };
}
__name(presentFulfillmentItem, "presentFulfillmentItem");

// server/modules/fulfillment/queries.ts
async function listFulfillmentItems(filters) {
  const base = FulfillmentItem.query();
  if (filters.kind) base.where("kind", filters.kind);
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: "code" }, { column: "id" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listFulfillmentItems, "listFulfillmentItems");

// server/modules/fulfillment/handlers.ts
var handlers16 = {
  async listFulfillmentItems({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listFulfillmentItems({ kind: query.kind, limit, offset });
    return json(200, { items: page.items.map((item) => presentFulfillmentItem(item, app.config)), total: page.total, limit, offset });
  },
  async upsertFulfillmentItems({ app, body }) {
    const results = await upsertFulfillmentItems(app, body.items);
    return json(200, {
      counts: countOutcomes(results),
      results: results.map(({ code, outcome, item }) => ({ code, outcome, item: presentFulfillmentItem(item, app.config) }))
    });
  }
};

// server/modules/fulfillment/index.ts
function record16() {
  return { tag: "fulfillment", handlers: handlers16 };
}
__name(record16, "record");

// server/modules/offers/models.ts
var Offer = class extends BaseModel {
  static {
    __name(this, "Offer");
  }
  static tableName = "offers";
  static jsonAttributes = ["name", "description"];
  code;
  showId;
  name;
  description;
  bookingPath;
  experienceType;
  pricePerGuestVnd;
  minGuests;
  maxGuests;
  salesStartsAt;
  salesEndsAt;
  status;
  sortOrder;
};
var OfferItem = class extends BaseModel {
  static {
    __name(this, "OfferItem");
  }
  static tableName = "offer_items";
  static idColumn = ["offer_id", "fulfillment_item_id"];
  offerId;
  fulfillmentItemId;
  quantityPerGuest;
  $beforeUpdate() {
  }
};

// server/modules/offers/queries.ts
async function listOffers(filters) {
  const base = Offer.query();
  if (filters.showId) base.where("show_id", filters.showId);
  if (filters.status) base.where("status", filters.status);
  if (filters.bookingPath) base.where("booking_path", filters.bookingPath);
  const [offers, total] = await Promise.all([
    base.clone().orderBy([{ column: "sort_order" }, { column: "code" }, { column: "id" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items: await withItems(offers), total };
}
__name(listOffers, "listOffers");
async function findOfferOrFail(id, trx, options = {}) {
  const query = Offer.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const offer = await query;
  if (!offer) throw NotFound("No such offer.");
  return offer;
}
__name(findOfferOrFail, "findOfferOrFail");
async function withItems(offers, trx) {
  if (!offers.length) return [];
  const knex = trx ?? Offer.knex();
  const rows2 = await knex("offer_items").join("fulfillment_items", "fulfillment_items.id", "offer_items.fulfillment_item_id").whereIn("offer_items.offer_id", offers.map((offer) => offer.id)).orderBy([{ column: "fulfillment_items.code" }]).select("offer_items.offer_id", "offer_items.fulfillment_item_id", "fulfillment_items.code", "fulfillment_items.name", "fulfillment_items.kind", "offer_items.quantity_per_guest");
  const byOffer = /* @__PURE__ */ new Map();
  for (const row of rows2) {
    const list = byOffer.get(row.offer_id) ?? [];
    list.push({ fulfillmentItemId: row.fulfillment_item_id, code: row.code, name: row.name, kind: row.kind, quantityPerGuest: row.quantity_per_guest });
    byOffer.set(row.offer_id, list);
  }
  return offers.map((offer) => ({ offer, items: byOffer.get(offer.id) ?? [] }));
}
__name(withItems, "withItems");
async function findOfferWithItems(id, trx) {
  const [found] = await withItems([await findOfferOrFail(id, trx)], trx);
  return found;
}
__name(findOfferWithItems, "findOfferWithItems");
async function resolveItems(inputs, trx, prefix) {
  const codes = inputs.flatMap((input) => input.code ? [input.code] : []);
  const ids = inputs.flatMap((input) => input.fulfillmentItemId ? [input.fulfillmentItemId] : []);
  const rows2 = codes.length || ids.length ? await FulfillmentItem.query(trx).where((q) => q.whereIn("code", codes).orWhereIn("id", ids)).select("id", "code") : [];
  const byCode = new Map(rows2.map((row) => [row.code, row.id]));
  const known = new Set(rows2.map((row) => row.id));
  const errors = [];
  const items = [];
  const seen = /* @__PURE__ */ new Set();
  inputs.forEach((input, index) => {
    const id = input.code ? byCode.get(input.code) : known.has(input.fulfillmentItemId) ? input.fulfillmentItemId : void 0;
    const field = input.code ? "code" : "fulfillmentItemId";
    if (!id) {
      errors.push({ path: `${prefix}/${index}/${field}`, message: "no such fulfillment item", code: "unknown_fulfillment_item" });
    } else if (seen.has(id)) {
      errors.push({ path: `${prefix}/${index}/${field}`, message: "the item is listed twice", code: "duplicate_item" });
    } else {
      seen.add(id);
      items.push({ fulfillmentItemId: id, quantityPerGuest: input.quantityPerGuest });
    }
  });
  return { items, errors };
}
__name(resolveItems, "resolveItems");

// server/modules/offers/rules.ts
function offerFields(input) {
  return {
    name: input.name,
    description: input.description ?? {},
    bookingPath: input.bookingPath,
    experienceType: input.experienceType,
    pricePerGuestVnd: input.pricePerGuestVnd,
    minGuests: input.minGuests ?? 1,
    maxGuests: input.maxGuests ?? 10,
    salesStartsAt: input.salesStartsAt ? new Date(input.salesStartsAt) : null,
    salesEndsAt: input.salesEndsAt ? new Date(input.salesEndsAt) : null,
    status: input.status ?? "ACTIVE",
    sortOrder: input.sortOrder ?? 0
  };
}
__name(offerFields, "offerFields");
function rangeErrors(ranges, prefix, sent = () => true) {
  const errors = [];
  if (ranges.minGuests > ranges.maxGuests) {
    const field = sent("maxGuests") ? "maxGuests" : "minGuests";
    errors.push({ path: `${prefix}/${field}`, message: `minGuests (${ranges.minGuests}) must not exceed maxGuests (${ranges.maxGuests})`, code: "guest_range" });
  }
  if (ranges.salesStartsAt && ranges.salesEndsAt && new Date(ranges.salesStartsAt) >= new Date(ranges.salesEndsAt)) {
    const field = sent("salesEndsAt") ? "salesEndsAt" : "salesStartsAt";
    errors.push({ path: `${prefix}/${field}`, message: "salesStartsAt must be before salesEndsAt", code: "sales_window" });
  }
  return errors;
}
__name(rangeErrors, "rangeErrors");
var invalidOffer = /* @__PURE__ */ __name((errors) => UnprocessableFields("The offer is not acceptable as sent.", errors), "invalidOffer");

// server/modules/offers/commands/replaceItems.ts
async function replaceItems(offerId, items, trx) {
  await OfferItem.query(trx).where("offer_id", offerId).delete();
  if (items.length) {
    await OfferItem.query(trx).insert(items.map((item) => ({ offerId, fulfillmentItemId: item.fulfillmentItemId, quantityPerGuest: item.quantityPerGuest })));
  }
}
__name(replaceItems, "replaceItems");

// server/modules/offers/commands/createOffer.ts
var CodeTaken = /* @__PURE__ */ __name(() => Conflict("code_taken", "Another offer has this code."), "CodeTaken");
async function showErrors(showId, trx, path15) {
  if (!showId) return [];
  const show2 = await Show.query(trx).findById(showId).select("id");
  return show2 ? [] : [{ path: path15, message: "no such show", code: "unknown_show" }];
}
__name(showErrors, "showErrors");
async function createOffer(app, input) {
  assertLocalized({ name: input.name, description: input.description }, app.config);
  const fields = { code: input.code, showId: input.showId ?? null, ...offerFields(input) };
  const ranges = rangeErrors(fields, "body");
  if (ranges.length) throw invalidOffer(ranges);
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      await catalogChanged(app, trx, { entity: "offer" });
      const resolved = await resolveItems(input.items ?? [], trx, "body/items");
      const errors = [...await showErrors(fields.showId, trx, "body/showId"), ...resolved.errors];
      if (errors.length) throw invalidOffer(errors);
      const offer = await Offer.query(trx).insertAndFetch(fields);
      await replaceItems(offer.id, resolved.items, trx);
      return (await withItems([offer], trx))[0];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}
__name(createOffer, "createOffer");

// server/modules/offers/commands/deactivateOffer.ts
async function deactivateOffer(app, id) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "offer" });
    const offer = await findOfferOrFail(id, trx, { forUpdate: true });
    const result = offer.status === "INACTIVE" ? offer : await offer.$query(trx).patchAndFetch({ status: "INACTIVE" });
    return (await withItems([result], trx))[0];
  });
}
__name(deactivateOffer, "deactivateOffer");

// server/modules/offers/commands/updateOffer.ts
async function updateOffer(app, id, input) {
  assertLocalized({ name: input.name, description: input.description }, app.config);
  const { items, salesStartsAt, salesEndsAt, ...rest } = input;
  const patch = { ...rest };
  if (salesStartsAt !== void 0) patch.salesStartsAt = salesStartsAt ? new Date(salesStartsAt) : null;
  if (salesEndsAt !== void 0) patch.salesEndsAt = salesEndsAt ? new Date(salesEndsAt) : null;
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      await catalogChanged(app, trx, { entity: "offer" });
      const offer = await findOfferOrFail(id, trx, { forUpdate: true });
      const after = { ...offer, ...patch };
      const resolved = items ? await resolveItems(items, trx, "body/items") : void 0;
      const errors = [
        ...rangeErrors(after, "body", (field) => field in input),
        ...input.showId !== void 0 ? await showErrors(input.showId, trx, "body/showId") : [],
        ...resolved?.errors ?? []
      ];
      if (errors.length) throw invalidOffer(errors);
      const updated = await offer.$query(trx).patchAndFetch(patch);
      if (resolved) await replaceItems(offer.id, resolved.items, trx);
      return (await withItems([updated], trx))[0];
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}
__name(updateOffer, "updateOffer");

// server/modules/offers/commands/upsertOffers.ts
import { isDeepStrictEqual as isDeepStrictEqual2 } from "node:util";
var time = /* @__PURE__ */ __name((value) => value ? new Date(value).getTime() : null, "time");
function comparable(offer, items) {
  return {
    showId: offer.showId,
    name: offer.name,
    description: offer.description,
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    pricePerGuestVnd: offer.pricePerGuestVnd,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    salesStartsAt: time(offer.salesStartsAt),
    salesEndsAt: time(offer.salesEndsAt),
    status: offer.status,
    sortOrder: offer.sortOrder,
    items: Object.fromEntries(items.map((item) => [item.fulfillmentItemId, item.quantityPerGuest]))
  };
}
__name(comparable, "comparable");
async function upsertOffers(app, seeds) {
  const errors = [];
  const firstIndex = /* @__PURE__ */ new Map();
  const fields = seeds.map((seed2, index) => {
    const prefix = `body/offers/${index}`;
    if (firstIndex.has(seed2.code)) errors.push({ path: `${prefix}/code`, message: `listed twice (also at ${firstIndex.get(seed2.code)})`, code: "duplicate_code" });
    else firstIndex.set(seed2.code, index);
    const offer = offerFields(seed2);
    errors.push(...localizedErrors({ name: seed2.name, description: seed2.description }, app.config, prefix), ...rangeErrors(offer, prefix));
    return offer;
  });
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      await catalogChanged(app, trx, { entity: "offer" });
      const showCodes = [...new Set(seeds.flatMap((seed2) => seed2.showCode ? [seed2.showCode] : []))];
      const showIds = new Map(
        showCodes.length ? (await Show.query(trx).whereIn("code", showCodes).select("id", "code")).map((show2) => [show2.code, show2.id]) : []
      );
      const resolved = [];
      for (const [index, seed2] of seeds.entries()) {
        const prefix = `body/offers/${index}`;
        if (seed2.showCode && !showIds.has(seed2.showCode)) errors.push({ path: `${prefix}/showCode`, message: "no show has this code", code: "unknown_show" });
        const items = await resolveItems(seed2.items ?? [], trx, `${prefix}/items`);
        errors.push(...items.errors);
        resolved.push(items.items);
      }
      if (errors.length) throw invalidOffer(errors);
      const existing = new Map((await Offer.query(trx).whereIn("code", [...firstIndex.keys()]).forUpdate()).map((offer) => [offer.code, offer]));
      const stored = new Map((await withItems([...existing.values()], trx)).map((entry) => [entry.offer.code, entry.items]));
      const results = [];
      for (const [index, seed2] of seeds.entries()) {
        const wanted = { ...fields[index], showId: seed2.showCode ? showIds.get(seed2.showCode) : null };
        const items = resolved[index];
        const row = existing.get(seed2.code);
        let offer;
        let outcome;
        if (!row) {
          offer = await Offer.query(trx).insertAndFetch({ code: seed2.code, ...wanted });
          await replaceItems(offer.id, items, trx);
          outcome = "created";
        } else if (isDeepStrictEqual2(comparable(row, stored.get(seed2.code) ?? []), comparable(wanted, items))) {
          offer = row;
          outcome = "unchanged";
        } else {
          offer = await row.$query(trx).patchAndFetch(wanted);
          await replaceItems(offer.id, items, trx);
          outcome = "updated";
        }
        results.push({ code: seed2.code, outcome, offer: (await withItems([offer], trx))[0] });
      }
      return results;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict("code_taken", "Another request created one of these codes at the same time; run it again.");
    throw err;
  }
}
__name(upsertOffers, "upsertOffers");

// server/modules/offers/presenters.ts
function presentOffer2({ offer, items }, config) {
  return {
    id: offer.id,
    code: offer.code,
    showId: offer.showId,
    name: staffText(offer.name, config),
    description: staffText(offer.description, config),
    untranslated: untranslated({ name: offer.name, description: offer.description }, config),
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    pricePerGuestVnd: offer.pricePerGuestVnd,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    salesStartsAt: iso2(offer.salesStartsAt),
    salesEndsAt: iso2(offer.salesEndsAt),
    status: offer.status,
    sortOrder: offer.sortOrder,
    items: items.map((item) => ({
      fulfillmentItemId: item.fulfillmentItemId,
      code: item.code,
      name: staffText(item.name, config),
      kind: item.kind,
      quantityPerGuest: item.quantityPerGuest
    })),
    createdAt: iso2(offer.createdAt),
    updatedAt: iso2(offer.updatedAt)
  };
}
__name(presentOffer2, "presentOffer");

// server/modules/offers/handlers.ts
var handlers17 = {
  async listOffers({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listOffers({ showId: query.showId, status: query.status, bookingPath: query.bookingPath, limit, offset });
    return json(200, { items: page.items.map((offer) => presentOffer2(offer, app.config)), total: page.total, limit, offset });
  },
  async getOffer({ app, params }) {
    return json(200, presentOffer2(await findOfferWithItems(params.offerId), app.config));
  },
  async createOffer({ app, body }) {
    return json(201, presentOffer2(await createOffer(app, body), app.config));
  },
  async updateOffer({ app, params, body }) {
    return json(200, presentOffer2(await updateOffer(app, params.offerId, body), app.config));
  },
  async deactivateOffer({ app, params }) {
    return json(200, presentOffer2(await deactivateOffer(app, params.offerId), app.config));
  },
  async upsertOffers({ app, body }) {
    const results = await upsertOffers(app, body.offers);
    return json(200, {
      counts: countOutcomes(results),
      results: results.map(({ code, outcome, offer }) => ({ code, outcome, offer: presentOffer2(offer, app.config) }))
    });
  }
};

// server/modules/offers/index.ts
function record17() {
  return { tag: "offers", handlers: handlers17 };
}
__name(record17, "record");

// server/modules/tables/models.ts
var TABLE_ZONES = ["STAGE_FRONT", "VIP", "MAIN", "BALCONY"];
var VenueTable = class extends BaseModel {
  static {
    __name(this, "VenueTable");
  }
  static tableName = "venue_tables";
  code;
  zone;
  seats;
  sortOrder;
};

// server/modules/tables/commands/uniqueCode.ts
var CodeTaken2 = /* @__PURE__ */ __name(() => Conflict("code_taken", "Another table has this code."), "CodeTaken");
async function uniqueCode(write) {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken2();
    throw err;
  }
}
__name(uniqueCode, "uniqueCode");

// server/modules/tables/commands/createTable.ts
async function createTable(app, input) {
  return uniqueCode(() => inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => VenueTable.query(trx).insertAndFetch({ sortOrder: 0, ...input })));
}
__name(createTable, "createTable");

// server/modules/tables/commands/deleteTable.ts
async function deleteTable(app, id) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const deleted = await VenueTable.query(trx).deleteById(id);
    if (!deleted) throw NotFound("No such table.");
  });
}
__name(deleteTable, "deleteTable");

// server/modules/tables/commands/updateTable.ts
async function updateTable(app, id, patch) {
  const updated = await uniqueCode(
    () => inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => VenueTable.query(trx).patchAndFetchById(id, patch))
  );
  if (!updated) throw NotFound("No such table.");
  return updated;
}
__name(updateTable, "updateTable");

// server/modules/tables/presenters.ts
function presentTable(table2) {
  return {
    id: table2.id,
    code: table2.code,
    zone: table2.zone,
    seats: table2.seats,
    sortOrder: table2.sortOrder,
    createdAt: iso2(table2.createdAt),
    updatedAt: iso2(table2.updatedAt)
  };
}
__name(presentTable, "presentTable");

// server/modules/tables/queries.ts
var ZONE_ORDER = `case zone ${TABLE_ZONES.map((zone, index) => `when '${zone}' then ${index}`).join(" ")} end`;
async function listTables(filters) {
  const base = VenueTable.query();
  if (filters.zone) base.where("zone", filters.zone);
  const [items, total] = await Promise.all([
    base.clone().orderByRaw(`${ZONE_ORDER}, sort_order, code, id`).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listTables, "listTables");
async function findTableOrFail(id, trx) {
  const table2 = await VenueTable.query(trx).findById(id);
  if (!table2) throw NotFound("No such table.");
  return table2;
}
__name(findTableOrFail, "findTableOrFail");

// server/modules/tables/handlers.ts
var handlers18 = {
  async listTables({ query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listTables({ zone: query.zone, limit, offset });
    return json(200, { items: page.items.map(presentTable), total: page.total, limit, offset });
  },
  async getTable({ params }) {
    return json(200, presentTable(await findTableOrFail(params.tableId)));
  },
  async createTable({ app, body }) {
    return json(201, presentTable(await createTable(app, body)));
  },
  async updateTable({ app, params, body }) {
    return json(200, presentTable(await updateTable(app, params.tableId, body)));
  },
  async deleteTable({ app, params }) {
    await deleteTable(app, params.tableId);
    return noContent();
  }
};

// server/modules/tables/index.ts
function record18() {
  return { tag: "tables", handlers: handlers18 };
}
__name(record18, "record");

// server/modules/commercialSetup/models.ts
var CommercialSetup = class extends BaseModel {
  static {
    __name(this, "CommercialSetup");
  }
  static tableName = "commercial_setup";
  static jsonAttributes = ["paymentGateways"];
  bookingCutoffMinutes;
  holdMinutes;
  cancellationWindowHours;
  serviceChargePercent;
  vatPercent;
  paymentGateways;
  defaultMaxGuests;
  limitedAvailabilityThreshold;
  // numeric arrives as a string from pg.
  $parseDatabaseJson(json2) {
    const parsed = super.$parseDatabaseJson(json2);
    for (const key of ["serviceChargePercent", "vatPercent"]) {
      if (parsed[key] !== void 0 && parsed[key] !== null) parsed[key] = Number(parsed[key]);
    }
    return parsed;
  }
};

// server/modules/commercialSetup/commands/updateCommercialSetup.ts
async function updateCommercialSetup(app, patch) {
  const errors = [];
  for (const field of ["serviceChargePercent", "vatPercent"]) {
    const value = patch[field];
    if (value !== void 0 && Math.abs(Math.round(value * 100) - value * 100) > 1e-6) {
      errors.push({ path: `body/${field}`, message: "must have at most two decimals", code: "multipleOf" });
    }
  }
  if (errors.length) throw ValidationFailed(errors);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "commercialSetup" });
    return await CommercialSetup.query(trx).patchAndFetchById(1, patch);
  });
}
__name(updateCommercialSetup, "updateCommercialSetup");

// server/modules/commercialSetup/presenters.ts
function presentCommercialSetup(setup2) {
  return {
    bookingCutoffMinutes: setup2.bookingCutoffMinutes,
    holdMinutes: setup2.holdMinutes,
    cancellationWindowHours: setup2.cancellationWindowHours,
    serviceChargePercent: setup2.serviceChargePercent,
    vatPercent: setup2.vatPercent,
    paymentGateways: [...setup2.paymentGateways],
    defaultMaxGuests: setup2.defaultMaxGuests,
    limitedAvailabilityThreshold: setup2.limitedAvailabilityThreshold,
    updatedAt: iso2(setup2.updatedAt)
  };
}
__name(presentCommercialSetup, "presentCommercialSetup");

// server/modules/commercialSetup/queries.ts
async function getCommercialSetup() {
  return await CommercialSetup.query().findById(1);
}
__name(getCommercialSetup, "getCommercialSetup");

// server/modules/commercialSetup/handlers.ts
var handlers19 = {
  async getCommercialSetup() {
    return json(200, presentCommercialSetup(await getCommercialSetup()));
  },
  async updateCommercialSetup({ app, body }) {
    return json(200, presentCommercialSetup(await updateCommercialSetup(app, body)));
  }
};

// server/modules/commercialSetup/index.ts
function record19() {
  return { tag: "commercialSetup", handlers: handlers19 };
}
__name(record19, "record");

// server/modules/showEvents/models.ts
var ShowEvent = class extends BaseModel {
  static {
    __name(this, "ShowEvent");
  }
  static tableName = "show_events";
  showId;
  slug;
  startsAt;
  doorsAt;
  capacity;
  salesOpen;
  status;
  staffNotes;
  cancelledAt;
  cancellationReason;
  completedAt;
};

// server/modules/showEvents/queries.ts
async function listShowEvents(knex, zone, filters, paging) {
  const { limit, offset } = paging;
  const base = ShowEvent.query(knex);
  if (filters.showId) base.where("show_id", filters.showId);
  if (filters.status) base.where("status", filters.status);
  if (filters.salesOpen !== void 0) base.where("sales_open", filters.salesOpen);
  if (filters.from && filters.to && filters.from > filters.to) {
    throw Unprocessable("invalid_date_range", "`from` is after `to`.", [{ path: "query/from", message: "must not be after to", code: "range" }]);
  }
  if (filters.from && filters.to) {
    const { start, end } = localDateRange(filters.from, filters.to, zone);
    base.where("starts_at", ">=", start).where("starts_at", "<", end);
  } else if (filters.from) {
    base.where("starts_at", ">=", startOfLocalDay(filters.from, zone));
  } else if (filters.to) {
    base.where("starts_at", "<", localDateRange(filters.to, filters.to, zone).end);
  }
  const items = await base.clone().orderBy([{ column: "starts_at" }, { column: "id" }]).limit(limit).offset(offset);
  const total = await base.clone().resultSize();
  return { items, total, limit, offset };
}
__name(listShowEvents, "listShowEvents");
async function getShowEvent(knex, id) {
  const event2 = await ShowEvent.query(knex).findById(id);
  if (!event2) throw NotFound("No such show event.");
  return event2;
}
__name(getShowEvent, "getShowEvent");
async function showsOf(knex, events) {
  const ids = [...new Set(events.map((event2) => event2.showId))];
  const shows = ids.length ? await Show.query(knex).whereIn("id", ids) : [];
  return new Map(shows.map((show2) => [show2.id, show2]));
}
__name(showsOf, "showsOf");
async function lockShowEvent2(trx, id) {
  const event2 = await ShowEvent.query(trx).findById(id).forUpdate();
  if (!event2) throw NotFound("No such show event.");
  return event2;
}
__name(lockShowEvent2, "lockShowEvent");
async function bookingTotals(knex, eventId) {
  const live = /* @__PURE__ */ __name((q) => q.where("r.show_event_id", eventId).whereIn("r.status", ["CONFIRMED", "CHECKED_IN"]), "live");
  const [offers, zones] = await Promise.all([
    live(knex("reservations as r")).groupBy("r.offer_id").select(
      "r.offer_id",
      knex.raw("coalesce(sum(r.guest_count), 0) as guests"),
      knex.raw("coalesce(sum(case when r.status = 'CHECKED_IN' then r.guest_count else 0 end), 0) as checked_in"),
      knex.raw("count(*) as parties"),
      knex.raw("count(*) filter (where r.status = 'CHECKED_IN') as parties_checked_in")
    ),
    live(knex("reservations as r").join("venue_tables as t", "t.id", "r.table_id")).groupBy("t.zone").select("t.zone", knex.raw("count(distinct t.id) as tables_in_use"), knex.raw("coalesce(sum(r.guest_count), 0) as guests_seated"))
  ]);
  return {
    byOffer: new Map(
      offers.map((row) => [
        row.offer_id,
        { guests: Number(row.guests), checkedIn: Number(row.checked_in), parties: Number(row.parties), partiesCheckedIn: Number(row.parties_checked_in) }
      ])
    ),
    byZone: new Map(zones.map((row) => [row.zone, { tablesInUse: Number(row.tables_in_use), guestsSeated: Number(row.guests_seated) }]))
  };
}
__name(bookingTotals, "bookingTotals");
async function offerRows(knex, showId, bookedOfferIds) {
  return knex("offers as o").leftJoin("offer_items as oi", "oi.offer_id", "o.id").leftJoin("fulfillment_items as f", "f.id", "oi.fulfillment_item_id").where((q) => {
    q.where("o.status", "ACTIVE").andWhere((s) => s.where("o.show_id", showId).orWhereNull("o.show_id"));
    if (bookedOfferIds.length) q.orWhereIn("o.id", bookedOfferIds);
  }).orderBy([{ column: "o.sort_order" }, { column: "o.code" }, { column: "f.code" }]).select(
    "o.id as offer_id",
    "o.code as offer_code",
    "o.name as offer_name",
    "o.booking_path",
    "o.experience_type",
    "o.show_id",
    "f.id as fulfillment_item_id",
    "f.code as item_code",
    "f.name as item_name",
    "f.kind",
    "f.dietary_tags",
    "oi.quantity_per_guest"
  );
}
__name(offerRows, "offerRows");
async function zoneRows(knex) {
  const rows2 = await knex("venue_tables").groupBy("zone").select("zone", knex.raw("count(*) as tables"), knex.raw("coalesce(sum(seats), 0) as seats"));
  return rows2.map((row) => ({ zone: row.zone, tables: Number(row.tables), seats: Number(row.seats) }));
}
__name(zoneRows, "zoneRows");
async function takenSlugs(trx, slugs) {
  return new Set(slugs.length ? (await ShowEvent.query(trx).whereIn("slug", slugs).select("slug")).map((event2) => event2.slug) : []);
}
__name(takenSlugs, "takenSlugs");
async function insertEventsIgnoringTakenSlugs(trx, rows2) {
  const inserted = rows2.length ? await trx("show_events").insert(rows2).onConflict("slug").ignore().returning("slug") : [];
  return inserted.map((row) => row.slug);
}
__name(insertEventsIgnoringTakenSlugs, "insertEventsIgnoringTakenSlugs");
async function lockEventsTable(trx) {
  await trx.raw("lock table show_events in share row exclusive mode");
}
__name(lockEventsTable, "lockEventsTable");
async function eventsWithShowSlugs(trx) {
  const rows2 = await trx("show_events as e").join("shows as s", "s.id", "e.show_id").orderBy([{ column: "e.starts_at" }, { column: "e.id" }]).select("e.id", "e.slug", "e.starts_at", "s.slug as show_slug");
  return rows2.map((row) => ({ id: row.id, slug: row.slug, startsAt: row.starts_at, showSlug: row.show_slug }));
}
__name(eventsWithShowSlugs, "eventsWithShowSlugs");
async function rewriteSlugs(trx, changes) {
  await trx("show_events").whereIn("id", changes.map((change) => change.eventId)).update({ slug: null });
  for (const change of changes) await trx("show_events").where("id", change.eventId).update({ slug: change.to, updated_at: trx.fn.now() });
}
__name(rewriteSlugs, "rewriteSlugs");

// server/modules/showEvents/commands/cancellationFlow.ts
async function cancelEvent(app, input, now = /* @__PURE__ */ new Date()) {
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx, afterCommit }) => {
      const locked = await lockShowEvent2(trx, input.id);
      if (locked.status === "COMPLETED") throw Conflict("event_completed", "A completed event cannot be cancelled.");
      const alreadyCancelled = locked.status === "CANCELLED";
      const event2 = alreadyCancelled ? locked : await ShowEvent.query(trx).patchAndFetchById(input.id, { status: "CANCELLED", cancelledAt: now, cancellationReason: input.reason, salesOpen: false });
      const results = await publish({ trx, app, actor: input.actor, now, afterCommit }, "showEvent.cancelled", {
        event: event2,
        reason: event2.cancellationReason,
        actor: input.actor,
        alreadyCancelled
      });
      const hooks = results.map(({ name, result }) => ({ name, summary: result ?? {} }));
      const show2 = await Show.query(trx).findById(event2.showId);
      return { event: event2, show: show2, alreadyCancelled, hooks };
    },
    now
  );
}
__name(cancelEvent, "cancelEvent");

// server/modules/showEvents/commands/archiveShowEvent.ts
function archiveShowEvent(app, id, actor) {
  return cancelEvent(app, { id, reason: null, actor });
}
__name(archiveShowEvent, "archiveShowEvent");

// server/modules/showEvents/commands/backfillEventSlugs.ts
function slugFits(slug, canonical2) {
  if (slug === null) return false;
  if (slug === canonical2) return true;
  const suffix = slug.startsWith(`${canonical2}-`) ? slug.slice(canonical2.length + 1) : "";
  return /^[1-9][0-9]*$/.test(suffix) && Number(suffix) >= 2;
}
__name(slugFits, "slugFits");
async function backfillEventSlugs(app, options) {
  const zone = app.config.venueTimezone;
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "showEvent" });
    if (!options.dryRun) await lockEventsTable(trx);
    const events = await eventsWithShowSlugs(trx);
    const canonical2 = new Map(events.map((event2) => [event2.id, eventSlug(event2.showSlug, new Date(event2.startsAt), zone)]));
    const stale = events.filter((event2) => !slugFits(event2.slug, canonical2.get(event2.id)));
    const staleIds = new Set(stale.map((event2) => event2.id));
    const taken = new Set(events.filter((event2) => !staleIds.has(event2.id)).map((event2) => event2.slug));
    const changes = stale.map((event2) => {
      const base = canonical2.get(event2.id);
      let slug = base;
      for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
      taken.add(slug);
      return { eventId: event2.id, from: event2.slug, to: slug };
    });
    if (!options.dryRun && changes.length) await rewriteSlugs(trx, changes);
    return { dryRun: options.dryRun, scanned: events.length, changed: changes.length, unchanged: events.length - changes.length, changes };
  });
}
__name(backfillEventSlugs, "backfillEventSlugs");

// server/modules/showEvents/commands/cancelShowEvent.ts
function cancelShowEvent(app, id, reason, actor) {
  return cancelEvent(app, { id, reason, actor });
}
__name(cancelShowEvent, "cancelShowEvent");

// server/modules/showEvents/commands/eventChange.ts
async function changeShowEvent(app, id, change) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "showEvent" });
    const event2 = await change(trx, await lockShowEvent2(trx, id));
    const show2 = await Show.query(trx).findById(event2.showId);
    return { event: event2, show: show2 };
  });
}
__name(changeShowEvent, "changeShowEvent");
async function withSlugCheck(trx, slug, exceptId, write) {
  const holder = await ShowEvent.query(trx).select("id").where("slug", slug).modify((q) => exceptId && q.whereNot("id", exceptId)).first();
  if (holder) throw slugTaken(slug);
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(slug);
    throw err;
  }
}
__name(withSlugCheck, "withSlugCheck");
var slugTaken = /* @__PURE__ */ __name((slug) => Conflict("event_exists", `The show already has an event at that local time (${slug}).`), "slugTaken");

// server/modules/showEvents/commands/closeShowEventSales.ts
function closeShowEventSales(app, id) {
  return changeShowEvent(app, id, async (trx, event2) => {
    if (!event2.salesOpen) return event2;
    return ShowEvent.query(trx).patchAndFetchById(id, { salesOpen: false });
  });
}
__name(closeShowEventSales, "closeShowEventSales");

// server/modules/showEvents/commands/completeShowEvent.ts
function completeShowEvent(app, id, now = /* @__PURE__ */ new Date()) {
  return changeShowEvent(app, id, async (trx, event2) => {
    if (event2.status === "COMPLETED") return event2;
    if (event2.status === "CANCELLED") throw Conflict("event_cancelled", "A cancelled event cannot be completed.");
    if (new Date(event2.startsAt) > now) throw Conflict("event_not_started", "The event has not started yet.");
    return ShowEvent.query(trx).patchAndFetchById(id, { status: "COMPLETED", completedAt: now, salesOpen: false });
  });
}
__name(completeShowEvent, "completeShowEvent");

// server/modules/showEvents/rules.ts
var eventClosed = /* @__PURE__ */ __name((event2) => Conflict("event_closed", `The event is ${event2.status.toLowerCase()}; only a scheduled event changes.`), "eventClosed");
function checkDoors(startsAt, doorsAt) {
  if (doorsAt && doorsAt > startsAt) {
    throw Unprocessable("doors_after_start", "Doors cannot open after the show starts.", [{ path: "body/doorsAt", message: "must not be after startsAt", code: "range" }]);
  }
}
__name(checkDoors, "checkDoors");

// server/modules/showEvents/commands/createShowEvent.ts
async function createShowEvent(app, input, now = /* @__PURE__ */ new Date()) {
  const zone = app.config.venueTimezone;
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "showEvent" });
    const show2 = await Show.query(trx).findById(input.showId).forShare();
    if (!show2) throw Unprocessable("unknown_show", "No show has this id.", [{ path: "body/showId", message: "no such show", code: "not_found" }]);
    if (show2.status === "ARCHIVED") throw Conflict("show_archived", "The show is archived and takes no new events.");
    const startsAt = new Date(input.startsAt);
    const doorsAt = input.doorsAt ? new Date(input.doorsAt) : null;
    checkDoors(startsAt, doorsAt);
    if (input.salesOpen && startsAt <= now) {
      throw Unprocessable("event_started", "Sales cannot open on an event that has already started.", [{ path: "body/salesOpen", message: "the event has started", code: "state" }]);
    }
    const slug = eventSlug(show2.slug, startsAt, zone);
    const event2 = await withSlugCheck(
      trx,
      slug,
      null,
      () => ShowEvent.query(trx).insertAndFetch({
        showId: show2.id,
        slug,
        startsAt,
        doorsAt,
        capacity: input.capacity,
        salesOpen: input.salesOpen ?? false,
        status: "SCHEDULED",
        staffNotes: input.staffNotes ?? null
      })
    );
    return { event: event2, show: show2 };
  });
}
__name(createShowEvent, "createShowEvent");

// server/modules/showEvents/commands/createShowEventBatch.ts
var MAX_BATCH_DAYS = 366;
var MAX_BATCH_EVENTS = 1e3;
function scheduleDays(input) {
  if (input.from > input.to) {
    throw Unprocessable("invalid_date_range", "`from` is after `to`.", [{ path: "body/from", message: "must not be after to", code: "range" }]);
  }
  if (input.to > addDays(input.from, MAX_BATCH_DAYS - 1)) {
    throw Unprocessable("range_too_long", `A schedule covers at most ${MAX_BATCH_DAYS} days.`, [{ path: "body/to", message: `at most ${MAX_BATCH_DAYS} days after from`, code: "range" }]);
  }
  let days;
  if (input.dates) {
    const outside = input.dates.flatMap(
      (date, index) => date < input.from || date > input.to ? [{ path: `body/dates/${index}`, message: "is outside from..to", code: "range" }] : []
    );
    if (outside.length) throw Unprocessable("date_out_of_range", "Every date must lie between `from` and `to`.", outside);
    days = [...input.dates].sort();
  } else {
    days = datesOnWeekdays(input.from, input.to, input.weekdays ?? []);
  }
  const count = days.length * input.times.length;
  if (count > MAX_BATCH_EVENTS) {
    throw Unprocessable("batch_too_large", `The schedule makes ${count} events; at most ${MAX_BATCH_EVENTS} per call.`);
  }
  return days;
}
__name(scheduleDays, "scheduleDays");
async function findShow(trx, input) {
  const query = Show.query(trx).forShare();
  const show2 = await (input.showId ? query.findById(input.showId) : query.findOne({ code: input.showCode }));
  const field = input.showId ? "body/showId" : "body/showCode";
  if (!show2) throw Unprocessable("unknown_show", "No such show.", [{ path: field, message: "no such show", code: "not_found" }]);
  if (show2.status === "ARCHIVED") throw Conflict("show_archived", "The show is archived and takes no new events.");
  return show2;
}
__name(findShow, "findShow");
async function createShowEventBatch(app, input, now = /* @__PURE__ */ new Date()) {
  const zone = app.config.venueTimezone;
  const days = scheduleDays(input);
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await catalogChanged(app, trx, { entity: "showEvent" });
    const show2 = await findShow(trx, input);
    const planned = /* @__PURE__ */ new Map();
    for (const date of days) {
      for (const time2 of [...input.times].sort()) {
        const startsAt = atLocal(date, time2, zone);
        const doorsAt = input.doorsMinutesBefore === void 0 ? null : new Date(startsAt.getTime() - input.doorsMinutesBefore * 6e4);
        const slug = eventSlug(show2.slug, startsAt, zone);
        if (!planned.has(slug)) planned.set(slug, { startsAt, doorsAt });
      }
    }
    const slugs = [...planned.keys()];
    const existing = await takenSlugs(trx, slugs);
    const rows2 = slugs.filter((slug) => !existing.has(slug)).map((slug) => {
      const { startsAt, doorsAt } = planned.get(slug);
      return {
        show_id: show2.id,
        slug,
        starts_at: startsAt,
        doors_at: doorsAt,
        capacity: input.capacity,
        sales_open: Boolean(input.salesOpen) && startsAt > now,
        status: "SCHEDULED"
      };
    });
    const created = new Set(await insertEventsIgnoringTakenSlugs(trx, rows2));
    return {
      showId: show2.id,
      created: created.size,
      unchanged: slugs.length - created.size,
      createdSlugs: slugs.filter((slug) => created.has(slug))
    };
  });
}
__name(createShowEventBatch, "createShowEventBatch");

// server/modules/showEvents/commands/openShowEventSales.ts
function openShowEventSales(app, id, now = /* @__PURE__ */ new Date()) {
  return changeShowEvent(app, id, async (trx, event2) => {
    if (event2.status !== "SCHEDULED") throw eventClosed(event2);
    if (new Date(event2.startsAt) <= now) throw Conflict("event_started", "The event has started; sales cannot open.");
    if (event2.salesOpen) return event2;
    return ShowEvent.query(trx).patchAndFetchById(id, { salesOpen: true });
  });
}
__name(openShowEventSales, "openShowEventSales");

// server/modules/showEvents/commands/updateShowEvent.ts
async function updateShowEvent(app, id, input) {
  const zone = app.config.venueTimezone;
  return changeShowEvent(app, id, async (trx, event2) => {
    if (event2.status !== "SCHEDULED") throw eventClosed(event2);
    const oldStart = new Date(event2.startsAt);
    const startsAt = input.startsAt ? new Date(input.startsAt) : oldStart;
    let doorsAt = event2.doorsAt ? new Date(event2.doorsAt) : null;
    if (input.doorsAt !== void 0) doorsAt = input.doorsAt ? new Date(input.doorsAt) : null;
    else if (doorsAt) doorsAt = new Date(doorsAt.getTime() + (startsAt.getTime() - oldStart.getTime()));
    checkDoors(startsAt, doorsAt);
    const patch = { startsAt, doorsAt };
    if (input.capacity !== void 0) patch.capacity = input.capacity;
    if (input.staffNotes !== void 0) patch.staffNotes = input.staffNotes;
    if (startsAt.getTime() === oldStart.getTime()) return ShowEvent.query(trx).patchAndFetchById(id, patch);
    const show2 = await Show.query(trx).findById(event2.showId);
    const slug = eventSlug(show2.slug, startsAt, zone);
    return withSlugCheck(trx, slug, id, () => ShowEvent.query(trx).patchAndFetchById(id, { ...patch, slug }));
  });
}
__name(updateShowEvent, "updateShowEvent");

// server/modules/showEvents/presenters.ts
function presentEventShow(show2, settings) {
  return { id: show2.id, code: show2.code, slug: show2.slug, status: show2.status, title: fillLocales(show2.title, settings.siteLocales, settings.defaultLocale) };
}
__name(presentEventShow, "presentEventShow");
function presentShowEvent(event2, show2, settings) {
  const zone = settings.venueTimezone;
  const start = toLocal(new Date(event2.startsAt), zone);
  return {
    id: event2.id,
    showId: event2.showId,
    show: presentEventShow(show2, settings),
    slug: event2.slug,
    status: event2.status,
    startsAt: iso2(event2.startsAt),
    doorsAt: iso2(event2.doorsAt),
    timezone: zone,
    localDate: start.date,
    localTime: start.time,
    weekday: start.weekday,
    doorsLocalTime: event2.doorsAt ? toLocal(new Date(event2.doorsAt), zone).time : null,
    capacity: event2.capacity,
    salesOpen: event2.salesOpen,
    staffNotes: event2.staffNotes,
    cancelledAt: iso2(event2.cancelledAt),
    cancellationReason: event2.cancellationReason,
    completedAt: iso2(event2.completedAt),
    createdAt: iso2(event2.createdAt),
    updatedAt: iso2(event2.updatedAt)
  };
}
__name(presentShowEvent, "presentShowEvent");

// server/modules/showEvents/logistics.ts
async function eventLogistics(knex, event2, show2, settings, countBookings = bookingTotals) {
  const localized2 = /* @__PURE__ */ __name((text) => fillLocales(text, settings.siteLocales, settings.defaultLocale), "localized");
  const bookings = await countBookings(knex, event2.id);
  const rows2 = await offerRows(knex, show2.id, [...bookings.byOffer.keys()]);
  const zones = await zoneRows(knex);
  const itemOf = /* @__PURE__ */ __name((row, guests) => ({
    fulfillmentItemId: row.fulfillment_item_id,
    code: row.item_code,
    name: localized2(row.item_name),
    kind: row.kind,
    dietaryTags: row.dietary_tags ?? [],
    quantityPerGuest: row.quantity_per_guest,
    toPrepare: row.quantity_per_guest * guests
  }), "itemOf");
  const offers = /* @__PURE__ */ new Map();
  for (const row of rows2) {
    let offer = offers.get(row.offer_id);
    if (!offer) {
      offer = {
        offerId: row.offer_id,
        code: row.offer_code,
        name: localized2(row.offer_name),
        bookingPath: row.booking_path,
        experienceType: row.experience_type,
        showSpecific: row.show_id !== null,
        guests: bookings.byOffer.get(row.offer_id)?.guests ?? 0,
        checkedIn: bookings.byOffer.get(row.offer_id)?.checkedIn ?? 0,
        items: []
      };
      offers.set(row.offer_id, offer);
    }
    if (row.fulfillment_item_id) offer.items.push(itemOf(row, offer.guests));
  }
  const fulfillment = /* @__PURE__ */ new Map();
  for (const offer of offers.values()) {
    for (const item of offer.items) {
      const total = fulfillment.get(item.fulfillmentItemId);
      if (total) total.toPrepare += item.toPrepare;
      else fulfillment.set(item.fulfillmentItemId, { fulfillmentItemId: item.fulfillmentItemId, code: item.code, name: item.name, kind: item.kind, dietaryTags: item.dietaryTags, toPrepare: item.toPrepare });
    }
  }
  const dietary = /* @__PURE__ */ new Map();
  for (const item of fulfillment.values()) for (const tag of item.dietaryTags) dietary.set(tag, (dietary.get(tag) ?? 0) + item.toPrepare);
  let expected2 = 0;
  let checkedIn = 0;
  const parties = { expected: 0, checkedIn: 0 };
  for (const counts of bookings.byOffer.values()) {
    expected2 += counts.guests;
    checkedIn += counts.checkedIn;
    parties.expected += counts.parties;
    parties.checkedIn += counts.partiesCheckedIn;
  }
  const floor = new Map(zones.map((zone) => [zone.zone, zone]));
  return {
    event: presentShowEvent(event2, show2, settings),
    show: { id: show2.id, code: show2.code, title: localized2(show2.title), durationMinutes: show2.durationMinutes },
    guests: { capacity: event2.capacity, expected: expected2, checkedIn, remaining: event2.capacity - expected2 },
    parties,
    zones: TABLE_ZONES.map((zone) => ({
      zone,
      tables: floor.get(zone)?.tables ?? 0,
      seats: floor.get(zone)?.seats ?? 0,
      tablesInUse: bookings.byZone.get(zone)?.tablesInUse ?? 0,
      guestsSeated: bookings.byZone.get(zone)?.guestsSeated ?? 0
    })),
    offers: [...offers.values()],
    fulfillment: [...fulfillment.values()].sort((a, b) => a.code.localeCompare(b.code)),
    dietaryTags: [...dietary.entries()].map(([tag, count]) => ({ tag, count })).sort((a, b) => a.tag.localeCompare(b.tag)),
    staffNotes: event2.staffNotes
  };
}
__name(eventLogistics, "eventLogistics");

// server/modules/showEvents/handlers.ts
var present = /* @__PURE__ */ __name((call, { event: event2, show: show2 }) => presentShowEvent(event2, show2, call.app.config), "present");
var presentCancellation = /* @__PURE__ */ __name((call, result) => json(200, { event: present(call, result), alreadyCancelled: result.alreadyCancelled, hooks: result.hooks }), "presentCancellation");
var handlers20 = {
  async listShowEvents(call) {
    const { limit = 20, offset = 0, ...filters } = call.query;
    const knex = call.app.db.knex;
    const page = await listShowEvents(knex, call.app.config.venueTimezone, filters, { limit, offset });
    const shows = await showsOf(knex, page.items);
    return json(200, { ...page, items: page.items.map((event2) => present(call, { event: event2, show: shows.get(event2.showId) })) });
  },
  async getShowEvent(call) {
    const event2 = await getShowEvent(call.app.db.knex, call.params.eventId);
    const shows = await showsOf(call.app.db.knex, [event2]);
    return json(200, present(call, { event: event2, show: shows.get(event2.showId) }));
  },
  async createShowEvent(call) {
    return json(201, present(call, await createShowEvent(call.app, call.body)));
  },
  async updateShowEvent(call) {
    return json(200, present(call, await updateShowEvent(call.app, call.params.eventId, call.body)));
  },
  async archiveShowEvent(call) {
    return presentCancellation(call, await archiveShowEvent(call.app, call.params.eventId, staffActor(call.auth)));
  },
  async cancelShowEvent(call) {
    return presentCancellation(call, await cancelShowEvent(call.app, call.params.eventId, call.body.reason, staffActor(call.auth)));
  },
  async openShowEventSales(call) {
    return json(200, present(call, await openShowEventSales(call.app, call.params.eventId)));
  },
  async closeShowEventSales(call) {
    return json(200, present(call, await closeShowEventSales(call.app, call.params.eventId)));
  },
  async completeShowEvent(call) {
    return json(200, present(call, await completeShowEvent(call.app, call.params.eventId)));
  },
  async getShowEventLogistics(call) {
    const knex = call.app.db.knex;
    const event2 = await getShowEvent(knex, call.params.eventId);
    const shows = await showsOf(knex, [event2]);
    return json(200, await eventLogistics(knex, event2, shows.get(event2.showId), call.app.config));
  },
  async createShowEventBatch(call) {
    return json(200, await createShowEventBatch(call.app, call.body));
  },
  async backfillEventSlugs(call) {
    return json(200, await backfillEventSlugs(call.app, { dryRun: call.body.dryRun }));
  }
};

// server/modules/showEvents/index.ts
function record20() {
  return { tag: "showEvents", handlers: handlers20 };
}
__name(record20, "record");

// server/modules/customers/models.ts
var Customer = class extends BaseModel {
  static {
    __name(this, "Customer");
  }
  static tableName = "customers";
  honorific;
  name;
  email;
  emailNormalized;
  phone;
  locale;
  isDeleted;
  deletedAt;
};
var CustomerEmail = class extends RecordModel {
  static {
    __name(this, "CustomerEmail");
  }
  static tableName = "customer_emails";
  id;
  customerId;
  email;
  emailNormalized;
  firstSeenAt;
  lastSeenAt;
};

// server/modules/customers/queries.ts
var BOOKING_HISTORY_CAP = 50;
var NoSuchCustomer = /* @__PURE__ */ __name(() => NotFound("No such customer."), "NoSuchCustomer");
var EmailTaken = /* @__PURE__ */ __name(() => Conflict("email_taken", "Another live customer has this e-mail address."), "EmailTaken");
var CustomerDeleted = /* @__PURE__ */ __name(() => Conflict("customer_deleted", "The customer was deleted; it cannot be changed."), "CustomerDeleted");
async function listCustomers(knex, filters) {
  const base = Customer.query(knex).alias("c");
  if (!filters.includeDeleted) base.where("c.is_deleted", false);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where(
      (w) => w.where("c.name", "ilike", pattern).orWhere("c.email", "ilike", pattern).orWhere("c.phone", "ilike", pattern).orWhereExists(knex("reservations as r").select(knex.raw("1")).whereRaw("r.customer_id = c.id").andWhere("r.reference", "ilike", pattern))
    );
  }
  const [items, total] = await Promise.all([
    base.clone().select("c.*").orderBy([{ column: "c.created_at", order: "desc" }, { column: "c.id", order: "asc" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listCustomers, "listCustomers");
async function findCustomerOrFail(knex, id) {
  const customer2 = await Customer.query(knex).findById(id);
  if (!customer2) throw NoSuchCustomer();
  return customer2;
}
__name(findCustomerOrFail, "findCustomerOrFail");
async function lockCustomer(trx, id) {
  const customer2 = await Customer.query(trx).findById(id).forUpdate();
  if (!customer2) throw NoSuchCustomer();
  return customer2;
}
__name(lockCustomer, "lockCustomer");
async function customerDetail(knex, id) {
  const customer2 = await findCustomerOrFail(knex, id);
  const [bookings, counted, emails] = await Promise.all([
    knex("reservations as r").join("show_events as e", "e.id", "r.show_event_id").join("shows as s", "s.id", "e.show_id").where("r.customer_id", id).orderBy([{ column: "r.created_at", order: "desc" }, { column: "r.id", order: "asc" }]).limit(BOOKING_HISTORY_CAP).select(
      "r.id",
      "r.reference",
      "r.status",
      "e.slug as event_slug",
      "e.starts_at as event_starts_at",
      "s.title as show_title",
      "r.guest_count",
      "r.total_vnd",
      "r.contact_honorific",
      "r.contact_name",
      "r.contact_email",
      "r.contact_phone",
      "r.created_at"
    ),
    knex("reservations").where("customer_id", id).count({ n: "*" }).first(),
    CustomerEmail.query(knex).where("customer_id", id).orderBy([{ column: "first_seen_at" }, { column: "id" }]).select("email", "first_seen_at", "last_seen_at")
  ]);
  return {
    customer: customer2,
    bookings: bookings.map(
      (row) => ({
        id: row.id,
        reference: row.reference,
        status: row.status,
        eventSlug: row.event_slug,
        eventStartsAt: row.event_starts_at,
        showTitle: row.show_title,
        guestCount: row.guest_count,
        totalVnd: Number(row.total_vnd),
        contactHonorific: row.contact_honorific,
        contactName: row.contact_name,
        contactEmail: row.contact_email,
        contactPhone: row.contact_phone,
        createdAt: row.created_at
      })
    ),
    bookingsTotal: Number(counted?.n ?? 0),
    emails
  };
}
__name(customerDetail, "customerDetail");
async function noteCustomerEmail(trx, customerId, email, emailNormalized) {
  await trx.raw(
    `insert into customer_emails (customer_id, email, email_normalized) values (?, ?, ?)
     on conflict (customer_id, email_normalized) do update set last_seen_at = now(), email = excluded.email`,
    [customerId, email, emailNormalized]
  );
}
__name(noteCustomerEmail, "noteCustomerEmail");
async function bookedContactOf(trx, reservationId) {
  const row = await trx("reservations").where({ id: reservationId }).first("customer_id", "contact_honorific", "contact_name", "contact_phone");
  return row && { customerId: row.customer_id, honorific: row.contact_honorific, name: row.contact_name, phone: row.contact_phone };
}
__name(bookedContactOf, "bookedContactOf");
async function isCustomersReservation(trx, customerId, reservationId) {
  return Boolean(await trx("reservations").where({ id: reservationId, customer_id: customerId }).first("id"));
}
__name(isCustomersReservation, "isCustomersReservation");
var OWNED = ["reservations", "customer_leads", "waitlist_entries", "inquiries", "email_messages"];
async function moveCustomerRows(trx, fromCustomerId, toCustomerId) {
  for (const table2 of OWNED) await trx(table2).where({ customer_id: fromCustomerId }).update({ customer_id: toCustomerId });
  await trx.raw(
    `insert into customer_emails (customer_id, email, email_normalized, first_seen_at, last_seen_at)
     select ?, email, email_normalized, first_seen_at, last_seen_at from customer_emails where customer_id = ?
     on conflict (customer_id, email_normalized) do update set
       first_seen_at = least(customer_emails.first_seen_at, excluded.first_seen_at),
       last_seen_at = greatest(customer_emails.last_seen_at, excluded.last_seen_at)`,
    [toCustomerId, fromCustomerId]
  );
}
__name(moveCustomerRows, "moveCustomerRows");

// server/modules/customers/commands/adoptCustomerContact.ts
async function adoptCustomerContact(app, customerId, input) {
  const fields = input.fields ?? ["honorific", "name", "phone"];
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const customer2 = await lockCustomer(trx, customerId);
    if (customer2.isDeleted) throw CustomerDeleted();
    const booked = await bookedContactOf(trx, input.reservationId);
    if (!booked || booked.customerId !== customerId) {
      throw Unprocessable("reservation_not_customers", "The reservation is not one of this customer's.", [
        { path: "body/reservationId", message: "is not one of this customer's reservations", code: "reservation_not_customers" }
      ]);
    }
    const changes = {};
    for (const field of fields) Object.assign(changes, { [field]: booked[field] });
    return Customer.query(trx).patchAndFetchById(customerId, changes);
  });
}
__name(adoptCustomerContact, "adoptCustomerContact");

// server/modules/customers/commands/deleteCustomer.ts
async function deleteCustomer(app, id) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const customer2 = await findCustomerOrFail(trx, id);
    if (customer2.isDeleted) return;
    await Customer.query(trx).patch({ isDeleted: true, deletedAt: now, updatedAt: now }).where({ id, is_deleted: false });
  });
}
__name(deleteCustomer, "deleteCustomer");

// server/modules/customers/commands/mergeCustomers.ts
async function mergeCustomers(app, customerId, duplicateId) {
  if (customerId === duplicateId) {
    throw Unprocessable("same_customer", "A customer cannot be merged into itself.", [
      { path: "body/duplicateCustomerId", message: "is the customer itself", code: "same_customer" }
    ]);
  }
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const rows2 = await Customer.query(trx).whereIn("id", [customerId, duplicateId]).orderBy("id").forUpdate();
    const survivor = rows2.find((row) => row.id === customerId);
    const duplicate = rows2.find((row) => row.id === duplicateId);
    if (!survivor || !duplicate) throw NoSuchCustomer();
    if (survivor.isDeleted || duplicate.isDeleted) throw CustomerDeleted();
    await moveCustomerRows(trx, duplicateId, customerId);
    await Customer.query(trx).findById(duplicateId).patch({ isDeleted: true, deletedAt: now, updatedAt: now });
    return Customer.query(trx).patchAndFetchById(customerId, { updatedAt: now });
  });
}
__name(mergeCustomers, "mergeCustomers");

// server/modules/customers/commands/sendCustomerEmail.ts
async function sendCustomerEmail(app, customerId, input) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const customer2 = await Customer.query(trx).findById(customerId);
    if (!customer2) throw NoSuchCustomer();
    if (customer2.isDeleted) throw CustomerDeleted();
    if (input.reservationId && !await isCustomersReservation(trx, customerId, input.reservationId)) {
      throw Unprocessable("unknown_reservation", "The reservation is not one of this customer\u2019s.", [
        { path: "body/reservationId", message: "is not a reservation of this customer", code: "unknown_reservation" }
      ]);
    }
    return recordEmail(
      trx,
      {
        template: input.template,
        to: customer2.email,
        locale: input.locale ?? customer2.locale,
        customerId,
        reservationId: input.reservationId ?? null,
        data: { guestName: [customer2.honorific, customer2.name].filter(Boolean).join(" "), subject: input.subject.trim(), body: input.body }
      },
      { enqueue: /* @__PURE__ */ __name((queue, data, options) => app.jobs.enqueue(queue, data, options), "enqueue"), emailFrom: app.config.emailFrom }
    );
  });
}
__name(sendCustomerEmail, "sendCustomerEmail");

// server/modules/customers/commands/updateCustomer.ts
async function updateCustomer(app, id, patch) {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const current3 = await lockCustomer(trx, id);
      if (current3.isDeleted) throw CustomerDeleted();
      const changes = {};
      if (patch.honorific !== void 0) changes.honorific = patch.honorific;
      if (patch.name !== void 0) changes.name = patch.name.trim();
      if (patch.phone !== void 0) changes.phone = patch.phone;
      if (patch.locale !== void 0) changes.locale = patch.locale;
      if (patch.email !== void 0) {
        const email = patch.email.trim();
        changes.email = email;
        changes.emailNormalized = normalizeEmail(email);
      }
      const updated = await Customer.query(trx).patchAndFetchById(id, changes);
      if (patch.email !== void 0) await noteCustomerEmail(trx, id, updated.email, updated.emailNormalized);
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw EmailTaken();
    throw err;
  }
}
__name(updateCustomer, "updateCustomer");

// server/modules/customers/presenters.ts
function presentCustomer(customer2) {
  return {
    id: customer2.id,
    honorific: customer2.honorific,
    name: customer2.name,
    email: customer2.email,
    phone: customer2.phone,
    locale: customer2.locale,
    isDeleted: customer2.isDeleted,
    deletedAt: iso2(customer2.deletedAt),
    createdAt: iso2(customer2.createdAt),
    updatedAt: iso2(customer2.updatedAt)
  };
}
__name(presentCustomer, "presentCustomer");
function presentCustomerBooking(booking, defaultLocale) {
  return {
    id: booking.id,
    reference: booking.reference,
    status: booking.status,
    eventSlug: booking.eventSlug,
    eventStartsAt: iso2(booking.eventStartsAt),
    showTitle: pickLocale(booking.showTitle, defaultLocale, defaultLocale),
    guestCount: booking.guestCount,
    totalVnd: booking.totalVnd,
    bookedContact: { honorific: booking.contactHonorific, name: booking.contactName, email: booking.contactEmail, phone: booking.contactPhone },
    createdAt: iso2(booking.createdAt)
  };
}
__name(presentCustomerBooking, "presentCustomerBooking");
function presentCustomerEmail(address) {
  return { email: address.email, firstSeenAt: iso2(address.firstSeenAt), lastSeenAt: iso2(address.lastSeenAt) };
}
__name(presentCustomerEmail, "presentCustomerEmail");
function presentCustomerDetail(detail, defaultLocale) {
  return {
    customer: presentCustomer(detail.customer),
    bookings: detail.bookings.map((booking) => presentCustomerBooking(booking, defaultLocale)),
    bookingsTotal: detail.bookingsTotal,
    emails: detail.emails.map(presentCustomerEmail)
  };
}
__name(presentCustomerDetail, "presentCustomerDetail");

// server/modules/customers/handlers.ts
var handlers21 = {
  async listCustomers(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listCustomers(call.app.db.knex, { q: query.q, includeDeleted: query.includeDeleted ?? false, limit, offset });
    return json(200, { items: page.items.map(presentCustomer), total: page.total, limit, offset });
  },
  async getCustomer(call) {
    const detail = await customerDetail(call.app.db.knex, call.params.customerId);
    return json(200, presentCustomerDetail(detail, call.app.config.defaultLocale));
  },
  async updateCustomer(call) {
    return json(200, presentCustomer(await updateCustomer(call.app, call.params.customerId, call.body)));
  },
  async adoptCustomerContact(call) {
    return json(200, presentCustomer(await adoptCustomerContact(call.app, call.params.customerId, call.body)));
  },
  async mergeCustomers(call) {
    return json(200, presentCustomer(await mergeCustomers(call.app, call.params.customerId, call.body.duplicateCustomerId)));
  },
  async listCustomerEmailMessages(call) {
    const knex = call.app.db.knex;
    await findCustomerOrFail(knex, call.params.customerId);
    const page = await listMessages(knex, { customerId: call.params.customerId }, { limit: call.query.limit ?? 20, offset: call.query.offset ?? 0 });
    return json(200, { ...page, items: page.items.map(presentEmailListItem) });
  },
  async sendCustomerEmail(call) {
    return json(201, presentEmailListItem(await sendCustomerEmail(call.app, call.params.customerId, call.body)));
  },
  async deleteCustomer(call) {
    await deleteCustomer(call.app, call.params.customerId);
    return noContent();
  }
};

// server/modules/customers/index.ts
function record21() {
  return { tag: "customers", handlers: handlers21 };
}
__name(record21, "record");

// server/modules/payments/models.ts
var PAID_STATUSES = ["SUCCEEDED", "PARTIALLY_REFUNDED"];
var ON_SITE_GATEWAYS = ["BANK_TRANSFER", "CASH", "CARD_ON_SITE"];
var Payment = class extends BaseModel {
  static {
    __name(this, "Payment");
  }
  static tableName = "payments";
  reservationId;
  gateway;
  status;
  amountVnd;
  refundedVnd;
  txnRef;
  gatewayTransactionId;
  bankCode;
  cardType;
  gatewayResponseCode;
  gatewayPaidAt;
  recordedBy;
  note;
  expiresAt;
  succeededAt;
  failedAt;
};
var PaymentCallback = class extends RecordModel {
  static {
    __name(this, "PaymentCallback");
  }
  static tableName = "payment_callbacks";
  static jsonAttributes = ["params"];
  id;
  gateway;
  kind;
  paymentId;
  txnRef;
  params;
  signatureValid;
  outcome;
  receivedAt;
};
var Refund = class extends BaseModel {
  static {
    __name(this, "Refund");
  }
  static tableName = "refunds";
  static jsonAttributes = ["gatewayResponse"];
  paymentId;
  amountVnd;
  reason;
  status;
  requestedBy;
  gatewayRefundId;
  gatewayResponseCode;
  gatewayResponse;
  failureReason;
  completedAt;
  processingUntil;
  attempts;
};

// server/modules/payments/hooks.ts
var EVENTS = {
  SUCCEEDED: "payment.captured",
  FAILED: "payment.failed",
  PARTIALLY_REFUNDED: "payment.partiallyRefunded",
  REFUNDED: "payment.refunded"
};
async function publishPaymentOutcome(context) {
  const { outcome, paymentId, reservationId, gateway, amountVnd, refundedVnd } = context;
  await publish(context, EVENTS[outcome], { paymentId, reservationId, gateway, amountVnd, refundedVnd });
}
__name(publishPaymentOutcome, "publishPaymentOutcome");

// server/platform/integrations/vnpay.ts
import { createHmac, randomBytes as randomBytes4, timingSafeEqual as timingSafeEqual4 } from "node:crypto";
var VNPAY_VERSION = "2.1.0";
var VnpayError = class extends Error {
  static {
    __name(this, "VnpayError");
  }
  code;
  /** HTTP status of the API answer (code `http_status`). */
  status;
  /** VNPay's `vnp_ResponseCode`, when the answer carried one. */
  responseCode;
  constructor(code, message, extra = {}) {
    super(message, extra.cause === void 0 ? void 0 : { cause: extra.cause });
    this.name = "VnpayError";
    this.code = code;
    this.status = extra.status;
    this.responseCode = extra.responseCode;
  }
};
var ipnResponse = {
  success: /* @__PURE__ */ __name(() => ({ RspCode: "00", Message: "Confirm Success" }), "success"),
  orderNotFound: /* @__PURE__ */ __name(() => ({ RspCode: "01", Message: "Order not found" }), "orderNotFound"),
  alreadyConfirmed: /* @__PURE__ */ __name(() => ({ RspCode: "02", Message: "Order already confirmed" }), "alreadyConfirmed"),
  invalidAmount: /* @__PURE__ */ __name(() => ({ RspCode: "04", Message: "Invalid amount" }), "invalidAmount"),
  invalidSignature: /* @__PURE__ */ __name(() => ({ RspCode: "97", Message: "Invalid signature" }), "invalidSignature"),
  unknownError: /* @__PURE__ */ __name(() => ({ RspCode: "99", Message: "Unknown error" }), "unknownError")
};
var GMT7_MS = 7 * 3600 * 1e3;
function vnpayDate(date) {
  if (Number.isNaN(date.getTime())) throw new VnpayError("invalid_input", "invalid date");
  const d = new Date(date.getTime() + GMT7_MS);
  const pad = /* @__PURE__ */ __name((n, w = 2) => String(n).padStart(w, "0"), "pad");
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}
__name(vnpayDate, "vnpayDate");
function parseVnpayDate(text) {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text ?? "");
  if (!m) return void 0;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - GMT7_MS;
  const date = new Date(ms);
  return vnpayDate(date) === text ? date : void 0;
}
__name(parseVnpayDate, "parseVnpayDate");
function encode(value) {
  return encodeURIComponent(value).replace(/%20/g, "+");
}
__name(encode, "encode");
function hmac512(secret, data) {
  return createHmac("sha512", secret).update(data, "utf8").digest("hex");
}
__name(hmac512, "hmac512");
function canonicalQuery(params) {
  return Object.keys(params).filter((key) => key !== "vnp_SecureHash" && key !== "vnp_SecureHashType").sort().map((key) => `${encode(key)}=${encode(params[key])}`).join("&");
}
__name(canonicalQuery, "canonicalQuery");
function signedQuery(secret, params) {
  const signed = canonicalQuery(params);
  return `${signed}&vnp_SecureHash=${hmac512(secret, signed)}`;
}
__name(signedQuery, "signedQuery");
function sameDigest(expectedHex, receivedHex) {
  if (typeof receivedHex !== "string" || !/^[0-9a-fA-F]{128}$/.test(receivedHex)) return false;
  return timingSafeEqual4(Buffer.from(expectedHex, "hex"), Buffer.from(receivedHex, "hex"));
}
__name(sameDigest, "sameDigest");
function normalizeOrderInfo(text) {
  const plain = text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/g, "d").replace(/Đ/g, "D").replace(/[^A-Za-z0-9 .,:#/_-]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 255).trim();
  if (!plain) throw new VnpayError("invalid_input", "orderInfo is empty once normalized");
  return plain;
}
__name(normalizeOrderInfo, "normalizeOrderInfo");
function vndTimes100(amountVnd, what) {
  if (!Number.isSafeInteger(amountVnd) || amountVnd <= 0 || amountVnd * 100 > 999999999999) {
    throw new VnpayError("invalid_input", `${what} must be a whole number of VND from 1 to 9999999999`);
  }
  return String(amountVnd * 100);
}
__name(vndTimes100, "vndTimes100");
function amountFrom100(raw4) {
  const text = typeof raw4 === "number" ? String(raw4) : raw4;
  if (typeof text !== "string" || !/^\d{1,15}$/.test(text)) return null;
  const value = Number(text);
  return value % 100 === 0 ? value / 100 : null;
}
__name(amountFrom100, "amountFrom100");
function check(ok3, message) {
  if (!ok3) throw new VnpayError("invalid_input", message);
}
__name(check, "check");
var TXN_REF = /^[A-Za-z0-9_-]{1,100}$/;
function dateText(value, what) {
  if (value instanceof Date) return vnpayDate(value);
  check(parseVnpayDate(value) !== void 0, `${what} must be a Date or yyyyMMddHHmmss (GMT+7)`);
  return value;
}
__name(dateText, "dateText");
function ipText(ipAddr) {
  const ip = ipAddr.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  check(/^[0-9A-Fa-f.:]{2,45}$/.test(ip), "ipAddr must be an IPv4 or IPv6 address");
  return ip;
}
__name(ipText, "ipText");
function vnpayOptionsFromConfig(config) {
  return {
    tmnCode: config.vnpayTmnCode,
    hashSecret: config.vnpayHashSecret,
    paymentUrl: config.vnpayPaymentUrl,
    apiUrl: config.vnpayApiUrl,
    timeoutMs: config.vnpayTimeoutMs
  };
}
__name(vnpayOptionsFromConfig, "vnpayOptionsFromConfig");
var SIGNED_FIELDS = {
  refundRequest: [
    "vnp_RequestId",
    "vnp_Version",
    "vnp_Command",
    "vnp_TmnCode",
    "vnp_TransactionType",
    "vnp_TxnRef",
    "vnp_Amount",
    "vnp_TransactionNo",
    "vnp_TransactionDate",
    "vnp_CreateBy",
    "vnp_CreateDate",
    "vnp_IpAddr",
    "vnp_OrderInfo"
  ],
  refundResponse: [
    "vnp_ResponseId",
    "vnp_Command",
    "vnp_ResponseCode",
    "vnp_Message",
    "vnp_TmnCode",
    "vnp_TxnRef",
    "vnp_Amount",
    "vnp_BankCode",
    "vnp_PayDate",
    "vnp_TransactionNo",
    "vnp_TransactionType",
    "vnp_TransactionStatus",
    "vnp_OrderInfo"
  ],
  querydrRequest: [
    "vnp_RequestId",
    "vnp_Version",
    "vnp_Command",
    "vnp_TmnCode",
    "vnp_TxnRef",
    "vnp_TransactionDate",
    "vnp_CreateDate",
    "vnp_IpAddr",
    "vnp_OrderInfo"
  ],
  querydrResponse: [
    "vnp_ResponseId",
    "vnp_Command",
    "vnp_ResponseCode",
    "vnp_Message",
    "vnp_TmnCode",
    "vnp_TxnRef",
    "vnp_Amount",
    "vnp_BankCode",
    "vnp_PayDate",
    "vnp_TransactionNo",
    "vnp_TransactionType",
    "vnp_TransactionStatus",
    "vnp_OrderInfo",
    "vnp_PromotionCode",
    "vnp_PromotionAmount"
  ]
};
function pipeJoined(fields, data) {
  return fields.map((field) => data[field] === void 0 || data[field] === null ? "" : String(data[field])).join("|");
}
__name(pipeJoined, "pipeJoined");
function apiMessageHash(secret, kind, data) {
  return hmac512(secret, pipeJoined(SIGNED_FIELDS[kind], data));
}
__name(apiMessageHash, "apiMessageHash");
function sameApiHash(expectedHex, received) {
  return sameDigest(expectedHex, received);
}
__name(sameApiHash, "sameApiHash");
function createVnpayClient(options) {
  const tmnCode = options.tmnCode?.trim() || void 0;
  const secret = options.hashSecret?.trim() || void 0;
  const isConfigured = Boolean(tmnCode && secret);
  function configured() {
    if (!tmnCode || !secret) throw new VnpayError("not_configured", "VNPay is not configured (VNPAY_TMN_CODE, VNPAY_HASH_SECRET)");
    return { tmnCode, secret };
  }
  __name(configured, "configured");
  function createPaymentUrl(input) {
    const { tmnCode: code, secret: key } = configured();
    check(TXN_REF.test(input.txnRef), "txnRef must be 1\u2013100 letters, digits, - or _");
    check(input.locale === "vn" || input.locale === "en", "locale must be vn or en");
    check(/^https?:\/\/[^\s]+$/i.test(input.returnUrl) && URL.canParse(input.returnUrl), "returnUrl must be an absolute http(s) URL");
    check(input.bankCode === void 0 || /^[A-Za-z0-9]{3,20}$/.test(input.bankCode), "bankCode must be 3\u201320 letters or digits");
    check(input.orderType === void 0 || /^[a-z0-9_]{1,100}$/.test(input.orderType), "orderType must be a VNPay category code");
    check(input.expiresAt.getTime() > input.createdAt.getTime(), "expiresAt must be after createdAt");
    const params = {
      vnp_Version: VNPAY_VERSION,
      vnp_Command: "pay",
      vnp_TmnCode: code,
      vnp_Amount: vndTimes100(input.amountVnd, "amountVnd"),
      vnp_CurrCode: "VND",
      vnp_TxnRef: input.txnRef,
      vnp_OrderInfo: normalizeOrderInfo(input.orderInfo),
      vnp_OrderType: input.orderType ?? "other",
      vnp_Locale: input.locale,
      vnp_ReturnUrl: input.returnUrl,
      vnp_IpAddr: ipText(input.ipAddr),
      vnp_CreateDate: vnpayDate(input.createdAt),
      vnp_ExpireDate: vnpayDate(input.expiresAt)
    };
    if (input.bankCode) params.vnp_BankCode = input.bankCode;
    check(input.paymentUrl === void 0 || /^https?:\/\/[^\s?#]+$/i.test(input.paymentUrl) && URL.canParse(input.paymentUrl), "paymentUrl must be an absolute http(s) URL without a query");
    return `${input.paymentUrl ?? options.paymentUrl}?${signedQuery(key, params)}`;
  }
  __name(createPaymentUrl, "createPaymentUrl");
  function verifyCallback(query) {
    const single2 = /* @__PURE__ */ __name((name) => {
      const value = query[name];
      return typeof value === "string" ? value : void 0;
    }, "single");
    const params = {};
    let duplicated = false;
    for (const [name, value] of Object.entries(query)) {
      if (!name.startsWith("vnp_") || value === void 0) continue;
      if (typeof value !== "string") duplicated = true;
      else params[name] = value;
    }
    let valid = false;
    if (isConfigured && !duplicated) {
      valid = sameDigest(hmac512(secret, canonicalQuery(params)), single2("vnp_SecureHash")) && params.vnp_TmnCode === tmnCode;
    }
    const responseCode = single2("vnp_ResponseCode");
    const transactionStatus = single2("vnp_TransactionStatus");
    return {
      valid,
      txnRef: single2("vnp_TxnRef"),
      amountVnd: amountFrom100(single2("vnp_Amount")),
      responseCode,
      transactionStatus,
      transactionNo: single2("vnp_TransactionNo"),
      bankCode: single2("vnp_BankCode"),
      bankTranNo: single2("vnp_BankTranNo"),
      cardType: single2("vnp_CardType"),
      payDate: single2("vnp_PayDate"),
      success: responseCode === "00" && transactionStatus === "00"
    };
  }
  __name(verifyCallback, "verifyCallback");
  async function post(body, responseFields, key) {
    let response;
    try {
      response = await (options.fetch ?? fetch)(options.apiUrl, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs)
      });
    } catch (err) {
      const name = err?.name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new VnpayError("timeout", `VNPay ${body.vnp_Command}: no answer within ${options.timeoutMs} ms`, { cause: err });
      }
      throw new VnpayError("network", `VNPay ${body.vnp_Command}: ${err?.message ?? "request failed"}`, { cause: err });
    }
    let text;
    try {
      text = await response.text();
    } catch (err) {
      const name = err?.name;
      const code = name === "TimeoutError" || name === "AbortError" ? "timeout" : "network";
      throw new VnpayError(code, `VNPay ${body.vnp_Command}: the answer could not be read`, { cause: err });
    }
    if (!response.ok) {
      throw new VnpayError("http_status", `VNPay ${body.vnp_Command}: HTTP ${response.status}`, { status: response.status });
    }
    let data;
    try {
      const parsed = JSON.parse(text);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      data = parsed;
    } catch (err) {
      throw new VnpayError("bad_response", `VNPay ${body.vnp_Command}: the answer is not a JSON object`, { cause: err });
    }
    const responseCode = data.vnp_ResponseCode === void 0 ? "" : String(data.vnp_ResponseCode);
    if (!sameDigest(hmac512(key, pipeJoined(responseFields, data)), data.vnp_SecureHash)) {
      throw new VnpayError("bad_signature", `VNPay ${body.vnp_Command}: the answer's signature does not match (response code "${responseCode}")`, {
        responseCode
      });
    }
    const str2 = /* @__PURE__ */ __name((field) => data[field] === void 0 || data[field] === null ? "" : String(data[field]), "str");
    return {
      ok: responseCode === "00",
      responseCode,
      message: str2("vnp_Message"),
      responseId: str2("vnp_ResponseId"),
      txnRef: str2("vnp_TxnRef"),
      amountVnd: amountFrom100(data.vnp_Amount),
      transactionNo: str2("vnp_TransactionNo"),
      transactionType: str2("vnp_TransactionType"),
      transactionStatus: str2("vnp_TransactionStatus"),
      bankCode: str2("vnp_BankCode"),
      payDate: str2("vnp_PayDate"),
      raw: data
    };
  }
  __name(post, "post");
  function requestId(value) {
    if (value === void 0) return randomBytes4(16).toString("hex");
    check(/^[A-Za-z0-9]{1,32}$/.test(value), "requestId must be 1\u201332 letters or digits");
    return value;
  }
  __name(requestId, "requestId");
  async function refund(input) {
    const { tmnCode: code, secret: key } = configured();
    check(TXN_REF.test(input.txnRef), "txnRef must be 1\u2013100 letters, digits, - or _");
    check(input.kind === "full" || input.kind === "partial", "kind must be full or partial");
    check(input.transactionNo === void 0 || /^\d{1,20}$/.test(input.transactionNo), "transactionNo must be digits");
    check(/^[^|]{1,250}$/.test(input.createdBy.trim()), "createdBy must be 1\u2013250 characters without |");
    const body = {
      vnp_RequestId: requestId(input.requestId),
      vnp_Version: VNPAY_VERSION,
      vnp_Command: "refund",
      vnp_TmnCode: code,
      vnp_TransactionType: input.kind === "full" ? "02" : "03",
      vnp_TxnRef: input.txnRef,
      vnp_Amount: vndTimes100(input.amountVnd, "amountVnd"),
      vnp_TransactionNo: input.transactionNo ?? "0",
      vnp_TransactionDate: dateText(input.transactionDate, "transactionDate"),
      vnp_CreateBy: input.createdBy.trim(),
      vnp_CreateDate: vnpayDate(input.createdAt ?? /* @__PURE__ */ new Date()),
      vnp_IpAddr: ipText(input.ipAddr),
      vnp_OrderInfo: normalizeOrderInfo(input.orderInfo ?? `Hoan tien ${input.txnRef}`)
    };
    body.vnp_SecureHash = hmac512(key, pipeJoined(SIGNED_FIELDS.refundRequest, body));
    return post(body, SIGNED_FIELDS.refundResponse, key);
  }
  __name(refund, "refund");
  async function queryTransaction(input) {
    const { tmnCode: code, secret: key } = configured();
    check(TXN_REF.test(input.txnRef), "txnRef must be 1\u2013100 letters, digits, - or _");
    const body = {
      vnp_RequestId: requestId(input.requestId),
      vnp_Version: VNPAY_VERSION,
      vnp_Command: "querydr",
      vnp_TmnCode: code,
      vnp_TxnRef: input.txnRef,
      vnp_OrderInfo: normalizeOrderInfo(input.orderInfo ?? `Truy van ${input.txnRef}`),
      vnp_TransactionDate: dateText(input.transactionDate, "transactionDate"),
      vnp_CreateDate: vnpayDate(input.createdAt ?? /* @__PURE__ */ new Date()),
      vnp_IpAddr: ipText(input.ipAddr)
    };
    body.vnp_SecureHash = hmac512(key, pipeJoined(SIGNED_FIELDS.querydrRequest, body));
    const result = await post(body, SIGNED_FIELDS.querydrResponse, key);
    return { ...result, paid: result.ok && result.transactionStatus === "00" };
  }
  __name(queryTransaction, "queryTransaction");
  return { isConfigured, createPaymentUrl, verifyCallback, refund, queryTransaction };
}
__name(createVnpayClient, "createVnpayClient");

// server/modules/payments/sandbox.ts
import { randomBytes as randomBytes5, randomInt as randomInt2 } from "node:crypto";
import fs7 from "node:fs";
import path8 from "node:path";
var SANDBOX_TMN_CODE = "DEVSBX01";
var SANDBOX_PATH = "/api/payments/vnpay/sandbox";
var SANDBOX_API_URL = "http://vnpay-sandbox.invalid/merchant_webapi/api/transaction";
var secrets = /* @__PURE__ */ new Map();
var CREDENTIALS_FILE = "dev-credentials.json";
var SECRET_KEY = "vnpaySandboxHashSecret";
function sandboxSecret(config) {
  const key = `${config.nodeEnv}:${config.dataDir}`;
  let secret = secrets.get(key);
  if (secret) return secret;
  secret = config.nodeEnv === "test" ? newSecret() : storedSecret(config.dataDir);
  secrets.set(key, secret);
  return secret;
}
__name(sandboxSecret, "sandboxSecret");
var newSecret = /* @__PURE__ */ __name(() => randomBytes5(32).toString("hex").toUpperCase(), "newSecret");
function storedSecret(dataDir) {
  const file = path8.join(dataDir, CREDENTIALS_FILE);
  try {
    const stored = fs7.existsSync(file) ? JSON.parse(fs7.readFileSync(file, "utf8")) : {};
    if (typeof stored[SECRET_KEY] === "string" && /^[0-9A-F]{64}$/.test(stored[SECRET_KEY])) return stored[SECRET_KEY];
    const secret = newSecret();
    fs7.mkdirSync(dataDir, { recursive: true });
    fs7.writeFileSync(file, JSON.stringify({ ...stored, [SECRET_KEY]: secret }, null, 2) + "\n", { mode: 384 });
    fs7.chmodSync(file, 384);
    return secret;
  } catch {
    return newSecret();
  }
}
__name(storedSecret, "storedSecret");
function sandboxApiFetch(secret) {
  return async (_input, init) => {
    let body;
    try {
      body = JSON.parse(String(init?.body ?? ""));
    } catch {
      return new Response("not JSON", { status: 400 });
    }
    if (body.vnp_Command !== "refund") return new Response(`the sandbox answers refunds only, not ${String(body.vnp_Command)}`, { status: 400 });
    const valid = sameApiHash(apiMessageHash(secret, "refundRequest", body), body.vnp_SecureHash) && body.vnp_TmnCode === SANDBOX_TMN_CODE;
    const answer2 = {
      vnp_ResponseId: randomBytes5(16).toString("hex"),
      vnp_Command: "refund",
      vnp_ResponseCode: valid ? "00" : "97",
      vnp_Message: valid ? "Refund success (sandbox)" : "Invalid Checksum",
      vnp_TmnCode: SANDBOX_TMN_CODE,
      vnp_TxnRef: body.vnp_TxnRef ?? "",
      vnp_Amount: body.vnp_Amount ?? "",
      vnp_BankCode: "NCB",
      vnp_PayDate: vnpayDate(/* @__PURE__ */ new Date()),
      vnp_TransactionNo: valid ? transactionNo() : "0",
      vnp_TransactionType: body.vnp_TransactionType ?? "",
      vnp_TransactionStatus: valid ? "05" : "",
      vnp_OrderInfo: body.vnp_OrderInfo ?? ""
    };
    answer2.vnp_SecureHash = apiMessageHash(secret, "refundResponse", answer2);
    return new Response(JSON.stringify(answer2), { status: 200, headers: { "content-type": "application/json" } });
  };
}
__name(sandboxApiFetch, "sandboxApiFetch");
var transactionNo = /* @__PURE__ */ __name(() => String(randomInt2(1e7, 1e8)), "transactionNo");
var single = /* @__PURE__ */ __name((query, name) => typeof query[name] === "string" ? query[name] : void 0, "single");
function readSandboxRequest(verify, query) {
  const checked = verify(query);
  if (!checked.valid) return { ok: false, reason: "Invalid signature (VNPay code 97): this payment link was not signed by the merchant, or was changed." };
  const params = {};
  for (const [key, value] of Object.entries(query)) if (key.startsWith("vnp_") && typeof value === "string") params[key] = value;
  const returnUrl = single(query, "vnp_ReturnUrl");
  if (single(query, "vnp_Version") !== VNPAY_VERSION || single(query, "vnp_Command") !== "pay" || !single(query, "vnp_TxnRef") || checked.amountVnd === null || !returnUrl || !URL.canParse(returnUrl)) {
    return { ok: false, reason: "The payment request is incomplete (VNPay code 03: invalid data format)." };
  }
  return {
    ok: true,
    txnRef: params.vnp_TxnRef,
    amountVnd: checked.amountVnd,
    orderInfo: params.vnp_OrderInfo ?? "",
    returnUrl,
    expiresAt: parseVnpayDate(params.vnp_ExpireDate),
    params
  };
}
__name(readSandboxRequest, "readSandboxRequest");
function callbackParams(request, outcome, now) {
  const expired = request.expiresAt !== void 0 && request.expiresAt.getTime() <= now.getTime();
  const code = expired ? "11" : outcome === "pay" ? "00" : outcome === "cancel" ? "24" : "51";
  const params = {
    vnp_Amount: request.params.vnp_Amount,
    vnp_BankCode: code === "24" || code === "11" ? "VNPAY" : request.params.vnp_BankCode ?? "NCB",
    vnp_CardType: code === "24" || code === "11" ? "QRCODE" : "ATM",
    vnp_OrderInfo: request.orderInfo,
    vnp_PayDate: vnpayDate(now),
    vnp_ResponseCode: code,
    vnp_TmnCode: request.params.vnp_TmnCode,
    vnp_TransactionNo: code === "24" || code === "11" ? "0" : transactionNo(),
    vnp_TransactionStatus: code === "00" ? "00" : "02",
    vnp_TxnRef: request.txnRef
  };
  if (code === "00") params.vnp_BankTranNo = `VNP${params.vnp_TransactionNo}`;
  return params;
}
__name(callbackParams, "callbackParams");
async function completeSandboxPayment(app, secret, request, outcome, runIpn, now = /* @__PURE__ */ new Date()) {
  const params = callbackParams(request, outcome, now);
  const query = signedQuery(secret, params);
  const ipn = await runIpn(app, Object.fromEntries(new URLSearchParams(query)));
  if (ipn.RspCode !== "00" && ipn.RspCode !== "02") {
    app.logger.warn({ txnRef: request.txnRef, ipn }, "the VNPay sandbox IPN was not accepted");
  }
  const separator = request.returnUrl.includes("?") ? "&" : "?";
  return { ipn, location: `${request.returnUrl}${separator}${query}`, responseCode: params.vnp_ResponseCode };
}
__name(completeSandboxPayment, "completeSandboxPayment");
var escapeHtml = /* @__PURE__ */ __name((text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`), "escapeHtml");
var formatVnd = /* @__PURE__ */ __name((amount) => `${amount.toLocaleString("vi-VN")} \u20AB`, "formatVnd");
function sandboxCsp(publicSiteUrl) {
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(publicSiteUrl).origin}; base-uri 'none'; frame-ancestors 'none'`;
}
__name(sandboxCsp, "sandboxCsp");
function renderSandboxPage(request, formAction, now = /* @__PURE__ */ new Date()) {
  const body = !request.ok ? `<p class="error">${escapeHtml(request.reason)}</p><p>Nothing was charged.</p>` : `<dl>
  <dt>Merchant</dt><dd>${escapeHtml(request.params.vnp_TmnCode)}</dd>
  <dt>Amount</dt><dd class="amount">${escapeHtml(formatVnd(request.amountVnd))}</dd>
  <dt>Order</dt><dd>${escapeHtml(request.orderInfo)}</dd>
  <dt>Transaction reference</dt><dd><code>${escapeHtml(request.txnRef)}</code></dd>
  <dt>Pay before</dt><dd>${request.expiresAt ? `${escapeHtml(vnpayDate(request.expiresAt).replace(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/, "$1-$2-$3 $4:$5:$6"))} (GMT+7)` : "not given"}</dd>
</dl>
${request.expiresAt && request.expiresAt.getTime() <= now.getTime() ? '<p class="error">This payment link has expired: any button reports VNPay code 11 (timed out).</p>' : ""}
<form method="post" action="${escapeHtml(formAction)}">
  <button name="outcome" value="pay" class="pay">Pay</button>
  <button name="outcome" value="cancel">Cancel (code 24)</button>
  <button name="outcome" value="fail">Fail (code 51)</button>
</form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>VNPay sandbox (development)</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
  .banner { background: #fff3cd; border: 1px solid #e0c36b; padding: .5rem .75rem; border-radius: 4px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { color: #555; } dd { margin: 0; } .amount { font-size: 1.4rem; font-weight: 600; }
  .error { color: #a00; font-weight: 600; }
  button { font: inherit; padding: .5rem 1rem; margin-right: .5rem; cursor: pointer; }
  .pay { background: #005baa; color: #fff; border: 1px solid #004a8a; border-radius: 4px; }
</style>
</head>
<body>
<h1>VNPay sandbox</h1>
<p class="banner">Development only: a simulation of VNPay's pay page on this server. No money moves; the result is sent to the
merchant signed as VNPay would (IPN first, then the browser's return).</p>
${body}
</body>
</html>
`;
}
__name(renderSandboxPage, "renderSandboxPage");

// server/modules/payments/vnpay.ts
function paymentsServices(platform) {
  let client;
  return {
    vnpay: {
      get client() {
        return client ??= createClient(platform.config);
      }
    }
  };
}
__name(paymentsServices, "paymentsServices");
function createClient(config) {
  if (config.vnpaySandbox) {
    const secret = sandboxSecret(config);
    return createVnpayClient({
      tmnCode: SANDBOX_TMN_CODE,
      hashSecret: secret,
      paymentUrl: `${config.publicApiUrl}${SANDBOX_PATH}`,
      apiUrl: SANDBOX_API_URL,
      timeoutMs: config.vnpayTimeoutMs,
      fetch: sandboxApiFetch(secret)
    });
  }
  return createVnpayClient(vnpayOptionsFromConfig(config));
}
__name(createClient, "createClient");
var vnpayOf = /* @__PURE__ */ __name((app) => app.vnpay.client, "vnpayOf");
function callbackBaseUrl(config, socket) {
  if (config.publicApiUrlExplicit || config.nodeEnv === "production") return config.publicApiUrl;
  const port = socket.localPort ?? config.port;
  const wildcard = config.host === "0.0.0.0" || config.host === "::" || config.host === "";
  const local = (socket.localAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  const loopback = local === "" || local === "::1" || local.startsWith("127.");
  const host = !wildcard && !/^(127\.|::1$|localhost$)/.test(config.host) ? config.host : loopback ? "localhost" : local;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
__name(callbackBaseUrl, "callbackBaseUrl");
function siteReturnUrl(config, locale, querystring) {
  const language = (locale ?? "").toLowerCase().split("-")[0];
  const siteLocale = config.siteLocales.find((candidate) => candidate.toLowerCase() === language) ?? config.defaultLocale;
  return `${config.publicSiteUrl.replace(/\/+$/, "")}/${encodeURIComponent(siteLocale)}/payment/return${querystring ? `?${querystring}` : ""}`;
}
__name(siteReturnUrl, "siteReturnUrl");

// server/modules/payments/queries.ts
async function enabledMethods(knex, app) {
  const setup2 = await knex("commercial_setup").where({ id: 1 }).first("payment_gateways");
  const gateways = typeof setup2?.payment_gateways === "string" ? JSON.parse(setup2.payment_gateways) : setup2?.payment_gateways ?? [];
  const methods = [];
  if (gateways.includes("VNPAY") && vnpayOf(app).isConfigured) methods.push("VNPAY");
  if (app.config.bankTransfer) methods.push("BANK_TRANSFER");
  if (gateways.includes("CASH")) methods.push("PAY_AT_VENUE");
  return methods;
}
__name(enabledMethods, "enabledMethods");
async function netPaid2(knex, reservationId) {
  const row = await knex("payments").where({ reservation_id: reservationId }).whereIn("status", [...PAID_STATUSES, "REFUNDED"]).first(knex.raw("coalesce(sum(amount_vnd - refunded_vnd), 0) as net"));
  return Number(row?.net ?? 0);
}
__name(netPaid2, "netPaid");
async function netPaidBefore(trx, reservationId, paymentId) {
  const row = await trx("payments").where({ reservation_id: reservationId }).whereNot({ id: paymentId }).whereIn("status", ["SUCCEEDED", "PARTIALLY_REFUNDED", "REFUNDED"]).first(trx.raw("coalesce(sum(amount_vnd - refunded_vnd), 0) as net"));
  return Number(row?.net ?? 0);
}
__name(netPaidBefore, "netPaidBefore");
async function refundable(knex, payment) {
  const row = await knex("refunds").where({ payment_id: payment.id, status: "PENDING" }).first(knex.raw("coalesce(sum(amount_vnd), 0) as pending"));
  return payment.amountVnd - payment.refundedVnd - Number(row?.pending ?? 0);
}
__name(refundable, "refundable");
async function paidPaymentsOf(trx, reservationId) {
  return await Payment.query(trx).where({ reservation_id: reservationId }).whereIn("status", PAID_STATUSES).orderBy("created_at").select("id", "amount_vnd", "refunded_vnd");
}
__name(paidPaymentsOf, "paidPaymentsOf");
async function lockEventOfReservation(trx, reservationId) {
  const found = await trx("reservations").where({ id: reservationId }).first("show_event_id");
  if (!found) return void 0;
  await trx("show_events").where({ id: found.show_event_id }).forUpdate().first("id");
  return found.show_event_id;
}
__name(lockEventOfReservation, "lockEventOfReservation");
async function reservationStanding(trx, reservationId) {
  const row = await trx("reservations").where({ id: reservationId }).first("status", "total_vnd");
  return { status: row.status, totalVnd: row.total_vnd };
}
__name(reservationStanding, "reservationStanding");
async function vnpayReturnView(knex, txnRef) {
  const row = await knex("payments as p").join("reservations as r", "r.id", "p.reservation_id").where({ "p.txn_ref": txnRef, "p.gateway": "VNPAY" }).first("p.id", "p.status", "r.reference", "r.status as reservation_status", "r.hold_expires_at", "r.locale");
  return row ? { id: row.id, status: row.status, reference: row.reference, reservationStatus: row.reservation_status, holdExpiresAt: row.hold_expires_at, locale: row.locale ?? null } : void 0;
}
__name(vnpayReturnView, "vnpayReturnView");
async function checkoutOptions(app, row, now = /* @__PURE__ */ new Date()) {
  const knex = app.db.knex;
  const status = statusAt(row, now);
  const methods = await enabledMethods(knex, app);
  const amountDueVnd = Math.max(0, row.totalVnd - await netPaid2(knex, row.id));
  return {
    reference: row.reference,
    status,
    payable: status === "HELD" && amountDueVnd > 0 && methods.length > 0,
    amountDueVnd,
    holdExpiresAt: status === "HELD" && row.holdExpiresAt ? new Date(row.holdExpiresAt).toISOString() : null,
    methods
  };
}
__name(checkoutOptions, "checkoutOptions");
var withReference = /* @__PURE__ */ __name((knex) => Payment.query(knex).alias("p").join("reservations as r", "r.id", "p.reservation_id"), "withReference");
async function listPayments(knex, filters) {
  const base = withReference(knex).where((q) => {
    if (filters.reservationId) q.where("p.reservation_id", filters.reservationId);
    if (filters.status) q.where("p.status", filters.status);
    if (filters.gateway) q.where("p.gateway", filters.gateway);
    if (filters.from) q.where("p.created_at", ">=", new Date(filters.from));
    if (filters.to) q.where("p.created_at", "<", new Date(filters.to));
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().select("p.*", "r.reference as reservation_reference").orderBy([{ column: "p.created_at", order: "desc" }, { column: "p.id", order: "desc" }]).limit(filters.limit).offset(filters.offset);
  return { items, total };
}
__name(listPayments, "listPayments");
async function paymentById(knex, id) {
  const payment = await withReference(knex).where("p.id", id).first().select("p.*", "r.reference as reservation_reference");
  if (!payment) throw NotFound("No such payment.");
  return payment;
}
__name(paymentById, "paymentById");
async function paymentDetail(knex, id) {
  const payment = await paymentById(knex, id);
  const refunds = await Refund.query(knex).where({ payment_id: id }).orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "desc" }]);
  const callbacks = await PaymentCallback.query(knex).where({ payment_id: id }).orderBy("id", "desc").limit(100).select("kind", "signature_valid", "outcome", "received_at");
  return { payment, refunds, callbacks };
}
__name(paymentDetail, "paymentDetail");
async function listRefunds(knex, filters) {
  const base = Refund.query(knex).where((q) => {
    if (filters.paymentId) q.where("payment_id", filters.paymentId);
    if (filters.status) q.where("status", filters.status);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "desc" }]).limit(filters.limit).offset(filters.offset);
  return { items, total };
}
__name(listRefunds, "listRefunds");

// server/modules/payments/commands/requestRefund.ts
var VNPAY_REFUND_QUEUE = "payments.vnpay-refund";
var claimSeconds = /* @__PURE__ */ __name((app) => Math.ceil(app.config.vnpayTimeoutMs / 1e3) + 20, "claimSeconds");
async function lockPayment(ctx, paymentId) {
  const payment = await Payment.query(ctx.trx).findById(paymentId).forUpdate();
  if (!payment) throw NotFound("No such payment.");
  return payment;
}
__name(lockPayment, "lockPayment");
async function requestRefund(ctx, paymentId, request) {
  const payment = await lockPayment(ctx, paymentId);
  if (!PAID_STATUSES.includes(payment.status)) throw Conflict("payment_not_refundable", `A ${payment.status.toLowerCase().replace("_", "-")} payment cannot be refunded.`);
  const left = await refundable(ctx.trx, payment);
  if (request.amountVnd > left) {
    throw Unprocessable("refund_exceeds_remaining", `At most ${left} VND of this payment can still be refunded.`, [
      { path: "body/amountVnd", message: `must be at most ${left}`, code: "refund_exceeds_remaining" }
    ]);
  }
  const refund = await Refund.query(ctx.trx).insert({ paymentId: payment.id, amountVnd: request.amountVnd, reason: request.reason, status: "PENDING", requestedBy: request.requestedBy, createdAt: ctx.now, updatedAt: ctx.now }).returning("*");
  if (payment.gateway === "VNPAY") {
    await ctx.app.jobs.enqueue(VNPAY_REFUND_QUEUE, { refundId: refund.id }, { trx: ctx.trx, startAfter: request.vnpayJobDelaySeconds || void 0 });
    return refund;
  }
  if (request.onSite === "record") return settleRefund(ctx, refund.id, { status: "SUCCEEDED" });
  return refund;
}
__name(requestRefund, "requestRefund");

// server/modules/payments/commands/settleRefund.ts
var statusAfterRefund = /* @__PURE__ */ __name((amountVnd, refundedVnd) => refundedVnd >= amountVnd ? "REFUNDED" : "PARTIALLY_REFUNDED", "statusAfterRefund");
async function settleRefund(ctx, refundId, outcome) {
  const found = await Refund.query(ctx.trx).findById(refundId).select("payment_id");
  if (!found) throw NotFound("No such refund.");
  const payment = await lockPayment(ctx, found.paymentId);
  const refund = await Refund.query(ctx.trx).findById(refundId).forUpdate();
  if (refund.status !== "PENDING") return refund;
  const settled = await Refund.query(ctx.trx).findById(refundId).patch({
    status: outcome.status,
    gatewayRefundId: outcome.gatewayRefundId ?? null,
    gatewayResponseCode: outcome.responseCode ?? null,
    gatewayResponse: outcome.response === void 0 ? null : outcome.response,
    failureReason: outcome.failureReason ?? null,
    completedAt: ctx.now,
    processingUntil: null,
    updatedAt: ctx.now
  }).returning("*");
  await queueRefundOutcomeEmail(ctx, refundId);
  let finalStatus = payment.status;
  if (outcome.status === "SUCCEEDED") {
    const refundedVnd = payment.refundedVnd + refund.amountVnd;
    finalStatus = statusAfterRefund(payment.amountVnd, refundedVnd);
    await Payment.query(ctx.trx).findById(payment.id).patch({ refundedVnd, status: finalStatus, updatedAt: ctx.now });
    await publishPaymentOutcome({
      ...ctx,
      outcome: finalStatus,
      paymentId: payment.id,
      reservationId: payment.reservationId,
      gateway: payment.gateway,
      amountVnd: payment.amountVnd,
      refundedVnd
    });
  }
  ctx.afterCommit(
    () => captureBusinessEvent(ctx.app, BUSINESS_EVENTS.refundProcessed, payment.reservationId, {
      payment_gateway: payment.gateway,
      refund_status: outcome.status,
      final_payment_status: finalStatus,
      refund_amount_vnd: refund.amountVnd
    })
  );
  return settled;
}
__name(settleRefund, "settleRefund");

// server/modules/payments/commands/completeRefund.ts
async function completeRefund(app, actor, refundId) {
  return inTransition(app, actor, async (ctx) => {
    const refund = await Refund.query(ctx.trx).findById(refundId).select("status", "payment_id");
    if (!refund) throw NotFound("No such refund.");
    const payment = await Payment.query(ctx.trx).findById(refund.paymentId).select("gateway");
    if (!ON_SITE_GATEWAYS.includes(payment.gateway)) throw Conflict("refund_via_gateway", "A VNPay refund is sent to VNPay by the server; it cannot be completed by hand.");
    if (refund.status === "FAILED") throw Conflict("refund_not_pending", "This refund failed; request a new one.");
    return settleRefund(ctx, refundId, { status: "SUCCEEDED" });
  });
}
__name(completeRefund, "completeRefund");

// server/modules/payments/commands/sendVnpayRefund.ts
import { raw as raw2 } from "objection";
async function processVnpayRefund(app, refundId, now = /* @__PURE__ */ new Date()) {
  const knex = app.db.knex;
  const [claimed] = await Refund.query(knex).where({ id: refundId, status: "PENDING" }).andWhere((q) => q.whereNull("processing_until").orWhere("processing_until", "<", now)).patch({ processingUntil: new Date(now.getTime() + claimSeconds(app) * 1e3), attempts: raw2("attempts + 1"), updatedAt: now }).returning("*");
  if (!claimed) {
    const row = await Refund.query(knex).findById(refundId).select("status");
    if (!row) return { status: "FAILED" };
    return row.status === "PENDING" ? { status: "PENDING", busy: true } : { status: row.status };
  }
  const payment = await paymentById(knex, claimed.paymentId);
  let outcome;
  try {
    const result = await vnpayOf(app).refund({
      txnRef: payment.txnRef,
      amountVnd: claimed.amountVnd,
      kind: claimed.amountVnd === payment.amountVnd ? "full" : "partial",
      transactionNo: payment.gatewayTransactionId ?? void 0,
      transactionDate: new Date(payment.createdAt),
      createdBy: (claimed.requestedBy ?? "SYSTEM").replace(/\|/g, "").slice(0, 250) || "SYSTEM",
      ipAddr: "127.0.0.1",
      orderInfo: `Hoan tien ${payment.reservationReference}`
    });
    outcome = result.ok ? { status: "SUCCEEDED", gatewayRefundId: result.transactionNo || null, responseCode: result.responseCode, response: result.raw } : { status: "FAILED", responseCode: result.responseCode, response: result.raw, failureReason: `VNPay declined the refund (${result.responseCode}): ${result.message}`.slice(0, 500) };
  } catch (err) {
    if (err instanceof VnpayError && err.code === "invalid_input") {
      outcome = { status: "FAILED", failureReason: `The refund could not be sent: ${err.message}` };
    } else {
      const message = err instanceof Error ? err.message : String(err);
      app.logger.warn({ err, refundId }, "a VNPay refund got no trustworthy answer; it stays pending and is retried");
      await Refund.query(knex).where({ id: refundId, status: "PENDING" }).patch({ processingUntil: null, failureReason: `Last attempt: ${message}`.slice(0, 500), updatedAt: /* @__PURE__ */ new Date() });
      return { status: "PENDING" };
    }
  }
  const settled = await inTransition(app, "SYSTEM", (ctx) => settleRefund(ctx, refundId, outcome));
  return { status: settled.status };
}
__name(processVnpayRefund, "processVnpayRefund");

// server/modules/payments/commands/createRefund.ts
async function createRefund(app, actor, paymentId, input) {
  const refund = await inTransition(
    app,
    actor,
    (ctx) => requestRefund(ctx, paymentId, { amountVnd: input.amountVnd, reason: input.reason, requestedBy: actorLabel(actor), onSite: "record", vnpayJobDelaySeconds: claimSeconds(app) })
  );
  if (refund.status !== "PENDING") return refund;
  await processVnpayRefund(app, refund.id);
  return await Refund.query(app.db.knex).findById(refund.id);
}
__name(createRefund, "createRefund");

// server/modules/payments/references.ts
import { randomBytes as randomBytes6 } from "node:crypto";
var newVnpayTxnRef = /* @__PURE__ */ __name((reference) => `${reference.replace(/^VN-/, "")}-${randomBytes6(4).toString("hex").toUpperCase()}`, "newVnpayTxnRef");
var newTransferReference = /* @__PURE__ */ __name((reference) => `BT${reference.replace(/^VN-/, "")}${randomBytes6(2).toString("hex").toUpperCase()}`, "newTransferReference");
var newOnSiteReference = /* @__PURE__ */ __name((gateway, reference) => `${gateway === "CASH" ? "CS" : gateway === "CARD_ON_SITE" ? "CD" : "BT"}${reference.replace(/^VN-/, "")}${randomBytes6(3).toString("hex").toUpperCase()}`, "newOnSiteReference");

// server/modules/payments/commands/recordPayment.ts
async function recordPayment(app, actor, input) {
  return inTransition(app, actor, async (ctx) => {
    if (!await lockEventOfReservation(ctx.trx, input.reservationId)) throw NotFound("No such reservation.");
    const reservation = await lockedReservation(ctx.trx, input.reservationId);
    const status = statusAt(reservation, ctx.now);
    if (status === "CANCELLED" || status === "NO_SHOW") throw Conflict("reservation_not_payable", `A ${status.toLowerCase().replace("_", "-")} reservation cannot take a payment.`);
    const due = reservation.totalVnd - await netPaid2(ctx.trx, reservation.id);
    if (due <= 0) throw Conflict("nothing_to_pay", "Nothing is due on this reservation.");
    const amountVnd = input.amountVnd ?? due;
    if (amountVnd > due) {
      throw Unprocessable("amount_exceeds_balance", `At most ${due} VND is due.`, [{ path: "body/amountVnd", message: `must be at most ${due}`, code: "amount_exceeds_balance" }]);
    }
    const recorded = {
      status: "SUCCEEDED",
      amountVnd,
      recordedBy: actorLabel(actor),
      note: input.note ?? null,
      succeededAt: ctx.now,
      gatewayPaidAt: ctx.now,
      updatedAt: ctx.now
    };
    const pendingTransfer = input.method === "BANK_TRANSFER" ? await Payment.query(ctx.trx).where({ reservation_id: reservation.id, gateway: "BANK_TRANSFER", status: "PENDING" }).orderBy("created_at", "desc").forUpdate().first().select("id") : void 0;
    const payment = pendingTransfer ? await Payment.query(ctx.trx).findById(pendingTransfer.id).patch(recorded).returning("*") : await Payment.query(ctx.trx).insert({ ...recorded, reservationId: reservation.id, gateway: input.method, txnRef: newOnSiteReference(input.method, reservation.reference), createdAt: ctx.now }).returning("*");
    await publishPaymentOutcome({ ...ctx, outcome: "SUCCEEDED", paymentId: payment.id, reservationId: reservation.id, gateway: payment.gateway, amountVnd, refundedVnd: 0 });
    if (amountVnd === due && (status === "HELD" || status === "EXPIRED")) await confirmReservation(ctx, reservation.id, { by: "PAYMENT" });
    ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.paymentCompleted, reservation.id, { payment_gateway: input.method, payment_status: "SUCCESS", amount_vnd: amountVnd }));
    return payment;
  });
}
__name(recordPayment, "recordPayment");

// server/modules/payments/commands/startCheckout.ts
var PAYMENT_URL_TTL_MINUTES = 15;
var PAY_AT_VENUE_TEXT = {
  en: "Pay in cash or by card at the box office when you arrive, quoting your reservation reference. Your seats are held until the hold ends; the venue confirms your booking once it is paid or confirmed by our staff.",
  vi: "Vui l\xF2ng thanh to\xE1n b\u1EB1ng ti\u1EC1n m\u1EB7t ho\u1EB7c th\u1EBB t\u1EA1i qu\u1EA7y v\xE9 khi \u0111\u1EBFn, k\xE8m m\xE3 \u0111\u1EB7t ch\u1ED7. Ch\u1ED7 \u0111\u01B0\u1EE3c gi\u1EEF \u0111\u1EBFn khi h\u1EBFt th\u1EDDi gian gi\u1EEF ch\u1ED7; \u0111\u1EB7t ch\u1ED7 \u0111\u01B0\u1EE3c x\xE1c nh\u1EADn khi \u0111\xE3 thanh to\xE1n ho\u1EB7c khi nh\xE2n vi\xEAn x\xE1c nh\u1EADn."
};
async function startCheckout(app, found, input, ip, baseUrl, now = /* @__PURE__ */ new Date()) {
  return inTransition(
    app,
    "GUEST",
    async (ctx) => {
      const row = await lockedReservation(ctx.trx, found.id);
      const status = statusAt(row, now);
      if (status === "EXPIRED") throw Conflict("hold_expired", "The hold on these seats has run out; make a new booking.");
      if (status === "CONFIRMED" || status === "CHECKED_IN") throw Conflict("reservation_already_confirmed", "This reservation is already confirmed.");
      if (status !== "HELD") throw Conflict("reservation_not_payable", `A ${status.toLowerCase().replace("_", "-")} reservation cannot be paid.`);
      const methods = await enabledMethods(ctx.trx, app);
      if (!methods.includes(input.method)) {
        const list = methods.length ? methods.join(", ") : "none";
        throw Unprocessable("payment_method_unavailable", `${input.method} is not available; enabled methods: ${list}.`, [
          { path: "body/method", message: `is not enabled; enabled methods: ${list}`, code: "payment_method_unavailable" }
        ]);
      }
      const amountVnd = row.totalVnd - await netPaid2(ctx.trx, row.id);
      if (amountVnd <= 0) throw Conflict("nothing_to_pay", "Nothing is due on this reservation.");
      const holdExpiresAt = row.holdExpiresAt ? new Date(row.holdExpiresAt) : null;
      const answer2 = { method: input.method, reference: row.reference, amountVnd, holdExpiresAt: holdExpiresAt?.toISOString() ?? null, paymentId: null };
      if (input.method === "VNPAY") {
        const cap = new Date(now.getTime() + PAYMENT_URL_TTL_MINUTES * 6e4);
        const expiresAt = holdExpiresAt && holdExpiresAt < cap ? holdExpiresAt : cap;
        const txnRef = newVnpayTxnRef(row.reference);
        const payment = await Payment.query(ctx.trx).insert({ reservationId: row.id, gateway: "VNPAY", status: "PENDING", amountVnd, txnRef, expiresAt, createdAt: now, updatedAt: now }).returning("*");
        const paymentUrl = vnpayOf(app).createPaymentUrl({
          txnRef,
          amountVnd,
          orderInfo: `Thanh toan dat cho ${row.reference}`,
          locale: input.locale ?? ((row.locale ?? app.config.defaultLocale).startsWith("vi") ? "vn" : "en"),
          // VNPay wants the guest's address; one it would refuse (none, a proxy's placeholder) is sent as loopback.
          ipAddr: /^(::ffff:)?[0-9A-Fa-f.:]{2,45}$/.test(ip) ? ip : "127.0.0.1",
          returnUrl: `${baseUrl}/api/payments/vnpay/return`,
          // The development sandbox's pay page is this server, as the guest reaches it.
          paymentUrl: app.config.vnpaySandbox ? `${baseUrl}${SANDBOX_PATH}` : void 0,
          createdAt: now,
          expiresAt,
          bankCode: input.bankCode
        });
        answer2.paymentId = payment.id;
        answer2.vnpay = { paymentUrl, txnRef, expiresAt: expiresAt.toISOString() };
      } else if (input.method === "BANK_TRANSFER") {
        const payment = await Payment.query(ctx.trx).where({ reservation_id: row.id, gateway: "BANK_TRANSFER", status: "PENDING", amount_vnd: amountVnd }).orderBy("created_at").first() ?? await Payment.query(ctx.trx).insert({ reservationId: row.id, gateway: "BANK_TRANSFER", status: "PENDING", amountVnd, txnRef: newTransferReference(row.reference), createdAt: now, updatedAt: now }).returning("*");
        answer2.paymentId = payment.id;
        answer2.bankTransfer = { account: { ...app.config.bankTransfer }, transferReference: payment.txnRef, amountVnd };
      } else {
        const language = (row.locale ?? app.config.defaultLocale).startsWith("vi") ? "vi" : "en";
        answer2.payAtVenue = { instructions: PAY_AT_VENUE_TEXT[language] };
      }
      ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.checkoutStarted, row.id, { payment_gateway: input.method, amount_vnd: amountVnd }));
      return answer2;
    },
    now
  );
}
__name(startCheckout, "startCheckout");

// server/modules/payments/commands/auditCallback.ts
function auditParams(query) {
  const params = {};
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith("vnp_")) continue;
    const single2 = Array.isArray(value) ? value[0] : value;
    if (single2 !== void 0) params[key] = String(single2).slice(0, 1e3);
  }
  return params;
}
__name(auditParams, "auditParams");
async function auditCallback(knex, row) {
  await PaymentCallback.query(knex).insert({
    gateway: "VNPAY",
    kind: row.kind,
    paymentId: row.paymentId,
    txnRef: row.txnRef?.slice(0, 200) ?? null,
    params: row.params,
    signatureValid: row.valid,
    outcome: row.outcome
  });
}
__name(auditCallback, "auditCallback");

// server/modules/payments/commands/vnpayIpn.ts
async function vnpayIpn(app, query) {
  const knex = app.db.knex;
  const params = auditParams(query);
  const callback = vnpayOf(app).verifyCallback(query);
  if (!callback.valid) {
    await auditCallback(knex, { kind: "IPN", paymentId: null, txnRef: callback.txnRef, params, valid: false, outcome: "97" });
    return ipnResponse.invalidSignature();
  }
  let paymentId = null;
  try {
    return await inTransition(app, "SYSTEM", async (ctx) => {
      const found = callback.txnRef ? await Payment.query(ctx.trx).where({ txn_ref: callback.txnRef, gateway: "VNPAY" }).first().select("id", "reservation_id") : void 0;
      const answer2 = found ? await applyIpn(ctx, found, callback) : ipnResponse.orderNotFound();
      paymentId = found?.id ?? null;
      await auditCallback(ctx.trx, { kind: "IPN", paymentId, txnRef: callback.txnRef, params, valid: true, outcome: answer2.RspCode });
      return answer2;
    });
  } catch (err) {
    app.logger.error({ err, txnRef: callback.txnRef }, "a VNPay IPN could not be processed");
    await auditCallback(knex, { kind: "IPN", paymentId, txnRef: callback.txnRef, params, valid: true, outcome: "99" }).catch(() => void 0);
    return ipnResponse.unknownError();
  }
}
__name(vnpayIpn, "vnpayIpn");
async function applyIpn(ctx, found, callback) {
  await lockEventOfReservation(ctx.trx, found.reservationId);
  await lockedReservation(ctx.trx, found.reservationId);
  const payment = await Payment.query(ctx.trx).findById(found.id).forUpdate();
  if (callback.amountVnd === null || callback.amountVnd !== payment.amountVnd) return ipnResponse.invalidAmount();
  if (payment.status !== "PENDING") return ipnResponse.alreadyConfirmed();
  const gatewayFields = {
    gatewayTransactionId: callback.transactionNo?.slice(0, 100) ?? null,
    bankCode: callback.bankCode?.slice(0, 50) ?? null,
    cardType: callback.cardType?.slice(0, 50) ?? null,
    gatewayResponseCode: callback.responseCode?.slice(0, 10) ?? null,
    gatewayPaidAt: parseVnpayDate(callback.payDate) ?? null,
    updatedAt: ctx.now
  };
  const hookContext = { ...ctx, paymentId: payment.id, reservationId: payment.reservationId, gateway: payment.gateway, amountVnd: payment.amountVnd, refundedVnd: 0 };
  if (!callback.success) {
    await Payment.query(ctx.trx).findById(payment.id).patch({ ...gatewayFields, status: "FAILED", failedAt: ctx.now });
    await publishPaymentOutcome({ ...hookContext, outcome: "FAILED" });
    ctx.afterCommit(
      () => captureBusinessEvent(ctx.app, BUSINESS_EVENTS.paymentFailed, payment.reservationId, { payment_gateway: "VNPAY", payment_status: "FAILED", amount_vnd: payment.amountVnd, gateway_response_code: callback.responseCode ?? null })
    );
    return ipnResponse.success();
  }
  await Payment.query(ctx.trx).findById(payment.id).patch({ ...gatewayFields, status: "SUCCEEDED", succeededAt: ctx.now });
  await publishPaymentOutcome({ ...hookContext, outcome: "SUCCEEDED" });
  ctx.afterCommit(
    () => captureBusinessEvent(ctx.app, BUSINESS_EVENTS.paymentCompleted, payment.reservationId, { payment_gateway: "VNPAY", payment_status: "SUCCESS", amount_vnd: payment.amountVnd })
  );
  const refundReason = await confirmOrRefundReason(ctx, payment);
  if (refundReason) {
    ctx.app.logger.warn({ paymentId: payment.id, reservationId: payment.reservationId, reason: refundReason }, "a VNPay payment cannot be used by its reservation; a refund is requested");
    await requestRefund(ctx, payment.id, { amountVnd: payment.amountVnd, reason: refundReason, requestedBy: "SYSTEM", onSite: "pending", vnpayJobDelaySeconds: 0 });
  }
  return ipnResponse.success();
}
__name(applyIpn, "applyIpn");
async function confirmOrRefundReason(ctx, payment) {
  const reservation = await reservationStanding(ctx.trx, payment.reservationId);
  if (reservation.status === "CANCELLED") return "reservation_cancelled: the reservation was cancelled before the payment arrived";
  if (await netPaidBefore(ctx.trx, payment.reservationId, payment.id) >= reservation.totalVnd) return "already_paid: the reservation was already paid in full";
  try {
    await confirmReservation(ctx, payment.reservationId, { by: "PAYMENT" });
    return null;
  } catch (err) {
    if (err instanceof Problem && err.status === 409) return `${err.code}: ${err.detail ?? err.message}`;
    throw err;
  }
}
__name(confirmOrRefundReason, "confirmOrRefundReason");

// server/modules/payments/commands/vnpayReturn.ts
async function vnpayReturn(app, query) {
  const knex = app.db.knex;
  const callback = vnpayOf(app).verifyCallback(query);
  const row = callback.valid && callback.txnRef ? await vnpayReturnView(knex, callback.txnRef) : void 0;
  await auditCallback(knex, { kind: "RETURN", paymentId: row?.id ?? null, txnRef: callback.txnRef, params: auditParams(query), valid: callback.valid, outcome: callback.valid ? callback.responseCode ?? null : "97" });
  return {
    valid: callback.valid,
    gatewaySuccess: callback.valid && callback.success,
    responseCode: callback.valid ? callback.responseCode?.slice(0, 10) ?? null : null,
    paymentStatus: row?.status ?? null,
    reservationReference: row?.reference ?? null,
    reservationStatus: row ? statusAt({ status: row.reservationStatus, holdExpiresAt: row.holdExpiresAt }, /* @__PURE__ */ new Date()) : null,
    locale: row?.locale ?? null
  };
}
__name(vnpayReturn, "vnpayReturn");

// server/modules/payments/commands/vnpaySandboxSubmit.ts
async function vnpaySandboxSubmit(app, request, outcome, log) {
  const done = await completeSandboxPayment(app, sandboxSecret(app.config), request, outcome, vnpayIpn);
  log.info({ txnRef: request.txnRef, responseCode: done.responseCode, ipn: done.ipn.RspCode }, "VNPay sandbox: payment completed");
  return done;
}
__name(vnpaySandboxSubmit, "vnpaySandboxSubmit");

// server/modules/payments/presenters.ts
function presentPayment(payment) {
  return {
    id: payment.id,
    reservationId: payment.reservationId,
    reservationReference: payment.reservationReference,
    gateway: payment.gateway,
    status: payment.status,
    amountVnd: payment.amountVnd,
    refundedVnd: payment.refundedVnd,
    txnRef: payment.txnRef,
    gatewayTransactionId: payment.gatewayTransactionId,
    bankCode: payment.bankCode,
    cardType: payment.cardType,
    gatewayResponseCode: payment.gatewayResponseCode,
    gatewayPaidAt: iso2(payment.gatewayPaidAt),
    recordedBy: payment.recordedBy,
    note: payment.note,
    expiresAt: iso2(payment.expiresAt),
    succeededAt: iso2(payment.succeededAt),
    failedAt: iso2(payment.failedAt),
    createdAt: iso2(payment.createdAt),
    updatedAt: iso2(payment.updatedAt)
  };
}
__name(presentPayment, "presentPayment");
function presentRefund(refund) {
  return {
    id: refund.id,
    paymentId: refund.paymentId,
    amountVnd: refund.amountVnd,
    reason: refund.reason,
    status: refund.status,
    requestedBy: refund.requestedBy,
    gatewayRefundId: refund.gatewayRefundId,
    gatewayResponseCode: refund.gatewayResponseCode,
    failureReason: refund.failureReason,
    attempts: refund.attempts,
    completedAt: iso2(refund.completedAt),
    createdAt: iso2(refund.createdAt),
    updatedAt: iso2(refund.updatedAt)
  };
}
__name(presentRefund, "presentRefund");
function presentCallback(callback) {
  return { kind: callback.kind, signatureValid: callback.signatureValid, outcome: callback.outcome, receivedAt: iso2(callback.receivedAt) };
}
__name(presentCallback, "presentCallback");
function presentReturn(result) {
  return {
    valid: result.valid,
    gatewaySuccess: result.gatewaySuccess,
    responseCode: result.responseCode,
    paymentStatus: result.paymentStatus,
    reservationReference: result.reservationReference,
    reservationStatus: result.reservationStatus
  };
}
__name(presentReturn, "presentReturn");

// server/modules/payments/handlers.ts
var NoSuchReservation2 = /* @__PURE__ */ __name(() => NotFound("No such reservation, or the token does not open it."), "NoSuchReservation");
var guestToken = /* @__PURE__ */ __name((call) => call.header("x-reservation-token") || void 0, "guestToken");
var NO_STORE = { "Cache-Control": "no-store" };
var baseUrlOf = /* @__PURE__ */ __name((call) => callbackBaseUrl(call.app.config, call.koa.req.socket), "baseUrlOf");
function sandboxOn(call) {
  if (!call.app.config.vnpaySandbox) throw NotFound("The VNPay sandbox is off (VNPAY_SANDBOX).");
}
__name(sandboxOn, "sandboxOn");
var sandboxRequest = /* @__PURE__ */ __name((call) => readSandboxRequest((query) => vnpayOf(call.app).verifyCallback(query), call.koa.query), "sandboxRequest");
var sandboxHtml = /* @__PURE__ */ __name((call, html) => ({ status: 200, body: html, contentType: "text/html", headers: { "Content-Security-Policy": sandboxCsp(call.app.config.publicSiteUrl), ...NO_STORE, "Referrer-Policy": "no-referrer" } }), "sandboxHtml");
function sandboxOutcome(call) {
  const raw4 = call.contentType === "application/x-www-form-urlencoded" ? new URLSearchParams(call.rawBody?.toString("utf8") ?? "").getAll("outcome") : [call.body?.outcome].filter((v) => v !== void 0);
  if (raw4.length === 1 && (raw4[0] === "pay" || raw4[0] === "cancel" || raw4[0] === "fail")) return raw4[0];
  throw ValidationFailed([{ path: "body/outcome", message: "must be one of: pay, cancel, fail", code: "enum" }]);
}
__name(sandboxOutcome, "sandboxOutcome");
var handlers22 = {
  async getCheckoutOptions(call) {
    const row = await guestReservation(call.app.db.knex, call.params.reference, guestToken(call));
    if (!row) throw NoSuchReservation2();
    return json(200, await checkoutOptions(call.app, row), NO_STORE);
  },
  async startCheckout(call) {
    const row = await guestReservation(call.app.db.knex, call.params.reference, guestToken(call));
    if (!row) throw NoSuchReservation2();
    return json(201, await startCheckout(call.app, row, call.body, call.ip, baseUrlOf(call)), NO_STORE);
  },
  vnpaySandboxPage(call) {
    sandboxOn(call);
    return sandboxHtml(call, renderSandboxPage(sandboxRequest(call), call.koa.originalUrl));
  },
  async vnpaySandboxSubmit(call) {
    sandboxOn(call);
    const outcome = sandboxOutcome(call);
    const request = sandboxRequest(call);
    if (!request.ok) return sandboxHtml(call, renderSandboxPage(request, call.koa.originalUrl));
    const done = await vnpaySandboxSubmit(call.app, request, outcome, call.log);
    return redirect(done.location, 303, { headers: NO_STORE });
  },
  async vnpayReturn(call) {
    const result = await vnpayReturn(call.app, call.koa.query);
    if (call.koa.accepts("json", "html") === "html") return redirect(siteReturnUrl(call.app.config, result.locale, call.koa.querystring), 303, { headers: NO_STORE });
    return json(200, presentReturn(result), NO_STORE);
  },
  async vnpayIpn(call) {
    return json(200, await vnpayIpn(call.app, call.koa.query));
  },
  async listPayments(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listPayments(call.app.db.knex, { reservationId: query.reservationId, status: query.status, gateway: query.gateway, from: query.from, to: query.to, limit, offset });
    return json(200, { items: page.items.map(presentPayment), total: page.total, limit, offset });
  },
  async recordPayment(call) {
    const payment = await recordPayment(call.app, staffActor(call.auth), call.body);
    return json(201, presentPayment(await paymentById(call.app.db.knex, payment.id)));
  },
  async getPayment(call) {
    const detail = await paymentDetail(call.app.db.knex, call.params.paymentId);
    return json(200, { payment: presentPayment(detail.payment), refunds: detail.refunds.map(presentRefund), callbacks: detail.callbacks.map(presentCallback) });
  },
  async createRefund(call) {
    return json(201, presentRefund(await createRefund(call.app, staffActor(call.auth), call.params.paymentId, call.body)));
  },
  async listRefunds(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listRefunds(call.app.db.knex, { paymentId: query.paymentId, status: query.status, limit, offset });
    return json(200, { items: page.items.map(presentRefund), total: page.total, limit, offset });
  },
  async completeRefund(call) {
    return json(200, presentRefund(await completeRefund(call.app, staffActor(call.auth), call.params.refundId)));
  }
};

// server/modules/payments/jobs.ts
var jobs4 = [
  {
    name: VNPAY_REFUND_QUEUE,
    retryLimit: 12,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 180,
    async handler(data, job) {
      if (!job.app) throw new Error(`${VNPAY_REFUND_QUEUE}: the job engine was started without the app's services`);
      const result = await processVnpayRefund(job.app, data.refundId);
      if (result.status === "PENDING") throw new Error(result.busy ? "the refund is being sent by another worker" : "VNPay gave no trustworthy answer; retrying");
      job.log.info({ refundId: data.refundId, status: result.status }, "VNPay refund settled");
      return result;
    }
  }
];

// server/modules/payments/publicPolicy.ts
var policy10 = [
  { path: "/api/payments/vnpay/return", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/payments/vnpay/ipn", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  // The development sandbox's pay page and its buttons (404 unless VNPAY_SANDBOX is on; refused in production).
  { path: "/api/payments/vnpay/sandbox", match: "exact", methods: ["GET", "HEAD", "POST"], level: "public" }
];

// server/modules/payments/subscribers.ts
var cancellationRefunds = subscriber({
  name: "payments.refunds",
  event: "reservation.cancelled",
  phase: "in-transaction",
  order: 10,
  async handle({ reservationId, reason }, ctx) {
    for (const payment of await paidPaymentsOf(ctx.trx, reservationId)) {
      const left = await refundable(ctx.trx, payment);
      if (left <= 0) continue;
      await requestRefund(ctx, payment.id, {
        amountVnd: left,
        reason: `reservation_cancelled${reason ? `: ${reason}` : ""}`.slice(0, 500),
        requestedBy: "SYSTEM",
        onSite: "pending",
        vnpayJobDelaySeconds: 0
      });
    }
  }
});

// server/modules/payments/index.ts
function record22() {
  return { tag: "payments", handlers: handlers22, policy: policy10, jobs: jobs4, subscribers: [cancellationRefunds], services: paymentsServices };
}
__name(record22, "record");

// server/modules/checkIns/commands/redeemCheckIn.ts
import { createHash as createHash14 } from "node:crypto";

// server/modules/checkIns/door.ts
import { DateTime as DateTime3 } from "luxon";

// server/modules/checkIns/models.ts
var CheckIn = class extends RecordModel {
  static {
    __name(this, "CheckIn");
  }
  static tableName = "check_ins";
  id;
  reservationId;
  showEventId;
  type;
  identifiedBy;
  nonce;
  requestHash;
  result;
  reason;
  operator;
  createdAt;
};

// server/modules/checkIns/door.ts
var TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
function normalizeToken(raw4) {
  const token2 = raw4.replace(/\s+/g, "").replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  return TOKEN_SHAPE.test(token2) ? token2 : void 0;
}
__name(normalizeToken, "normalizeToken");
var DOOR_DAY_STARTS_AT_HOUR = 6;
function doorDay(instant, zone) {
  return DateTime3.fromJSDate(instant, { zone }).minus({ hours: DOOR_DAY_STARTS_AT_HOUR }).toISODate();
}
__name(doorDay, "doorDay");
var isDoorDay = /* @__PURE__ */ __name((startsAt, now, zone) => doorDay(startsAt, zone) === doorDay(now, zone), "isDoorDay");
function operatorLabel(auth) {
  if (auth.authSource === "api-key" && auth.identity.apiKeyId) return `api-key:${auth.identity.apiKeyId}`;
  if (auth.authSource === "api-token") return `superuser-token:${auth.identity.superuserTokenIndex ?? 0}`;
  return auth.identity.accountId ?? auth.authSource;
}
__name(operatorLabel, "operatorLabel");
function refusal(row, type, at2) {
  const status = statusAt(row, at2.now);
  if (status === "CANCELLED" || row.eventStatus === "CANCELLED") return "cancelled";
  if (status === "HELD" || status === "EXPIRED") return "unpaid";
  if (status === "NO_SHOW") return "no_show";
  if (at2.showEventId && at2.showEventId.toLowerCase() !== row.showEventId) return "wrong_event";
  if (type === "ENTRY") {
    if (!isDoorDay(new Date(row.eventStartsAt), at2.now, at2.zone)) return "not_today";
    return at2.inside ? "already_checked_in" : null;
  }
  return at2.inside ? null : "not_checked_in";
}
__name(refusal, "refusal");
var NoSuchReservation3 = /* @__PURE__ */ __name(() => NotFound("No reservation has this id or check-in token."), "NoSuchReservation");

// server/modules/checkIns/queries.ts
async function doorReservation(knex, id) {
  const row = await knex("reservations as r").join("customers as c", "c.id", "r.customer_id").join("offers as o", "o.id", "r.offer_id").join("show_events as e", "e.id", "r.show_event_id").join("shows as s", "s.id", "e.show_id").leftJoin("venue_tables as t", "t.id", "r.table_id").where("r.id", id).first(
    "r.id",
    "r.reference",
    "r.status",
    "r.hold_expires_at",
    "r.guest_count",
    "r.total_vnd",
    "r.confirmed_by",
    "r.checked_in_at",
    "r.staff_notes",
    "r.show_event_id",
    "r.offer_id",
    "o.code as offer_code",
    "o.name as offer_name",
    "r.table_id",
    "t.code as table_code",
    "t.zone as table_zone",
    "c.honorific as customer_honorific",
    "c.name as customer_name",
    "e.slug as event_slug",
    "e.status as event_status",
    "e.starts_at as event_starts_at",
    "e.doors_at as event_doors_at",
    "s.code as show_code",
    "s.title as show_title",
    knex.raw(`exists (select 1 from payments p where p.reservation_id = r.id and p.status in (${PAID_STATUSES.map(() => "?").join(", ")})) as paid`, PAID_STATUSES),
    knex.raw(
      "(select coalesce(sum(p.amount_vnd - p.refunded_vnd), 0) from payments p where p.reservation_id = r.id and p.status in ('SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED')) as paid_vnd"
    )
  );
  if (!row) return void 0;
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    holdExpiresAt: row.hold_expires_at,
    guestCount: row.guest_count,
    totalVnd: Number(row.total_vnd),
    confirmedBy: row.confirmed_by,
    checkedInAt: row.checked_in_at,
    staffNotes: row.staff_notes,
    showEventId: row.show_event_id,
    offerId: row.offer_id,
    offerCode: row.offer_code,
    offerName: row.offer_name,
    tableId: row.table_id,
    tableCode: row.table_code,
    tableZone: row.table_zone,
    customerHonorific: row.customer_honorific,
    customerName: row.customer_name,
    eventSlug: row.event_slug,
    eventStatus: row.event_status,
    eventStartsAt: row.event_starts_at,
    eventDoorsAt: row.event_doors_at,
    showCode: row.show_code,
    showTitle: row.show_title,
    paid: Boolean(row.paid),
    paidVnd: Number(row.paid_vnd)
  };
}
__name(doorReservation, "doorReservation");
async function resolveTarget(knex, target, lock = false) {
  let where;
  if ("id" in target) where = { id: target.id };
  else {
    const token2 = normalizeToken(target.token);
    if (!token2) return void 0;
    where = { check_in_token_hash: digest3(token2) };
  }
  const query = knex("reservations").where(where);
  const row = await (lock ? query.forUpdate() : query).first("id");
  return row?.id;
}
__name(resolveTarget, "resolveTarget");
async function knownEvent(trx, id) {
  const row = await trx("show_events").where({ id }).first("id");
  return row?.id ?? null;
}
__name(knownEvent, "knownEvent");
var HISTORY_CAP = 200;
async function history(knex, reservationId) {
  const rows2 = await CheckIn.query(knex).where({ reservation_id: reservationId }).orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "desc" }]).limit(HISTORY_CAP);
  return rows2.reverse();
}
__name(history, "history");
async function isInside(knex, row) {
  if (row.status !== "CHECKED_IN") return false;
  const last = await CheckIn.query(knex).where({ reservation_id: row.id, result: "ok" }).orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "desc" }]).first().select("type");
  return last?.type !== "EXIT";
}
__name(isInside, "isInside");
async function attemptByNonce(knex, nonce) {
  return CheckIn.query(knex).where({ nonce }).first();
}
__name(attemptByNonce, "attemptByNonce");
async function markCheckedIn(trx, reservationId, now) {
  await trx("reservations").where({ id: reservationId }).update({ status: "CHECKED_IN", checked_in_at: now, updated_at: now });
}
__name(markCheckedIn, "markCheckedIn");
async function insertAttemptOnce(trx, attempt) {
  const [inserted] = await trx("check_ins").insert({
    reservation_id: attempt.reservationId,
    show_event_id: attempt.showEventId,
    type: attempt.type,
    identified_by: attempt.identifiedBy,
    nonce: attempt.nonce,
    request_hash: attempt.requestHash,
    result: attempt.result,
    reason: attempt.reason,
    operator: attempt.operator,
    created_at: trx.raw("clock_timestamp()")
  }).onConflict("nonce").ignore().returning("*");
  return inserted ? CheckIn.fromDatabaseJson(inserted) : void 0;
}
__name(insertAttemptOnce, "insertAttemptOnce");

// server/modules/checkIns/commands/redeemCheckIn.ts
var NonceTaken = class extends Error {
  static {
    __name(this, "NonceTaken");
  }
};
var NonceReused = /* @__PURE__ */ __name(() => Unprocessable("nonce_reused", "This nonce was used for another scan; generate a new nonce per scan.", [
  { path: "body/nonce", message: "was already used for another scan", code: "nonce_reused" }
]), "NonceReused");
function requestHash2(input) {
  const target = "id" in input.target ? `id:${input.target.id.toLowerCase()}` : `token:${digest3(normalizeToken(input.target.token) ?? input.target.token).toString("hex")}`;
  return createHash14("sha256").update([input.type, target, input.showEventId?.toLowerCase() ?? ""].join("\n")).digest();
}
__name(requestHash2, "requestHash");
async function redeemCheckIn(app, input, auth, now = /* @__PURE__ */ new Date()) {
  const hash2 = requestHash2(input);
  const operator = operatorLabel(auth);
  try {
    return await inTransition(
      app,
      staffActor(auth),
      async (ctx) => {
        const { trx } = ctx;
        const reservationId = await resolveTarget(trx, input.target, true);
        const recorded = await attemptByNonce(trx, input.nonce);
        if (recorded) return replay(recorded, hash2, recorded.reservationId ? await doorReservation(trx, recorded.reservationId) : void 0);
        const row = reservationId ? await doorReservation(trx, reservationId) : void 0;
        let reason = "not_found";
        if (row) {
          const inside = await isInside(trx, row);
          reason = refusal(row, input.type, { inside, showEventId: input.showEventId, now, zone: app.config.venueTimezone });
        }
        const checksIn = !reason && input.type === "ENTRY" && row.status === "CONFIRMED";
        if (checksIn) {
          assertTransition(row.status, "CHECKED_IN");
          await markCheckedIn(trx, row.id, now);
        }
        const inserted = await insertAttemptOnce(trx, {
          reservationId: row?.id ?? null,
          showEventId: input.showEventId ? await knownEvent(trx, input.showEventId) : null,
          type: input.type,
          identifiedBy: "id" in input.target ? "ID" : "TOKEN",
          nonce: input.nonce,
          requestHash: hash2,
          result: reason ? "refused" : "ok",
          reason,
          operator
        });
        if (!inserted) throw new NonceTaken();
        if (checksIn) ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.operatorCheckInCompleted, row.id, { checked_in_by: operator }));
        return { checkIn: inserted, reservation: row ? await doorReservation(trx, row.id) : void 0, replayed: false };
      },
      now
    );
  } catch (err) {
    if (!(err instanceof NonceTaken)) throw err;
    const recorded = await attemptByNonce(app.db.knex, input.nonce);
    return replay(recorded, hash2, recorded.reservationId ? await doorReservation(app.db.knex, recorded.reservationId) : void 0);
  }
}
__name(redeemCheckIn, "redeemCheckIn");
function replay(recorded, hash2, reservation) {
  if (!Buffer.from(recorded.requestHash).equals(hash2)) throw NonceReused();
  return { checkIn: recorded, reservation, replayed: true };
}
__name(replay, "replay");

// server/modules/checkIns/presenters.ts
function presentDoorReservation(row, options) {
  const { defaultLocale } = options;
  const startsAt = new Date(row.eventStartsAt);
  const local = toLocal(startsAt, options.venueTimezone);
  return {
    id: row.id,
    reference: row.reference,
    status: statusAt(row, options.now),
    guestName: [row.customerHonorific, row.customerName].filter(Boolean).join(" "),
    partySize: row.guestCount,
    offer: { id: row.offerId, code: row.offerCode, name: pickLocale(row.offerName, defaultLocale, defaultLocale) },
    table: row.tableId ? { id: row.tableId, code: row.tableCode, zone: row.tableZone } : null,
    event: {
      id: row.showEventId,
      slug: row.eventSlug,
      status: row.eventStatus,
      startsAt: startsAt.toISOString(),
      doorsAt: iso2(row.eventDoorsAt),
      localDate: local.date,
      localTime: local.time,
      showCode: row.showCode,
      showTitle: pickLocale(row.showTitle, defaultLocale, defaultLocale)
    },
    confirmedBy: row.confirmedBy,
    checkedInAt: iso2(row.checkedInAt),
    payment: { paid: row.paid, totalVnd: row.totalVnd, paidVnd: row.paidVnd, dueVnd: Math.max(0, row.totalVnd - row.paidVnd) },
    staffNotes: row.staffNotes
  };
}
__name(presentDoorReservation, "presentDoorReservation");
function presentCheckIn(checkIn) {
  return {
    id: checkIn.id,
    nonce: checkIn.nonce,
    type: checkIn.type,
    result: checkIn.result,
    reason: checkIn.reason,
    identifiedBy: checkIn.identifiedBy,
    reservationId: checkIn.reservationId,
    showEventId: checkIn.showEventId,
    operator: checkIn.operator,
    at: iso2(checkIn.createdAt)
  };
}
__name(presentCheckIn, "presentCheckIn");

// server/modules/checkIns/handlers.ts
var BY_TOKEN_DEPRECATED_AT = new Date(Date.UTC(2026, 10, 27));
var BY_TOKEN_HEADERS = {
  Deprecation: `@${BY_TOKEN_DEPRECATED_AT.getTime() / 1e3}`,
  Link: '</api/check-ins/lookup>; rel="successor-version"'
};
var NO_STORE2 = { "Cache-Control": "no-store" };
async function lookup(call, target, showEventId) {
  const knex = call.app.db.knex;
  const id = await resolveTarget(knex, target);
  const row = id ? await doorReservation(knex, id) : void 0;
  if (!row) throw NoSuchReservation3();
  const now = /* @__PURE__ */ new Date();
  const { defaultLocale, venueTimezone } = call.app.config;
  const inside = await isInside(knex, row);
  const at2 = { inside, showEventId, now, zone: venueTimezone };
  const verdict = /* @__PURE__ */ __name((type) => {
    const reason = refusal(row, type, at2);
    return { ok: reason === null, reason };
  }, "verdict");
  return {
    reservation: presentDoorReservation(row, { defaultLocale, venueTimezone, now }),
    inside,
    entry: verdict("ENTRY"),
    exit: verdict("EXIT"),
    history: (await history(knex, row.id)).map(presentCheckIn)
  };
}
__name(lookup, "lookup");
var handlers23 = {
  async getCheckIn(call) {
    const { id } = call.params;
    const { token: token2, showEventId } = call.query;
    if (id === "lookup" && token2 === void 0) throw ValidationFailed([{ path: "query/token", message: "is required with lookup", code: "required" }]);
    if (id !== "lookup" && token2 !== void 0) throw ValidationFailed([{ path: "query/token", message: "is taken with lookup only, not with a reservation id", code: "not_allowed" }]);
    const target = id === "lookup" ? { token: token2 } : { id: id.toLowerCase() };
    return json(200, await lookup(call, target, showEventId), NO_STORE2);
  },
  async getCheckInByToken(call) {
    try {
      return json(200, await lookup(call, { token: call.params.token }, call.query.showEventId), { ...BY_TOKEN_HEADERS, ...NO_STORE2 });
    } catch (err) {
      if (err instanceof Problem) throw new Problem(err.status, err.code, err.title, { detail: err.detail, errors: err.errors, headers: { ...err.headers, ...BY_TOKEN_HEADERS } });
      throw err;
    }
  },
  async redeemCheckIn(call) {
    const { reservationId, token: token2, type, nonce, showEventId } = call.body;
    if (reservationId === void 0 === (token2 === void 0)) {
      const message = reservationId === void 0 ? "one of reservationId and token is required" : "send reservationId or token, not both";
      throw ValidationFailed([
        { path: "body/reservationId", message, code: "oneOf" },
        { path: "body/token", message, code: "oneOf" }
      ]);
    }
    const target = reservationId !== void 0 ? { id: reservationId.toLowerCase() } : { token: token2 };
    const outcome = await redeemCheckIn(call.app, { target, type, nonce, showEventId }, call.auth);
    const { defaultLocale, venueTimezone } = call.app.config;
    const body = {
      checkIn: presentCheckIn(outcome.checkIn),
      reservation: outcome.reservation ? presentDoorReservation(outcome.reservation, { defaultLocale, venueTimezone, now: /* @__PURE__ */ new Date() }) : null
    };
    return json(200, body, { ...NO_STORE2, ...outcome.replayed ? { "Idempotent-Replayed": "true" } : {} });
  }
};

// server/modules/checkIns/index.ts
function record23() {
  return { tag: "checkIns", handlers: handlers23 };
}
__name(record23, "record");

// server/modules/reservations/queries.ts
function staffReservationQuery(knex) {
  return reservationQuery(knex).join("customers as c", "c.id", "r.customer_id").leftJoin("venue_tables as t", "t.id", "r.table_id").select(
    "c.honorific as customer_honorific",
    "c.name as customer_name",
    "c.email as customer_email",
    "c.phone as customer_phone",
    "c.is_deleted as customer_is_deleted",
    "t.code as table_code",
    "t.zone as table_zone",
    "t.seats as table_seats"
  );
}
__name(staffReservationQuery, "staffReservationQuery");
async function staffReservation(knex, id) {
  const row = await staffReservationQuery(knex).where("r.id", id).first();
  if (!row) throw NotFound("No such reservation.");
  const payments = await knex("payments").where("reservation_id", id).orderBy([{ column: "created_at", order: "desc" }, { column: "id" }]).limit(100).select("id", "gateway", "status", "amount_vnd", "refunded_vnd", "txn_ref", "created_at", "succeeded_at");
  return { reservation: camelRow(row), payments: payments.map((line) => camelRow(line)) };
}
__name(staffReservation, "staffReservation");
function applyFilters(query, filters, zone, now) {
  if (filters.eventId) query.where("r.show_event_id", filters.eventId);
  if (filters.date) {
    let day2;
    try {
      day2 = localDateRange(filters.date, filters.date, zone);
    } catch {
      throw Unprocessable("invalid_date", "The date is not a calendar date.", [{ path: "date", message: "is not a calendar date", code: "invalid_date" }]);
    }
    query.where("e.starts_at", ">=", day2.start).andWhere("e.starts_at", "<", day2.end);
  }
  if (filters.status === "HELD") query.where("r.status", "HELD").andWhere("r.hold_expires_at", ">", now);
  else if (filters.status === "EXPIRED") query.where((w) => w.where("r.status", "EXPIRED").orWhere((h) => h.where("r.status", "HELD").andWhere("r.hold_expires_at", "<=", now)));
  else if (filters.status) query.where("r.status", filters.status);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    query.where(
      (w) => w.where("r.reference", "ilike", pattern).orWhere("c.name", "ilike", pattern).orWhere("c.email", "ilike", pattern).orWhere("c.phone", "ilike", pattern).orWhere("r.contact_name", "ilike", pattern).orWhere("r.contact_phone", "ilike", pattern)
    );
  }
  return query;
}
__name(applyFilters, "applyFilters");
var filtered = /* @__PURE__ */ __name((knex) => knex("reservations as r").join("show_events as e", "e.id", "r.show_event_id").join("customers as c", "c.id", "r.customer_id"), "filtered");
async function listReservations(knex, options, zone, now = /* @__PURE__ */ new Date()) {
  const base = /* @__PURE__ */ __name(() => applyFilters(staffReservationQuery(knex), options, zone, now), "base");
  const counted = applyFilters(filtered(knex), options, zone, now).count({ n: "*" }).first();
  const order = options.sort === "eventTime" ? [{ column: "e.starts_at", order: "asc" }, { column: "r.created_at", order: "desc" }, { column: "r.id", order: "asc" }] : [{ column: "r.created_at", order: "desc" }, { column: "r.id", order: "asc" }];
  const [items, total] = await Promise.all([base().orderBy(order).limit(options.limit).offset(options.offset), counted]);
  return { items: items.map((row) => camelRow(row)), total: Number(total?.n ?? 0) };
}
__name(listReservations, "listReservations");
async function filteredIds(trx, filters, zone, now, limit) {
  const rows2 = await applyFilters(filtered(trx), filters, zone, now).orderBy([{ column: "e.starts_at" }, { column: "r.created_at" }, { column: "r.id" }]).limit(limit).select("r.id");
  return rows2.map((row) => row.id);
}
__name(filteredIds, "filteredIds");
async function lockShowEvents(trx, ids) {
  await trx("show_events").whereIn("id", ids).orderBy("id").forUpdate().select("id");
}
__name(lockShowEvents, "lockShowEvents");
async function lockShowEvent3(trx, id) {
  return camelRow(await trx("show_events").where({ id }).forUpdate().first());
}
__name(lockShowEvent3, "lockShowEvent");
async function showEventSlug(trx, id) {
  return trx("show_events").where({ id }).first("slug");
}
__name(showEventSlug, "showEventSlug");
async function offerOf(trx, id) {
  return camelRow(await trx("offers").where({ id }).first());
}
__name(offerOf, "offerOf");
async function assertTable(trx, tableId, path15) {
  const table2 = await trx("venue_tables").where({ id: tableId }).first("id");
  if (!table2) throw Unprocessable("unknown_table", "No such table.", [{ path: path15, message: "is not a table of the floor plan", code: "unknown_table" }]);
}
__name(assertTable, "assertTable");
async function activeReservationIds(trx, eventId, now) {
  const rows2 = await trx("reservations").where("show_event_id", eventId).andWhere((w) => w.where("status", "CONFIRMED").orWhere((held) => held.where("status", "HELD").andWhere("hold_expires_at", ">", now))).orderBy("id").select("id");
  return rows2.map((row) => row.id);
}
__name(activeReservationIds, "activeReservationIds");
async function paidOf(trx, reservationId) {
  const row = await trx("payments").where("reservation_id", reservationId).whereIn("status", ["SUCCEEDED", "PARTIALLY_REFUNDED"]).first(trx.raw("coalesce(sum(amount_vnd - refunded_vnd), 0) as paid"));
  return Number(row?.paid ?? 0);
}
__name(paidOf, "paidOf");

// server/modules/reservations/commands/batchUpdateReservationStatuses.ts
var MAX_BATCH = 500;
var DryRunRollback = class extends Error {
  constructor(report) {
    super("dry run");
    this.report = report;
  }
  report;
  static {
    __name(this, "DryRunRollback");
  }
};
async function move(ctx, id, input) {
  if (input.targetStatus === "CONFIRMED") return (await confirmReservation(ctx, id, { by: "STAFF" })).changed;
  if (input.targetStatus === "NO_SHOW") return (await markNoShow(ctx, id)).changed;
  const { changed } = await cancelReservation(ctx, id, { by: "STAFF", reason: input.reason ?? null });
  if (changed) ctx.afterCommit(() => captureBusinessEvent(ctx.app, BUSINESS_EVENTS.reservationCancelled, id, { cancelled_by: "STAFF" }));
  return changed;
}
__name(move, "move");
async function selection(trx, input, zone, now) {
  if (input.ids) return input.ids;
  const ids = await filteredIds(trx, input.filter, zone, now, MAX_BATCH + 1);
  if (ids.length > MAX_BATCH) {
    throw Unprocessable("too_many_reservations", `The filter matches more than ${MAX_BATCH} reservations; narrow it.`, [
      { path: "body/filter", message: `matches more than ${MAX_BATCH} reservations`, code: "too_many_reservations" }
    ]);
  }
  return ids;
}
__name(selection, "selection");
async function batchUpdateReservationStatuses(app, actor, input, now = /* @__PURE__ */ new Date()) {
  if (input.ids === void 0 === (input.filter === void 0)) {
    throw Unprocessable("selection_required", "Send either `ids` or `filter`.", [{ path: "body", message: "must have exactly one of ids and filter", code: "selection_required" }]);
  }
  try {
    return await inUnitOfWork(
      { knex: app.db.knex, logger: app.logger },
      async ({ trx, afterCommit }) => {
        const ids = await selection(trx, input, app.config.venueTimezone, now);
        const rows2 = ids.length ? await Reservation.query(trx).whereIn("id", ids).select("id", "reference", "show_event_id") : [];
        const byId = new Map(rows2.map((row) => [row.id, row]));
        const eventIds = [...new Set(rows2.map((row) => row.showEventId))].sort();
        if (eventIds.length) await lockShowEvents(trx, eventIds);
        const items = [];
        for (const id of ids) {
          const known = byId.get(id);
          if (!known) {
            items.push({ id, reference: null, from: null, to: input.targetStatus, ok: false, changed: false, code: "not_found" });
            continue;
          }
          const current3 = await Reservation.query(trx).findById(id).select("status", "hold_expires_at");
          const from = statusAt(current3, now);
          const own = new AfterCommit();
          try {
            const changed = await trx.transaction((savepoint) => move({ trx: savepoint, app, actor, now, afterCommit: own.add }, id, input));
            afterCommit(() => own.run(app.logger));
            items.push({ id, reference: known.reference, from, to: input.targetStatus, ok: true, changed, code: null });
          } catch (err) {
            if (!(err instanceof Problem) || err.status !== 409) throw err;
            items.push({ id, reference: known.reference, from, to: input.targetStatus, ok: false, changed: false, code: err.code });
          }
        }
        const made = {
          dryRun: input.dryRun,
          targetStatus: input.targetStatus,
          total: items.length,
          changed: items.filter((item) => item.changed).length,
          failed: items.filter((item) => !item.ok).length,
          items
        };
        if (input.dryRun) throw new DryRunRollback(made);
        return made;
      },
      now
    );
  } catch (err) {
    if (err instanceof DryRunRollback) return err.report;
    throw err;
  }
}
__name(batchUpdateReservationStatuses, "batchUpdateReservationStatuses");

// server/modules/reservations/commands/cancelReservation.ts
async function cancelReservation2(app, actor, id, reason, now = /* @__PURE__ */ new Date()) {
  await inTransition(
    app,
    actor,
    async (ctx) => {
      const { changed } = await cancelReservation(ctx, id, { by: "STAFF", reason });
      if (changed) ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.reservationCancelled, id, { cancelled_by: "STAFF" }));
    },
    now
  );
}
__name(cancelReservation2, "cancelReservation");

// server/modules/reservations/commands/confirmReservation.ts
async function confirmReservation2(app, actor, id, now = /* @__PURE__ */ new Date()) {
  await inTransition(app, actor, (ctx) => confirmReservation(ctx, id, { by: "STAFF" }), now);
}
__name(confirmReservation2, "confirmReservation");

// server/modules/reservations/commands/createReservation.ts
async function createReservation(app, actor, input, now = /* @__PURE__ */ new Date()) {
  return inTransition(
    app,
    actor,
    async (ctx) => {
      const event2 = await showEventSlug(ctx.trx, input.eventId);
      if (!event2) throw NotFound("No such show event.");
      if (!event2.slug) throw Conflict("event_not_bookable", "The event has no slug yet; run the slug backfill first.");
      if (input.tableId) await assertTable(ctx.trx, input.tableId, "body/tableId");
      const { reservationId } = await createHold(
        app.bookingExtensions,
        ctx.trx,
        { eventSlug: event2.slug, offerCode: input.offerCode, guestCount: input.guestCount, contact: input.contact, customerNote: input.customerNote, locale: input.locale },
        now,
        // A phone booking: staff's contact edits the customer record (a guest's never does).
        "staff"
      );
      await publish(ctx, "hold.placed", { reservationId, showEventId: input.eventId });
      await Reservation.query(ctx.trx).findById(reservationId).patch({ staffNotes: input.staffNotes ?? null, tableId: input.tableId ?? null, updatedAt: now });
      if (input.confirm) {
        await confirmReservation(ctx, reservationId, { by: "STAFF" });
      } else {
        const held = await Reservation.query(ctx.trx).findById(reservationId).select("hold_expires_at");
        await app.jobs.enqueue(EXPIRE_HOLDS_QUEUE, { reservationId }, { trx: ctx.trx, startAfter: new Date(held.holdExpiresAt) });
      }
      ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.reservationCreated, reservationId, { created_by: "STAFF" }));
      return reservationId;
    },
    now
  );
}
__name(createReservation, "createReservation");

// server/modules/reservations/commands/markReservationNoShow.ts
async function markReservationNoShow(app, actor, id, now = /* @__PURE__ */ new Date()) {
  await inTransition(app, actor, (ctx) => markNoShow(ctx, id), now);
}
__name(markReservationNoShow, "markReservationNoShow");

// server/modules/reservations/commands/updateReservation.ts
async function updateReservation(app, actor, id, patch, now = /* @__PURE__ */ new Date()) {
  await inTransition(
    app,
    actor,
    async (ctx) => {
      const { trx } = ctx;
      const found = await Reservation.query(trx).findById(id).select("show_event_id");
      if (!found) throw NotFound("No such reservation.");
      const resizing = patch.guestCount !== void 0;
      const event2 = resizing ? await lockShowEvent3(trx, found.showEventId) : void 0;
      const reservation = await lockedReservation(trx, id);
      const changes = { updatedAt: now };
      if (patch.tableId !== void 0) {
        if (patch.tableId !== null) await assertTable(trx, patch.tableId, "body/tableId");
        changes.tableId = patch.tableId;
      }
      if (patch.staffNotes !== void 0) changes.staffNotes = patch.staffNotes;
      if (event2 && patch.guestCount !== reservation.guestCount) {
        const guestCount = patch.guestCount;
        const status = statusAt(reservation, now);
        if (status !== "HELD" && status !== "CONFIRMED") {
          throw Conflict("reservation_not_editable", `The guest count of a ${status.toLowerCase().replace("_", "-")} reservation cannot change.`);
        }
        if (event2.status !== "SCHEDULED") throw Conflict("event_not_bookable", `The event is ${String(event2.status).toLowerCase()}.`);
        const offer = await offerOf(trx, reservation.offerId);
        if (guestCount < offer.minGuests || guestCount > offer.maxGuests) {
          throw Unprocessable("guest_count_out_of_range", `This offer takes ${offer.minGuests} to ${offer.maxGuests} guests.`, [
            { path: "body/guestCount", message: `must be between ${offer.minGuests} and ${offer.maxGuests}`, code: "guest_count_out_of_range" }
          ]);
        }
        if (guestCount > reservation.guestCount) {
          const free = event2.capacity - await seatsTakenOf(trx, event2.id, now);
          if (guestCount - reservation.guestCount > free) throw Conflict("not_enough_seats", `Only ${Math.max(free, 0)} more seats are free.`);
        }
        const pricePerGuest = Number(reservation.pricePerGuestVnd);
        const { price: price2, columns } = await priceBooking(
          {
            trx,
            input: {
              eventSlug: event2.slug,
              offerCode: offer.code,
              guestCount,
              promoCode: reservation.promoCode ?? void 0,
              voucherCode: reservation.voucherCode ?? void 0,
              referral: { code: reservation.referralCode ?? void 0, linkSlug: reservation.referralLinkSlug ?? void 0, partnerSlug: reservation.referralPartnerSlug ?? void 0 }
            },
            event: { id: event2.id, showId: event2.showId, startsAt: event2.startsAt },
            offer: { id: offer.id, code: offer.code, showId: offer.showId, pricePerGuestVnd: pricePerGuest },
            guestCount,
            subtotalVnd: pricePerGuest * guestCount,
            now
          },
          { serviceChargePercent: Number(reservation.serviceChargePercent), vatPercent: Number(reservation.vatPercent) },
          app.bookingExtensions.priceAdjustments
        );
        Object.assign(changes, {
          guestCount,
          subtotalVnd: price2.subtotalVnd,
          discountVnd: price2.discountVnd,
          serviceChargeVnd: price2.serviceChargeVnd,
          vatVnd: price2.vatVnd,
          totalVnd: price2.totalVnd,
          // What the adjustments set, named as columns.
          ...columns
        });
      }
      await Reservation.query(trx).findById(id).patch(changes);
      if (changes.guestCount !== void 0) {
        await publish(ctx, "reservation.resized", {
          reservationId: id,
          fromShowEventId: reservation.showEventId,
          toShowEventId: reservation.showEventId,
          fromGuests: reservation.guestCount,
          toGuests: changes.guestCount
        });
      }
    },
    now
  );
}
__name(updateReservation, "updateReservation");

// server/modules/reservations/presenters.ts
function event(row, defaultLocale) {
  return {
    id: row.showEventId,
    slug: row.eventSlug,
    startsAt: iso2(row.eventStartsAt),
    status: row.eventStatus,
    show: { code: row.showCode, slug: row.showSlug, title: pickLocale(row.showTitle, defaultLocale, defaultLocale) }
  };
}
__name(event, "event");
function customer(row) {
  return {
    id: row.customerId,
    honorific: row.customerHonorific,
    name: row.customerName,
    email: row.customerEmail,
    phone: row.customerPhone,
    isDeleted: row.customerIsDeleted
  };
}
__name(customer, "customer");
var bookedContact = /* @__PURE__ */ __name((row) => ({ honorific: row.contactHonorific, name: row.contactName, email: row.contactEmail, phone: row.contactPhone }), "bookedContact");
var table = /* @__PURE__ */ __name((row) => row.tableId && row.tableCode ? { id: row.tableId, code: row.tableCode, zone: row.tableZone, seats: Number(row.tableSeats) } : null, "table");
function presentReservationSummary(row, defaultLocale, now) {
  return {
    id: row.id,
    reference: row.reference,
    status: statusAt(row, now),
    guestCount: row.guestCount,
    totalVnd: Number(row.totalVnd),
    event: event(row, defaultLocale),
    offerCode: row.offerCode,
    customer: customer(row),
    bookedContact: bookedContact(row),
    table: table(row),
    createdAt: iso2(row.createdAt)
  };
}
__name(presentReservationSummary, "presentReservationSummary");
function paymentsSummary(row, payments) {
  const settled = payments.filter((p) => p.status === "SUCCEEDED" || p.status === "PARTIALLY_REFUNDED" || p.status === "REFUNDED");
  const paidVnd = settled.reduce((sum, p) => sum + Number(p.amountVnd), 0);
  const refundedVnd = settled.reduce((sum, p) => sum + Number(p.refundedVnd), 0);
  return {
    paidVnd,
    refundedVnd,
    balanceVnd: Number(row.totalVnd) - (paidVnd - refundedVnd),
    items: payments.map((p) => ({
      id: p.id,
      gateway: p.gateway,
      status: p.status,
      amountVnd: Number(p.amountVnd),
      refundedVnd: Number(p.refundedVnd),
      txnRef: p.txnRef,
      createdAt: iso2(p.createdAt),
      succeededAt: iso2(p.succeededAt)
    }))
  };
}
__name(paymentsSummary, "paymentsSummary");
function presentStaffReservation(row, payments, defaultLocale, now) {
  const status = statusAt(row, now);
  return {
    id: row.id,
    reference: row.reference,
    status,
    holdExpiresAt: status === "HELD" ? iso2(row.holdExpiresAt) : null,
    guestCount: row.guestCount,
    locale: row.locale,
    event: event(row, defaultLocale),
    offer: { id: row.offerId, code: row.offerCode, name: pickLocale(row.offerName, defaultLocale, defaultLocale), bookingPath: row.bookingPath },
    customer: customer(row),
    bookedContact: bookedContact(row),
    table: table(row),
    price: {
      currency: "VND",
      pricePerGuestVnd: Number(row.pricePerGuestVnd),
      subtotalVnd: Number(row.subtotalVnd),
      promoDiscountVnd: Number(row.promoDiscountVnd),
      referralDiscountVnd: Number(row.referralDiscountVnd),
      discountVnd: Number(row.discountVnd),
      serviceChargeVnd: Number(row.serviceChargeVnd),
      vatVnd: Number(row.vatVnd),
      voucherCreditVnd: Number(row.voucherCreditVnd),
      totalVnd: Number(row.totalVnd),
      serviceChargePercent: Number(row.serviceChargePercent),
      vatPercent: Number(row.vatPercent)
    },
    attribution: {
      promoCode: row.promoCode,
      voucherCode: row.voucherCode,
      referralCode: row.referralCode,
      referralLinkSlug: row.referralLinkSlug,
      referralPartnerSlug: row.referralPartnerSlug
    },
    customerNote: row.customerNote,
    staffNotes: row.staffNotes,
    payments: paymentsSummary(row, payments),
    confirmedAt: iso2(row.confirmedAt),
    confirmedBy: row.confirmedBy,
    checkedInAt: iso2(row.checkedInAt),
    noShowAt: iso2(row.noShowAt),
    expiredAt: iso2(row.expiredAt),
    cancelledAt: iso2(row.cancelledAt),
    cancelledBy: row.cancelledBy,
    cancellationReason: row.cancellationReason,
    createdAt: iso2(row.createdAt),
    updatedAt: iso2(row.updatedAt)
  };
}
__name(presentStaffReservation, "presentStaffReservation");

// server/modules/reservations/handlers.ts
async function answer(call, id, status = 200) {
  const { reservation, payments } = await staffReservation(call.app.db.knex, id);
  return json(status, presentStaffReservation(reservation, payments, call.app.config.defaultLocale, /* @__PURE__ */ new Date()));
}
__name(answer, "answer");
var handlers24 = {
  async listReservations(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const now = /* @__PURE__ */ new Date();
    const page = await listReservations(call.app.db.knex, { ...query, sort: query.sort ?? "newest", limit, offset }, call.app.config.venueTimezone, now);
    return json(200, { items: page.items.map((reservation) => presentReservationSummary(reservation, call.app.config.defaultLocale, now)), total: page.total, limit, offset });
  },
  getReservation: /* @__PURE__ */ __name((call) => answer(call, call.params.reservationId), "getReservation"),
  async createReservation(call) {
    const id = await createReservation(call.app, staffActor(call.auth), call.body);
    return answer(call, id, 201);
  },
  async updateReservation(call) {
    await updateReservation(call.app, staffActor(call.auth), call.params.reservationId, call.body);
    return answer(call, call.params.reservationId);
  },
  async confirmReservation(call) {
    await confirmReservation2(call.app, staffActor(call.auth), call.params.reservationId);
    return answer(call, call.params.reservationId);
  },
  async cancelReservation(call) {
    await cancelReservation2(call.app, staffActor(call.auth), call.params.reservationId, call.body?.reason ?? null);
    return answer(call, call.params.reservationId);
  },
  async markReservationNoShow(call) {
    await markReservationNoShow(call.app, staffActor(call.auth), call.params.reservationId);
    return answer(call, call.params.reservationId);
  },
  async batchUpdateReservationStatuses(call) {
    return json(200, await batchUpdateReservationStatuses(call.app, staffActor(call.auth), call.body));
  }
};

// server/modules/reservations/commands/cancelEventReservations.ts
async function cancelEventReservations({ event: event2 }, { trx, app, afterCommit }, now = /* @__PURE__ */ new Date()) {
  const active = await activeReservationIds(trx, event2.id, now);
  const ctx = { trx, app, actor: "SYSTEM", now, afterCommit };
  const reason = event2.cancellationReason ?? "The show event was cancelled.";
  let cancelled = 0;
  let paid = 0;
  for (const id of active) {
    const paidVnd = await paidOf(trx, id);
    const { changed } = await cancelReservation(ctx, id, { by: "SYSTEM", reason });
    if (!changed) continue;
    cancelled++;
    if (paidVnd > 0) paid++;
    await queueEventCancellationEmail(trx, app, id, paidVnd);
    afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.reservationCancelled, id, { cancelled_by: "SYSTEM", cancellation_cause: "event_cancelled" }));
  }
  return { cancelled, paid, emailed: cancelled };
}
__name(cancelEventReservations, "cancelEventReservations");

// server/modules/reservations/subscribers.ts
var eventCancelled = subscriber({
  name: "reservations",
  event: "showEvent.cancelled",
  phase: "in-transaction",
  order: 10,
  handle: /* @__PURE__ */ __name((payload, ctx) => cancelEventReservations(payload, ctx), "handle")
});

// server/modules/reservations/index.ts
function record24() {
  return { tag: "reservations", handlers: handlers24, subscribers: [eventCancelled] };
}
__name(record24, "record");

// server/modules/promoCodes/models.ts
var PromoCode = class extends BaseModel {
  static {
    __name(this, "PromoCode");
  }
  static tableName = "promo_codes";
  static jsonAttributes = ["showIds", "offerIds"];
  code;
  description;
  discountKind;
  percentOff;
  amountOffVnd;
  /** A Date when read; an ISO string may be written. */
  validFrom;
  validUntil;
  maxRedemptions;
  redemptionCount;
  /** Empty: any show. */
  showIds;
  /** Empty: any offer. */
  offerIds;
  status;
};
var PromoCodeRedemption = class extends RecordModel {
  static {
    __name(this, "PromoCodeRedemption");
  }
  static tableName = "promo_code_redemptions";
  id;
  promoCodeId;
  reservationId;
  discountVnd;
  createdAt;
  releasedAt;
};

// server/modules/promoCodes/queries.ts
var normalizeCode = /* @__PURE__ */ __name((code) => code.trim().toUpperCase(), "normalizeCode");
var NoSuchPromoCode = /* @__PURE__ */ __name(() => NotFound("No such promo code."), "NoSuchPromoCode");
async function findPromoCodeOrFail(id, trx, options = {}) {
  const query = PromoCode.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const promo = await query;
  if (!promo) throw NoSuchPromoCode();
  return promo;
}
__name(findPromoCodeOrFail, "findPromoCodeOrFail");
async function listPromoCodes(filters) {
  const base = PromoCode.query();
  if (filters.status) base.where("status", filters.status);
  const q = filters.q?.trim();
  if (q) base.where((w) => w.where("code", "ilike", likeContaining(q)).orWhere("description", "ilike", likeContaining(q)));
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "asc" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listPromoCodes, "listPromoCodes");
async function lockPromoCodeByCode(trx, code) {
  return PromoCode.query(trx).findOne({ code }).forUpdate();
}
__name(lockPromoCodeByCode, "lockPromoCodeByCode");
async function existingOfferIds(trx, ids) {
  return ids.length ? trx("offers").whereIn("id", ids).pluck("id") : [];
}
__name(existingOfferIds, "existingOfferIds");
async function reservationPromoDiscount(trx, reservationId) {
  const reservation = await trx("reservations").where({ id: reservationId }).first("promo_discount_vnd");
  return reservation.promo_discount_vnd;
}
__name(reservationPromoDiscount, "reservationPromoDiscount");
async function incrementRedemptionCount(trx, promoCodeId) {
  const taken = await trx("promo_codes").where({ id: promoCodeId }).andWhere((w) => w.whereNull("max_redemptions").orWhereRaw("redemption_count < max_redemptions")).update({ redemption_count: trx.raw("redemption_count + 1"), updated_at: /* @__PURE__ */ new Date() });
  return taken > 0;
}
__name(incrementRedemptionCount, "incrementRedemptionCount");
async function markRedemptionsReleased(trx, reservationIds, now) {
  const released = await trx("promo_code_redemptions").whereIn("reservation_id", reservationIds).whereNull("released_at").update({ released_at: now }).returning(["promo_code_id"]);
  return released.map((row) => row.promo_code_id);
}
__name(markRedemptionsReleased, "markRedemptionsReleased");
async function decrementRedemptionCount(trx, promoCodeId, n, now) {
  await trx("promo_codes").where({ id: promoCodeId }).update({ redemption_count: trx.raw("greatest(redemption_count - ?, 0)", [n]), updated_at: now });
}
__name(decrementRedemptionCount, "decrementRedemptionCount");

// server/modules/promoCodes/commands/redeemPromoCode.ts
var Exhausted = /* @__PURE__ */ __name(() => Conflict("promo_code_exhausted", "This promo code has reached its maximum number of redemptions."), "Exhausted");
async function takeRedemption(trx, promoCodeId) {
  if (!await incrementRedemptionCount(trx, promoCodeId)) throw Exhausted();
}
__name(takeRedemption, "takeRedemption");
async function redeemPromoCode(trx, promoCodeId, reservationId, now) {
  await takeRedemption(trx, promoCodeId);
  const discountVnd = await reservationPromoDiscount(trx, reservationId);
  await PromoCodeRedemption.query(trx).insert({ promoCodeId, reservationId, discountVnd, createdAt: now });
}
__name(redeemPromoCode, "redeemPromoCode");

// server/modules/promoCodes/commands/releasePromoRedemptions.ts
async function releasePromoRedemptions(trx, reservationIds, now) {
  const released = await markRedemptionsReleased(trx, reservationIds, now);
  const counts = /* @__PURE__ */ new Map();
  for (const id of released) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, n] of [...counts].sort(([a], [b]) => a.localeCompare(b))) await decrementRedemptionCount(trx, id, n, now);
}
__name(releasePromoRedemptions, "releasePromoRedemptions");
async function retakePromoRedemption(trx, reservationId) {
  const redemption = await PromoCodeRedemption.query(trx).where({ reservation_id: reservationId }).whereNotNull("released_at").select("id", "promo_code_id").first();
  if (!redemption) return;
  await takeRedemption(trx, redemption.promoCodeId);
  await PromoCodeRedemption.query(trx).findById(redemption.id).patch({ releasedAt: null });
}
__name(retakePromoRedemption, "retakePromoRedemption");

// server/modules/promoCodes/adjustment.ts
var invalid = /* @__PURE__ */ __name((detail) => Unprocessable("promo_code_invalid", detail, [{ path: "body/promoCode", message: detail, code: "promo_code_invalid" }]), "invalid");
function promoDiscount(promo, subtotalVnd) {
  if (promo.discountKind === "PERCENT") return Math.floor(subtotalVnd * (promo.percentOff ?? 0) / 100);
  return Math.min(subtotalVnd, promo.amountOffVnd ?? 0);
}
__name(promoDiscount, "promoDiscount");
async function promoAdjustment(context) {
  const { trx, input, event: event2, offer, subtotalVnd, now } = context;
  if (!input.promoCode) return null;
  const promo = await lockPromoCodeByCode(trx, normalizeCode(input.promoCode));
  if (!promo || promo.status !== "ACTIVE") throw invalid("No such promo code, or it is no longer active.");
  if (promo.validFrom && now < new Date(promo.validFrom) || promo.validUntil && now >= new Date(promo.validUntil)) {
    throw invalid("This promo code is not valid now.");
  }
  if (promo.showIds.length && !promo.showIds.includes(event2.showId) || promo.offerIds.length && !promo.offerIds.includes(offer.id)) {
    throw Unprocessable("promo_code_not_applicable", "This promo code does not apply to this show or offer.", [
      { path: "body/promoCode", message: "does not apply to this show or offer", code: "promo_code_not_applicable" }
    ]);
  }
  if (promo.maxRedemptions !== null && promo.redemptionCount >= promo.maxRedemptions) throw Exhausted();
  return {
    kind: "promo",
    discountVnd: promoDiscount(promo, subtotalVnd),
    columns: { promoCode: promo.code },
    afterInsert: /* @__PURE__ */ __name((reservationId) => redeemPromoCode(trx, promo.id, reservationId, now), "afterInsert")
  };
}
__name(promoAdjustment, "promoAdjustment");
var priceAdjustment = { name: "promo-code", order: 10, adjust: promoAdjustment };
var subscribers2 = [
  subscriber({
    name: "promoCodes.release-on-cancel",
    event: "reservation.cancelled",
    phase: "in-transaction",
    order: 20,
    handle: /* @__PURE__ */ __name(({ reservationId }, ctx) => releasePromoRedemptions(ctx.trx, [reservationId], ctx.now), "handle")
  }),
  subscriber({
    name: "promoCodes.release-on-expiry",
    event: "holds.expired",
    phase: "in-transaction",
    order: 20,
    handle: /* @__PURE__ */ __name(({ reservationIds }, ctx) => releasePromoRedemptions(ctx.trx, reservationIds, ctx.now), "handle")
  }),
  subscriber({
    name: "promoCodes.retake-on-confirm",
    event: "reservation.confirmed",
    phase: "in-transaction",
    order: 10,
    handle: /* @__PURE__ */ __name(({ reservationId }, ctx) => retakePromoRedemption(ctx.trx, reservationId), "handle")
  })
];

// server/modules/promoCodes/commands/promoCodeFields.ts
async function promoCodeFields(trx, input, current3) {
  const kind = input.discountKind ?? current3?.discountKind;
  const percentOff = input.percentOff !== void 0 ? input.percentOff : input.discountKind && input.discountKind !== current3?.discountKind ? null : current3?.percentOff ?? null;
  const amountOffVnd = input.amountOffVnd !== void 0 ? input.amountOffVnd : input.discountKind && input.discountKind !== current3?.discountKind ? null : current3?.amountOffVnd ?? null;
  if (kind === "PERCENT" && (percentOff === null || amountOffVnd !== null)) {
    throw Unprocessable("invalid_discount", "A PERCENT code takes percentOff (1\u2013100) and no amountOffVnd.", [{ path: "body/percentOff", message: "is required for PERCENT", code: "invalid_discount" }]);
  }
  if (kind === "FIXED" && (amountOffVnd === null || percentOff !== null)) {
    throw Unprocessable("invalid_discount", "A FIXED code takes amountOffVnd and no percentOff.", [{ path: "body/amountOffVnd", message: "is required for FIXED", code: "invalid_discount" }]);
  }
  const validFrom = input.validFrom !== void 0 ? input.validFrom : current3?.validFrom ?? null;
  const validUntil = input.validUntil !== void 0 ? input.validUntil : current3?.validUntil ?? null;
  if (validFrom && validUntil && new Date(validFrom) >= new Date(validUntil)) {
    throw Unprocessable("invalid_window", "validFrom must be before validUntil.", [{ path: "body/validUntil", message: "must be after validFrom", code: "invalid_window" }]);
  }
  const maxRedemptions = input.maxRedemptions !== void 0 ? input.maxRedemptions : current3?.maxRedemptions ?? null;
  if (maxRedemptions !== null && current3 && maxRedemptions < current3.redemptionCount) {
    throw Unprocessable("max_below_redemptions", `The code is already redeemed ${current3.redemptionCount} times.`, [
      { path: "body/maxRedemptions", message: `must be at least ${current3.redemptionCount}`, code: "max_below_redemptions" }
    ]);
  }
  const fields = { discountKind: kind, percentOff, amountOffVnd, validFrom, validUntil, maxRedemptions };
  if (input.code !== void 0) fields.code = normalizeCode(input.code);
  if (input.description !== void 0) fields.description = input.description;
  if (input.status !== void 0) fields.status = input.status;
  if (input.showIds !== void 0) {
    const ids = [...new Set(input.showIds)];
    const found = ids.length ? (await Show.query(trx).whereIn("id", ids).select("id")).map((show2) => show2.id) : [];
    const missing = ids.find((id) => !found.includes(id));
    if (missing) throw Unprocessable("unknown_show", "No such show.", [{ path: "body/showIds", message: `${missing} is not a show`, code: "unknown_show" }]);
    fields.showIds = ids;
  }
  if (input.offerIds !== void 0) {
    const ids = [...new Set(input.offerIds)];
    const found = await existingOfferIds(trx, ids);
    const missing = ids.find((id) => !found.includes(id));
    if (missing) throw Unprocessable("unknown_offer", "No such offer.", [{ path: "body/offerIds", message: `${missing} is not an offer`, code: "unknown_offer" }]);
    fields.offerIds = ids;
  }
  return fields;
}
__name(promoCodeFields, "promoCodeFields");

// server/modules/promoCodes/commands/createPromoCode.ts
var CodeTaken3 = /* @__PURE__ */ __name(() => Conflict("code_taken", "Another promo code has this code."), "CodeTaken");
async function createPromoCode(app, input) {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => PromoCode.query(trx).insertAndFetch(await promoCodeFields(trx, input)));
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken3();
    throw err;
  }
}
__name(createPromoCode, "createPromoCode");

// server/modules/promoCodes/commands/deletePromoCode.ts
async function deletePromoCode(app, id) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const changed = await PromoCode.query(trx).findById(id).patch({ status: "INACTIVE" });
    if (!changed) throw NoSuchPromoCode();
  });
}
__name(deletePromoCode, "deletePromoCode");

// server/modules/promoCodes/commands/updatePromoCode.ts
async function updatePromoCode(app, id, input) {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const current3 = await findPromoCodeOrFail(id, trx, { forUpdate: true });
      return current3.$query(trx).patchAndFetch(await promoCodeFields(trx, input, current3));
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken3();
    throw err;
  }
}
__name(updatePromoCode, "updatePromoCode");

// server/modules/promoCodes/presenters.ts
function presentPromoCode(promo) {
  return {
    id: promo.id,
    code: promo.code,
    description: promo.description,
    discountKind: promo.discountKind,
    percentOff: promo.percentOff,
    amountOffVnd: promo.amountOffVnd,
    validFrom: iso2(promo.validFrom),
    validUntil: iso2(promo.validUntil),
    maxRedemptions: promo.maxRedemptions,
    redemptionCount: promo.redemptionCount,
    showIds: promo.showIds,
    offerIds: promo.offerIds,
    status: promo.status,
    createdAt: iso2(promo.createdAt),
    updatedAt: iso2(promo.updatedAt)
  };
}
__name(presentPromoCode, "presentPromoCode");

// server/modules/promoCodes/handlers.ts
var handlers25 = {
  async listPromoCodes(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listPromoCodes({ status: query.status, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentPromoCode), total: page.total, limit, offset });
  },
  async createPromoCode(call) {
    return json(201, presentPromoCode(await createPromoCode(call.app, call.body)));
  },
  async getPromoCode(call) {
    return json(200, presentPromoCode(await findPromoCodeOrFail(call.params.promoCodeId)));
  },
  async updatePromoCode(call) {
    return json(200, presentPromoCode(await updatePromoCode(call.app, call.params.promoCodeId, call.body)));
  },
  async deletePromoCode(call) {
    await deletePromoCode(call.app, call.params.promoCodeId);
    return noContent();
  }
};

// server/modules/promoCodes/index.ts
function record25() {
  return { tag: "promoCodes", handlers: handlers25, priceAdjustments: [priceAdjustment], subscribers: subscribers2 };
}
__name(record25, "record");

// server/modules/vouchers/codes.ts
import { randomInt as randomInt3 } from "node:crypto";
var normalizeVoucherCode = /* @__PURE__ */ __name((code) => code.trim().toUpperCase(), "normalizeVoucherCode");
var ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
function newVoucherCode() {
  const part = /* @__PURE__ */ __name(() => Array.from({ length: 4 }, () => ALPHABET[randomInt3(ALPHABET.length)]).join(""), "part");
  return `GV-${part()}-${part()}`;
}
__name(newVoucherCode, "newVoucherCode");
function effectiveVoucherStatus(voucher, now) {
  return voucher.status === "ACTIVE" && new Date(voucher.expiresAt) <= now ? "EXPIRED" : voucher.status;
}
__name(effectiveVoucherStatus, "effectiveVoucherStatus");

// server/modules/vouchers/models.ts
var Voucher = class extends BaseModel {
  static {
    __name(this, "Voucher");
  }
  static tableName = "vouchers";
  code;
  initialValueVnd;
  remainingValueVnd;
  /** A Date when read; an ISO string may be written. */
  expiresAt;
  status;
  recipientName;
  recipientEmail;
  note;
  createdBy;
  expiredAt;
};
var VoucherRedemption = class extends RecordModel {
  static {
    __name(this, "VoucherRedemption");
  }
  static tableName = "voucher_redemptions";
  id;
  voucherId;
  reservationId;
  amountVnd;
  createdAt;
  releasedAt;
};

// server/modules/vouchers/queries.ts
var NoSuchVoucher = /* @__PURE__ */ __name(() => NotFound("No such voucher."), "NoSuchVoucher");
async function findVoucherOrFail(id, trx, options = {}) {
  const query = Voucher.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const voucher = await query;
  if (!voucher) throw NoSuchVoucher();
  return voucher;
}
__name(findVoucherOrFail, "findVoucherOrFail");
async function voucherRedemptions(knex, voucherId) {
  const rows2 = await knex("voucher_redemptions as v").join("reservations as r", "r.id", "v.reservation_id").where("v.voucher_id", voucherId).orderBy([{ column: "v.created_at", order: "desc" }, { column: "v.id", order: "asc" }]).select("v.id", "v.reservation_id", "r.reference as reservation_reference", "r.status as reservation_status", "v.amount_vnd", "v.created_at", "v.released_at");
  return rows2.map((row) => ({
    id: row.id,
    reservationId: row.reservation_id,
    reservationReference: row.reservation_reference,
    reservationStatus: row.reservation_status,
    amountVnd: row.amount_vnd,
    createdAt: row.created_at,
    releasedAt: row.released_at
  }));
}
__name(voucherRedemptions, "voucherRedemptions");
async function listVouchers(filters, now = /* @__PURE__ */ new Date()) {
  const base = Voucher.query();
  if (filters.status === "EXPIRED") base.where((w) => w.where("status", "EXPIRED").orWhere((a) => a.where("status", "ACTIVE").andWhere("expires_at", "<=", now)));
  else if (filters.status === "ACTIVE") base.where("status", "ACTIVE").andWhere("expires_at", ">", now);
  else if (filters.status) base.where("status", filters.status);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) => w.where("code", "ilike", pattern).orWhere("recipient_name", "ilike", pattern).orWhere("recipient_email", "ilike", pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "asc" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listVouchers, "listVouchers");
async function voucherBalance(code, now = /* @__PURE__ */ new Date()) {
  const voucher = await Voucher.query().findOne({ code: normalizeVoucherCode(code) });
  if (!voucher) return void 0;
  const status = effectiveVoucherStatus(voucher, now);
  return { remainingValueVnd: status === "EXPIRED" ? 0 : voucher.remainingValueVnd, expiresAt: new Date(voucher.expiresAt).toISOString() };
}
__name(voucherBalance, "voucherBalance");
async function lockVoucherByCode(trx, code) {
  return Voucher.query(trx).findOne({ code }).forUpdate();
}
__name(lockVoucherByCode, "lockVoucherByCode");
async function reservationVoucherCredit(trx, reservationId) {
  const reservation = await trx("reservations").where({ id: reservationId }).first("voucher_credit_vnd");
  return Number(reservation.voucher_credit_vnd);
}
__name(reservationVoucherCredit, "reservationVoucherCredit");
async function takeVoucherValue(trx, voucherId, amount, now) {
  const taken = await trx("vouchers").where({ id: voucherId, status: "ACTIVE" }).andWhere("expires_at", ">", now).andWhere("remaining_value_vnd", ">=", amount).update({
    remaining_value_vnd: trx.raw("remaining_value_vnd - ?", [amount]),
    status: trx.raw("case when remaining_value_vnd - ? = 0 then 'REDEEMED' else 'ACTIVE' end", [amount]),
    updated_at: now
  });
  return taken > 0;
}
__name(takeVoucherValue, "takeVoucherValue");
async function markRedemptionsReleased2(trx, reservationIds, now) {
  const released = await trx("voucher_redemptions").whereIn("reservation_id", reservationIds).whereNull("released_at").update({ released_at: now }).returning(["voucher_id", "amount_vnd"]);
  return released.map((row) => ({ voucherId: row.voucher_id, amountVnd: Number(row.amount_vnd) }));
}
__name(markRedemptionsReleased2, "markRedemptionsReleased");
async function giveVoucherValueBack(trx, voucherId, amount, now) {
  await trx("vouchers").where({ id: voucherId }).whereNot("status", "EXPIRED").update({ remaining_value_vnd: trx.raw("least(remaining_value_vnd + ?, initial_value_vnd)", [amount]), status: "ACTIVE", updated_at: now });
}
__name(giveVoucherValueBack, "giveVoucherValueBack");

// server/modules/vouchers/commands/redeemVoucher.ts
var Insufficient = /* @__PURE__ */ __name(() => Conflict("voucher_balance_insufficient", "The voucher no longer has the value this booking took from it."), "Insufficient");
async function takeCredit(trx, voucherId, amount, now) {
  if (!await takeVoucherValue(trx, voucherId, amount, now)) throw Insufficient();
}
__name(takeCredit, "takeCredit");
async function redeemVoucher(trx, voucherId, reservationId, now) {
  const amount = await reservationVoucherCredit(trx, reservationId);
  if (amount <= 0) return;
  await takeCredit(trx, voucherId, amount, now);
  await VoucherRedemption.query(trx).insert({ voucherId, reservationId, amountVnd: amount, createdAt: now });
}
__name(redeemVoucher, "redeemVoucher");
async function releaseVoucherCredits(trx, reservationIds, now) {
  const released = await markRedemptionsReleased2(trx, reservationIds, now);
  const sums = /* @__PURE__ */ new Map();
  for (const { voucherId: id, amountVnd: amount } of released) sums.set(id, (sums.get(id) ?? 0) + amount);
  for (const [id, amount] of [...sums].sort(([a], [b]) => a.localeCompare(b))) await giveVoucherValueBack(trx, id, amount, now);
}
__name(releaseVoucherCredits, "releaseVoucherCredits");
async function retakeVoucherCredit(trx, reservationId, now) {
  const redemption = await VoucherRedemption.query(trx).where({ reservation_id: reservationId }).whereNotNull("released_at").select("id", "voucher_id", "amount_vnd").first();
  if (!redemption) return;
  await takeCredit(trx, redemption.voucherId, Number(redemption.amountVnd), now);
  await VoucherRedemption.query(trx).findById(redemption.id).patch({ releasedAt: null });
}
__name(retakeVoucherCredit, "retakeVoucherCredit");

// server/modules/vouchers/adjustment.ts
var refuse2 = /* @__PURE__ */ __name((code, detail) => Unprocessable(code, detail, [{ path: "body/voucherCode", message: detail, code }]), "refuse");
async function voucherAdjustment(context) {
  const { trx, input, now } = context;
  if (!input.voucherCode) return null;
  const voucher = await lockVoucherByCode(trx, normalizeVoucherCode(input.voucherCode));
  if (!voucher) throw refuse2("voucher_invalid", "No such voucher.");
  const status = effectiveVoucherStatus(voucher, now);
  if (status === "EXPIRED") throw refuse2("voucher_expired", "This voucher has expired.");
  if (status === "REDEEMED" || voucher.remainingValueVnd <= 0) throw refuse2("voucher_empty", "Nothing is left on this voucher.");
  return {
    kind: "voucher",
    creditVnd: voucher.remainingValueVnd,
    columns: { voucherCode: voucher.code },
    afterInsert: /* @__PURE__ */ __name((reservationId) => redeemVoucher(trx, voucher.id, reservationId, now), "afterInsert")
  };
}
__name(voucherAdjustment, "voucherAdjustment");
var priceAdjustment2 = { name: "voucher", order: 20, adjust: voucherAdjustment };
var subscribers3 = [
  subscriber({
    name: "vouchers.release-on-cancel",
    event: "reservation.cancelled",
    phase: "in-transaction",
    order: 30,
    handle: /* @__PURE__ */ __name(({ reservationId }, ctx) => releaseVoucherCredits(ctx.trx, [reservationId], ctx.now), "handle")
  }),
  subscriber({
    name: "vouchers.release-on-expiry",
    event: "holds.expired",
    phase: "in-transaction",
    order: 30,
    handle: /* @__PURE__ */ __name(({ reservationIds }, ctx) => releaseVoucherCredits(ctx.trx, reservationIds, ctx.now), "handle")
  }),
  subscriber({
    name: "vouchers.retake-on-confirm",
    event: "reservation.confirmed",
    phase: "in-transaction",
    order: 20,
    handle: /* @__PURE__ */ __name(({ reservationId }, ctx) => retakeVoucherCredit(ctx.trx, reservationId, ctx.now), "handle")
  })
];

// server/modules/vouchers/commands/createVoucher.ts
var assertInFuture = /* @__PURE__ */ __name((expiresAt, now) => {
  if (new Date(expiresAt) <= now) {
    throw Unprocessable("expiry_in_past", "The expiry must be in the future.", [{ path: "body/expiresAt", message: "must be in the future", code: "expiry_in_past" }]);
  }
}, "assertInFuture");
async function createVoucher(app, input, createdBy, now = /* @__PURE__ */ new Date()) {
  assertInFuture(input.expiresAt, now);
  for (let attempt = 0; ; attempt++) {
    try {
      return await inUnitOfWork(
        { knex: app.db.knex, logger: app.logger },
        async ({ trx }) => Voucher.query(trx).insertAndFetch({
          code: input.code ? normalizeVoucherCode(input.code) : newVoucherCode(),
          initialValueVnd: input.valueVnd,
          remainingValueVnd: input.valueVnd,
          expiresAt: input.expiresAt,
          recipientName: input.recipientName ?? null,
          recipientEmail: input.recipientEmail ?? null,
          note: input.note ?? null,
          createdBy
        })
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.code) throw Conflict("code_taken", "Another voucher has this code.");
      if (attempt >= 5) throw err;
    }
  }
}
__name(createVoucher, "createVoucher");

// server/modules/vouchers/commands/deleteVoucher.ts
async function deleteVoucher(app, id, now = /* @__PURE__ */ new Date()) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current3 = await findVoucherOrFail(id, trx, { forUpdate: true });
    if (current3.status === "EXPIRED") return;
    await current3.$query(trx).patch({ status: "EXPIRED", remainingValueVnd: 0, expiredAt: now });
  });
}
__name(deleteVoucher, "deleteVoucher");

// server/modules/vouchers/commands/updateVoucher.ts
async function updateVoucher(app, id, input, now = /* @__PURE__ */ new Date()) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current3 = await findVoucherOrFail(id, trx, { forUpdate: true });
    if (current3.status === "EXPIRED") throw Conflict("voucher_expired", "The voucher was deleted (expired); it cannot be changed.");
    if (input.expiresAt !== void 0) assertInFuture(input.expiresAt, now);
    const fields = {};
    if (input.expiresAt !== void 0) fields.expiresAt = input.expiresAt;
    if (input.recipientName !== void 0) fields.recipientName = input.recipientName;
    if (input.recipientEmail !== void 0) fields.recipientEmail = input.recipientEmail;
    if (input.note !== void 0) fields.note = input.note;
    return current3.$query(trx).patchAndFetch(fields);
  });
}
__name(updateVoucher, "updateVoucher");

// server/modules/vouchers/limits.ts
function vouchersServices(platform) {
  return { voucherBalanceLimit: new RateLimit({ name: "voucher-balance-address", points: 20, windowSeconds: 600 }, rateLimitStoreFor(platform.db)) };
}
__name(vouchersServices, "vouchersServices");
async function throttleBalanceCheck(app, ip) {
  await consumeOrThrow([[app.voucherBalanceLimit, addressKey(ip)]], "Too many voucher balance checks from this address; try again later.");
}
__name(throttleBalanceCheck, "throttleBalanceCheck");

// server/modules/vouchers/presenters.ts
function presentVoucher(voucher, now) {
  return {
    id: voucher.id,
    code: voucher.code,
    initialValueVnd: voucher.initialValueVnd,
    remainingValueVnd: voucher.remainingValueVnd,
    expiresAt: iso2(voucher.expiresAt),
    status: effectiveVoucherStatus(voucher, now),
    recipientName: voucher.recipientName,
    recipientEmail: voucher.recipientEmail,
    note: voucher.note,
    expiredAt: iso2(voucher.expiredAt),
    createdAt: iso2(voucher.createdAt),
    updatedAt: iso2(voucher.updatedAt)
  };
}
__name(presentVoucher, "presentVoucher");
function presentVoucherRedemption(redemption) {
  return {
    id: redemption.id,
    reservationId: redemption.reservationId,
    reservationReference: redemption.reservationReference,
    reservationStatus: redemption.reservationStatus,
    amountVnd: redemption.amountVnd,
    createdAt: iso2(redemption.createdAt),
    releasedAt: iso2(redemption.releasedAt)
  };
}
__name(presentVoucherRedemption, "presentVoucherRedemption");

// server/modules/vouchers/handlers.ts
var handlers26 = {
  async listVouchers(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const now = /* @__PURE__ */ new Date();
    const page = await listVouchers({ status: query.status, q: query.q, limit, offset }, now);
    return json(200, { items: page.items.map((voucher) => presentVoucher(voucher, now)), total: page.total, limit, offset });
  },
  async createVoucher(call) {
    const voucher = await createVoucher(call.app, call.body, actorLabel(staffActor(call.auth)));
    return json(201, presentVoucher(voucher, /* @__PURE__ */ new Date()));
  },
  async getVoucher(call) {
    const voucher = await findVoucherOrFail(call.params.voucherId);
    const redemptions = await voucherRedemptions(call.app.db.knex, voucher.id);
    return json(200, { voucher: presentVoucher(voucher, /* @__PURE__ */ new Date()), redemptions: redemptions.map(presentVoucherRedemption) });
  },
  async updateVoucher(call) {
    return json(200, presentVoucher(await updateVoucher(call.app, call.params.voucherId, call.body), /* @__PURE__ */ new Date()));
  },
  async deleteVoucher(call) {
    await deleteVoucher(call.app, call.params.voucherId);
    return noContent();
  },
  async checkVoucherBalance(call) {
    await throttleBalanceCheck(call.app, call.ip);
    const balance = await voucherBalance(call.body.code);
    if (!balance) throw NotFound("No such voucher.");
    return json(200, balance, { "Cache-Control": "no-store" });
  }
};

// server/modules/vouchers/publicPolicy.ts
var policy11 = [{ path: "/api/public/vouchers/balance", match: "exact", methods: ["POST"], level: "public" }];

// server/modules/vouchers/index.ts
function record26() {
  return { tag: "vouchers", handlers: handlers26, policy: policy11, priceAdjustments: [priceAdjustment2], subscribers: subscribers3, services: vouchersServices };
}
__name(record26, "record");

// server/modules/inquiries/models.ts
var Inquiry = class extends BaseModel {
  static {
    __name(this, "Inquiry");
  }
  static tableName = "inquiries";
  type;
  status;
  customerId;
  name;
  email;
  phone;
  locale;
  /** A `date` column: written as `YYYY-MM-DD`; a driver may read it back as a Date (local midnight). */
  preferredDate;
  guestCount;
  message;
  assigneeId;
  botcheckVerified;
  archivedAt;
};
var InquiryFollowUp = class extends RecordModel {
  static {
    __name(this, "InquiryFollowUp");
  }
  static tableName = "inquiry_follow_ups";
  id;
  inquiryId;
  emailMessageId;
  subject;
  message;
  sentBy;
  createdAt;
};

// server/modules/inquiries/queries.ts
var NoSuchInquiry = /* @__PURE__ */ __name(() => NotFound("No such inquiry."), "NoSuchInquiry");
var InquiryArchived = /* @__PURE__ */ __name(() => Conflict("inquiry_archived", "The inquiry is archived; it cannot be changed."), "InquiryArchived");
async function findInquiryOrFail(knex, id) {
  const inquiry = await Inquiry.query(knex).findById(id);
  if (!inquiry) throw NoSuchInquiry();
  return inquiry;
}
__name(findInquiryOrFail, "findInquiryOrFail");
async function lockInquiry(trx, id) {
  const inquiry = await Inquiry.query(trx).findById(id).forUpdate();
  if (!inquiry) throw NoSuchInquiry();
  return inquiry;
}
__name(lockInquiry, "lockInquiry");
async function followUpsOf(knex, inquiryId) {
  return InquiryFollowUp.query(knex).where("inquiry_id", inquiryId).orderBy([{ column: "created_at", order: "asc" }, { column: "id", order: "asc" }]);
}
__name(followUpsOf, "followUpsOf");
async function listInquiries(knex, filters) {
  const base = Inquiry.query(knex);
  if (filters.status) base.where("status", filters.status);
  else base.whereNot("status", "ARCHIVED");
  if (filters.type) base.where("type", filters.type);
  if (filters.assigneeId) base.where("assignee_id", filters.assigneeId);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) => w.where("name", "ilike", pattern).orWhere("email", "ilike", pattern).orWhere("phone", "ilike", pattern).orWhere("message", "ilike", pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "asc" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listInquiries, "listInquiries");

// server/modules/inquiries/commands/archiveInquiry.ts
async function archiveInquiry(app, id) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const current3 = await findInquiryOrFail(trx, id);
    if (current3.status === "ARCHIVED") return;
    await Inquiry.query(trx).findById(id).patch({ status: "ARCHIVED", archivedAt: now, updatedAt: now });
  });
}
__name(archiveInquiry, "archiveInquiry");

// server/platform/integrations/turnstile.ts
import { randomUUID as randomUUID9 } from "node:crypto";
var TurnstileUnavailable = class extends Error {
  static {
    __name(this, "TurnstileUnavailable");
  }
  constructor(message, options) {
    super(message, options);
    this.name = "TurnstileUnavailable";
  }
};
var OUR_FAULT = /* @__PURE__ */ new Set(["missing-input-secret", "invalid-input-secret"]);
async function verifyTurnstileToken(options, token2, remoteIp, idempotencyKey = randomUUID9()) {
  const form = new URLSearchParams({ secret: options.secretKey, response: token2, idempotency_key: idempotencyKey });
  if (remoteIp) form.set("remoteip", remoteIp);
  let response;
  try {
    response = await fetch(options.verifyUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form,
      signal: AbortSignal.timeout(options.timeoutMs)
    });
  } catch (err) {
    throw new TurnstileUnavailable(`siteverify did not answer: ${err.name === "TimeoutError" ? "time-out" : err.message}`, { cause: err });
  }
  if (!response.ok) throw new TurnstileUnavailable(`siteverify answered HTTP ${response.status}`);
  let body;
  try {
    body = await response.json();
  } catch (err) {
    throw new TurnstileUnavailable("siteverify answered something that is not JSON", { cause: err });
  }
  if (!body || typeof body.success !== "boolean") throw new TurnstileUnavailable("siteverify answered without a boolean `success`");
  const errorCodes = Array.isArray(body["error-codes"]) ? body["error-codes"].filter((code) => typeof code === "string") : [];
  if (errorCodes.some((code) => OUR_FAULT.has(code))) throw new TurnstileUnavailable(`siteverify refused our secret (${errorCodes.join(", ")})`);
  if (!body.success) return { ok: false, reason: errorCodes[0] ?? "rejected", errorCodes };
  const hostname = typeof body.hostname === "string" ? body.hostname : null;
  const action = typeof body.action === "string" ? body.action : null;
  if (options.expectedHostname && hostname !== options.expectedHostname) return { ok: false, reason: "hostname-mismatch", errorCodes };
  if (options.expectedAction && action !== options.expectedAction) return { ok: false, reason: "action-mismatch", errorCodes };
  return { ok: true, hostname, action };
}
__name(verifyTurnstileToken, "verifyTurnstileToken");

// server/modules/inquiries/commands/createInquiry.ts
var TYPE_LABELS = {
  en: { PRIVATE_EVENT: "Private event", GROUP_BOOKING: "Group booking", CORPORATE: "Corporate event", GENERAL: "General question" },
  vi: { PRIVATE_EVENT: "S\u1EF1 ki\u1EC7n ri\xEAng", GROUP_BOOKING: "\u0110\u1EB7t ch\u1ED7 theo nh\xF3m", CORPORATE: "S\u1EF1 ki\u1EC7n doanh nghi\u1EC7p", GENERAL: "C\xE2u h\u1ECFi chung" }
};
var botcheckProblem = /* @__PURE__ */ __name((code, detail) => new Problem(400, code, "Bot check failed", { detail, errors: [{ path: "body/botcheckToken", message: detail, code }] }), "botcheckProblem");
async function checkBot(app, token2, ip, idempotencyKey) {
  const { botcheckSecretKey, botcheckVerifyUrl, botcheckTimeoutMs, botcheckHostname, botcheckAction } = app.config;
  if (!botcheckSecretKey) return false;
  if (!token2) throw botcheckProblem("botcheck_required", "A bot-check token (botcheckToken) is required.");
  try {
    const verdict = await verifyTurnstileToken(
      { secretKey: botcheckSecretKey, verifyUrl: botcheckVerifyUrl, timeoutMs: botcheckTimeoutMs, expectedHostname: botcheckHostname, expectedAction: botcheckAction },
      token2,
      ip,
      idempotencyKey
    );
    if (!verdict.ok) throw botcheckProblem("botcheck_failed", `The bot check did not pass (${verdict.reason}).`);
    return true;
  } catch (err) {
    if (!(err instanceof TurnstileUnavailable)) throw err;
    app.logger.warn({ err }, "bot check unavailable; inquiry refused");
    throw ServiceUnavailable("botcheck_unavailable", "The bot check is unavailable right now; nothing was stored. Try again shortly.");
  }
}
__name(checkBot, "checkBot");
async function createInquiry(app, input, ip, idempotencyKey) {
  const verified = await checkBot(app, input.botcheckToken, ip, idempotencyKey);
  const deps = { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom };
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, afterCommit }) => {
    const customerId = await upsertCustomer(trx, { name: input.name, email: input.email, phone: input.phone, locale: input.locale });
    const inquiry = await Inquiry.query(trx).insertAndFetch({
      type: input.type,
      customerId,
      name: input.name.trim(),
      email: input.email.trim(),
      phone: input.phone ?? null,
      locale: input.locale ?? null,
      preferredDate: input.preferredDate ?? null,
      guestCount: input.guestCount ?? null,
      message: input.message,
      botcheckVerified: verified
    });
    const locale = input.locale ?? app.config.defaultLocale;
    const common = { preferredDate: input.preferredDate ?? null, guestCount: input.guestCount ?? null, message: input.message };
    await recordEmail(
      trx,
      {
        template: "inquiry-acknowledgement",
        to: inquiry.email,
        locale,
        customerId,
        data: { guestName: inquiry.name, typeLabel: (TYPE_LABELS[locale] ?? TYPE_LABELS.en)[input.type], ...common }
      },
      deps
    );
    if (app.config.venueNotificationsEmail) {
      await recordEmail(
        trx,
        {
          template: "inquiry-notification",
          to: app.config.venueNotificationsEmail,
          locale: "en",
          data: { inquiryId: inquiry.id, type: input.type, guestName: inquiry.name, guestEmail: inquiry.email, guestPhone: inquiry.phone, ...common }
        },
        deps
      );
    }
    afterCommit(() => {
      if (app.analytics.enabled) app.analytics.capture({ distinctId: `inquiry:${inquiry.id}`, event: BUSINESS_EVENTS.inquirySubmitted, properties: { inquiry_type: input.type } });
    });
    return inquiry;
  });
}
__name(createInquiry, "createInquiry");

// server/modules/inquiries/commands/followUpInquiry.ts
async function followUpInquiry(app, id, input, sentBy) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const inquiry = await lockInquiry(trx, id);
    if (inquiry.status === "ARCHIVED") throw InquiryArchived();
    const message = await recordEmail(
      trx,
      {
        template: "inquiry-follow-up",
        to: inquiry.email,
        locale: inquiry.locale ?? app.config.defaultLocale,
        customerId: inquiry.customerId,
        data: { guestName: inquiry.name, subject: input.subject, message: input.message }
      },
      { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom }
    );
    const followUp = await InquiryFollowUp.query(trx).insertAndFetch({ inquiryId: id, emailMessageId: message.id, subject: input.subject, message: input.message, sentBy });
    await Inquiry.query(trx).findById(id).patch({ status: inquiry.status === "CLOSED" ? "CLOSED" : "FOLLOWED_UP" });
    return followUp;
  });
}
__name(followUpInquiry, "followUpInquiry");

// server/modules/inquiries/commands/updateInquiry.ts
async function updateInquiry(app, id, input) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current3 = await lockInquiry(trx, id);
    if (current3.status === "ARCHIVED") throw InquiryArchived();
    if (input.assigneeId && !await Account.query(trx).findById(input.assigneeId).select("id")) {
      throw Unprocessable("unknown_assignee", "No such account.", [{ path: "body/assigneeId", message: "is not an account", code: "unknown_assignee" }]);
    }
    const changes = {};
    if (input.status !== void 0) changes.status = input.status;
    if (input.assigneeId !== void 0) changes.assigneeId = input.assigneeId;
    return Inquiry.query(trx).patchAndFetchById(id, changes);
  });
}
__name(updateInquiry, "updateInquiry");

// server/modules/inquiries/presenters.ts
var day = /* @__PURE__ */ __name((value) => {
  if (value === null) return null;
  if (typeof value === "string") return value.slice(0, 10);
  return `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, "0")}-${String(value.getDate()).padStart(2, "0")}`;
}, "day");
function presentInquiry(inquiry) {
  return {
    id: inquiry.id,
    type: inquiry.type,
    status: inquiry.status,
    customerId: inquiry.customerId,
    name: inquiry.name,
    email: inquiry.email,
    phone: inquiry.phone,
    locale: inquiry.locale,
    preferredDate: day(inquiry.preferredDate),
    guestCount: inquiry.guestCount,
    message: inquiry.message,
    assigneeId: inquiry.assigneeId,
    botcheckVerified: inquiry.botcheckVerified,
    archivedAt: iso2(inquiry.archivedAt),
    createdAt: iso2(inquiry.createdAt),
    updatedAt: iso2(inquiry.updatedAt)
  };
}
__name(presentInquiry, "presentInquiry");
function presentFollowUp(followUp) {
  return {
    id: followUp.id,
    emailMessageId: followUp.emailMessageId,
    subject: followUp.subject,
    message: followUp.message,
    sentBy: followUp.sentBy,
    createdAt: iso2(followUp.createdAt)
  };
}
__name(presentFollowUp, "presentFollowUp");
function presentInquiryDetail(inquiry, followUps) {
  return { inquiry: presentInquiry(inquiry), followUps: followUps.map(presentFollowUp) };
}
__name(presentInquiryDetail, "presentInquiryDetail");
function presentSubmittedInquiry(inquiry) {
  return { id: inquiry.id, type: inquiry.type, status: inquiry.status, createdAt: iso2(inquiry.createdAt) };
}
__name(presentSubmittedInquiry, "presentSubmittedInquiry");

// server/modules/inquiries/services.ts
function inquiriesServices(platform) {
  return { inquiryLimit: new RateLimit({ name: "inquiry-address", points: 10, windowSeconds: 600 }, rateLimitStoreFor(platform.db)) };
}
__name(inquiriesServices, "inquiriesServices");
async function throttleInquiry(app, ip) {
  await consumeOrThrow([[app.inquiryLimit, addressKey(ip)]], "Too many inquiries from this address; try again later.");
}
__name(throttleInquiry, "throttleInquiry");

// server/modules/inquiries/handlers.ts
var handlers27 = {
  async createInquiry(call) {
    await throttleInquiry(call.app, call.ip);
    const inquiry = await createInquiry(call.app, call.body, call.ip, call.header("idempotency-key") || void 0);
    return json(201, presentSubmittedInquiry(inquiry), { "Cache-Control": "no-store" });
  },
  async listInquiries(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listInquiries(call.app.db.knex, { status: query.status, type: query.type, assigneeId: query.assigneeId, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentInquiry), total: page.total, limit, offset });
  },
  async getInquiry(call) {
    const knex = call.app.db.knex;
    const inquiry = await findInquiryOrFail(knex, call.params.inquiryId);
    return json(200, presentInquiryDetail(inquiry, await followUpsOf(knex, inquiry.id)));
  },
  async updateInquiry(call) {
    return json(200, presentInquiry(await updateInquiry(call.app, call.params.inquiryId, call.body)));
  },
  async followUpInquiry(call) {
    const followUp = await followUpInquiry(call.app, call.params.inquiryId, call.body, actorLabel(staffActor(call.auth)));
    return json(201, presentFollowUp(followUp));
  },
  async archiveInquiry(call) {
    await archiveInquiry(call.app, call.params.inquiryId);
    return noContent();
  }
};

// server/modules/inquiries/publicPolicy.ts
var policy12 = [{ path: "/api/inquiries", match: "exact", methods: ["POST"], level: "public" }];

// server/modules/inquiries/index.ts
function record27() {
  return { tag: "inquiries", handlers: handlers27, policy: policy12, services: inquiriesServices };
}
__name(record27, "record");

// server/modules/waitlist/models.ts
var WaitlistEntry = class extends BaseModel {
  static {
    __name(this, "WaitlistEntry");
  }
  static tableName = "waitlist_entries";
  showEventId;
  customerId;
  name;
  email;
  phone;
  locale;
  guestCount;
  status;
  note;
  offerTokenHash;
  offerExpiresAt;
  notifiedAt;
  reservationId;
  convertedAt;
  expiredAt;
};

// server/modules/waitlist/commands/claimOffer.ts
var invalidOffer2 = /* @__PURE__ */ __name((detail) => Unprocessable("waitlist_offer_invalid", detail, [{ path: "body/waitlistToken", message: detail, code: "waitlist_offer_invalid" }]), "invalidOffer");
var claimWaitlistOffer = {
  name: "waitlist-offer",
  applies: /* @__PURE__ */ __name((input) => Boolean(input.waitlistToken), "applies"),
  claim: /* @__PURE__ */ __name(async (trx, input, event2, now) => {
    if (!input.waitlistToken) return null;
    const entry = await WaitlistEntry.query(trx).where("offer_token_hash", digest3(input.waitlistToken)).forUpdate().first();
    if (!entry || entry.status !== "NOTIFIED" || entry.showEventId !== event2.id) throw invalidOffer2("This waiting-list offer is unknown, used, or for another event.");
    if (!entry.offerExpiresAt || new Date(entry.offerExpiresAt) <= now) throw invalidOffer2("This waiting-list offer has expired.");
    if (input.guestCount > entry.guestCount) {
      throw Unprocessable("waitlist_party_too_large", `The offer holds ${entry.guestCount} seats.`, [
        { path: "body/guestCount", message: `must be at most ${entry.guestCount}`, code: "waitlist_party_too_large" }
      ]);
    }
    return {
      seats: entry.guestCount,
      afterInsert: /* @__PURE__ */ __name(async (reservationId) => {
        await WaitlistEntry.query(trx).findById(entry.id).patch({ status: "CONVERTED", reservationId, convertedAt: now, offerTokenHash: null, updatedAt: now });
      }, "afterInsert")
    };
  }, "claim")
};

// server/modules/waitlist/queries.ts
var NoSuchEntry = /* @__PURE__ */ __name(() => NotFound("No such waiting-list entry."), "NoSuchEntry");
function entryViews(knex) {
  return WaitlistEntry.query(knex).alias("w").join("show_events as e", "e.id", "w.show_event_id").leftJoin("reservations as r", "r.id", "w.reservation_id").select("w.*", "e.slug as event_slug", "e.starts_at as event_starts_at", "r.reference as reservation_reference");
}
__name(entryViews, "entryViews");
async function findEntryOrFail(knex, id) {
  const entry = await entryViews(knex).where("w.id", id).first();
  if (!entry) throw NoSuchEntry();
  return entry;
}
__name(findEntryOrFail, "findEntryOrFail");
async function listEntries(knex, filters) {
  const base = WaitlistEntry.query(knex).alias("w");
  if (filters.eventId) base.where("w.show_event_id", filters.eventId);
  if (filters.status) base.where("w.status", filters.status);
  const q = filters.q?.trim();
  if (q) base.where((w) => w.where("w.name", "ilike", likeContaining(q)).orWhere("w.email", "ilike", likeContaining(q)));
  const ids = base.clone().select("w.id");
  const [items, total] = await Promise.all([
    entryViews(knex).whereIn("w.id", ids).orderBy([{ column: "w.created_at", order: "asc" }, { column: "w.id", order: "asc" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listEntries, "listEntries");
async function liveEntryOf(trx, showEventId, email) {
  return WaitlistEntry.query(trx).where("show_event_id", showEventId).whereIn("status", ["WAITING", "NOTIFIED"]).andWhereRaw("lower(email) = ?", [email.toLowerCase()]).select("id").first();
}
__name(liveEntryOf, "liveEntryOf");
async function eventToJoin(trx, slug) {
  const row = await trx("show_events as e").join("shows as s", "s.id", "e.show_id").where("e.slug", slug).first("e.id", "e.capacity", "e.status", "s.status as show_status");
  return row && { id: row.id, capacity: row.capacity, status: row.status, showStatus: row.show_status };
}
__name(eventToJoin, "eventToJoin");
async function lockEvent(trx, eventId) {
  const { rows: rows2 } = await trx.raw(
    `select e.id, e.slug, e.capacity, e.status, e.sales_open, e.starts_at, s.title
       from show_events e join shows s on s.id = e.show_id where e.id = ? for update of e`,
    [eventId]
  );
  const row = rows2[0];
  return row && { id: row.id, slug: row.slug, capacity: row.capacity, status: row.status, salesOpen: row.sales_open, startsAt: row.starts_at, title: row.title };
}
__name(lockEvent, "lockEvent");
async function expirePastOffers(knex, now) {
  const expired = await knex("waitlist_entries").where("status", "NOTIFIED").andWhere("offer_expires_at", "<=", now).update({ status: "EXPIRED", expired_at: now, offer_token_hash: null, updated_at: now }).returning(["show_event_id"]);
  return expired.map((row) => row.show_event_id);
}
__name(expirePastOffers, "expirePastOffers");
async function expireLiveEntriesOf(trx, showEventId, now) {
  const expired = await trx("waitlist_entries").where({ show_event_id: showEventId }).whereIn("status", ["WAITING", "NOTIFIED"]).update({ status: "EXPIRED", expired_at: now, offer_token_hash: null, updated_at: now });
  return Number(expired);
}
__name(expireLiveEntriesOf, "expireLiveEntriesOf");
async function eventOfReservation(trx, reservationId) {
  const row = await trx("reservations").where({ id: reservationId }).first("show_event_id");
  return row.show_event_id;
}
__name(eventOfReservation, "eventOfReservation");
async function eventsWithWaitingOf(trx, reservationIds) {
  const events = await trx("reservations").whereIn("id", reservationIds).distinct().pluck("show_event_id");
  return await trx("waitlist_entries").whereIn("show_event_id", events).where("status", "WAITING").distinct().pluck("show_event_id");
}
__name(eventsWithWaitingOf, "eventsWithWaitingOf");

// server/modules/waitlist/commands/archiveWaitlistEntry.ts
async function archiveWaitlistEntry(app, id, now = /* @__PURE__ */ new Date()) {
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const current3 = await WaitlistEntry.query(trx).findById(id).forUpdate().select("status");
      if (!current3) throw NoSuchEntry();
      if (current3.status === "CONVERTED") throw Conflict("entry_converted", "The entry was converted into a booking; it cannot be archived.");
      if (current3.status === "EXPIRED") return;
      await WaitlistEntry.query(trx).findById(id).patch({ status: "EXPIRED", expiredAt: now, offerTokenHash: null, updatedAt: now });
      if (current3.status === "NOTIFIED") await catalogChanged(app, trx, { entity: "waitlistEntry", id });
    },
    now
  );
}
__name(archiveWaitlistEntry, "archiveWaitlistEntry");

// server/modules/waitlist/commands/joinWaitlist.ts
async function joinWaitlist(app, input, now = /* @__PURE__ */ new Date()) {
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const event2 = await eventToJoin(trx, input.eventSlug);
      if (!event2 || event2.showStatus !== "PUBLISHED") throw NotFound("No such show event.");
      if (event2.status !== "SCHEDULED") throw Conflict("event_not_bookable", `The event is ${String(event2.status).toLowerCase()}.`);
      const left = event2.capacity - await seatsTakenOf(trx, event2.id, now);
      if (left >= input.guestCount) throw Conflict("seats_available", `${left} seats are left: book them instead of waiting.`);
      const email = input.email.trim();
      if (await liveEntryOf(trx, event2.id, email)) return;
      const customerId = await upsertCustomer(trx, { name: input.name, email, phone: input.phone, locale: input.locale });
      await WaitlistEntry.query(trx).insert({
        showEventId: event2.id,
        customerId,
        name: input.name.trim(),
        email,
        phone: input.phone ?? null,
        locale: input.locale ?? null,
        guestCount: input.guestCount,
        note: input.note ?? null,
        createdAt: now,
        updatedAt: now
      });
    },
    now
  );
}
__name(joinWaitlist, "joinWaitlist");

// server/modules/waitlist/queues.ts
var WAITLIST_EXPIRE_OFFERS_QUEUE = "waitlist.expire-offers";
var WAITLIST_NOTIFY_NEXT_QUEUE = "waitlist.notify-next";

// server/modules/waitlist/commands/offerSeats.ts
async function offerSeats(trx, app, event2, entry, now) {
  const token2 = newAccessToken();
  const expiresAt = new Date(now.getTime() + app.config.waitlistOfferHours * 36e5);
  await WaitlistEntry.query(trx).findById(entry.id).patch({ status: "NOTIFIED", offerTokenHash: digest3(token2), offerExpiresAt: expiresAt, notifiedAt: now, updatedAt: now });
  await catalogChanged(app, trx, { entity: "waitlistEntry", id: entry.id });
  const locale = entry.locale ?? app.config.defaultLocale;
  const url = new URL(app.config.waitlistOfferUrl);
  url.searchParams.set("event", event2.slug);
  url.searchParams.set("token", token2);
  await recordEmail(
    trx,
    {
      template: "waitlist-offer",
      to: entry.email,
      locale,
      customerId: entry.customerId,
      data: {
        guestName: entry.name,
        showName: event2.title[locale] ?? event2.title[app.config.defaultLocale] ?? Object.values(event2.title)[0] ?? "",
        startsAt: event2.startsAt,
        partySize: entry.guestCount,
        offerUrl: url.toString(),
        offerExpiresAt: expiresAt
      }
    },
    { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom }
  );
  await app.jobs.enqueue(WAITLIST_EXPIRE_OFFERS_QUEUE, { eventId: event2.id }, { trx, startAfter: expiresAt });
}
__name(offerSeats, "offerSeats");

// server/modules/waitlist/commands/notifyWaitlistEntry.ts
async function notifyWaitlistEntry(app, id, now = /* @__PURE__ */ new Date()) {
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const found = await WaitlistEntry.query(trx).findById(id).select("show_event_id");
      if (!found) throw NoSuchEntry();
      const event2 = await lockEvent(trx, found.showEventId);
      const entry = await WaitlistEntry.query(trx).findById(id).forUpdate();
      if (entry.status !== "WAITING" && entry.status !== "NOTIFIED") throw Conflict("entry_not_waiting", `The entry is ${entry.status.toLowerCase()}.`);
      if (event2.status !== "SCHEDULED") throw Conflict("event_not_bookable", `The event is ${event2.status.toLowerCase()}.`);
      const ownHeld = entry.status === "NOTIFIED" && entry.offerExpiresAt && new Date(entry.offerExpiresAt) > now ? entry.guestCount : 0;
      const left = event2.capacity - await seatsTakenOf(trx, event2.id, now) + ownHeld;
      if (left < entry.guestCount) throw Conflict("not_enough_seats", `Only ${Math.max(0, left)} seats are free; the party has ${entry.guestCount}.`);
      await offerSeats(trx, app, event2, entry, now);
    },
    now
  );
}
__name(notifyWaitlistEntry, "notifyWaitlistEntry");

// server/modules/waitlist/commands/updateWaitlistEntry.ts
async function updateWaitlistEntry(app, id, input) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current3 = await WaitlistEntry.query(trx).findById(id).forUpdate().select("status");
    if (!current3) throw NoSuchEntry();
    if (current3.status !== "WAITING") throw Conflict("entry_not_waiting", `The entry is ${current3.status.toLowerCase()}; only a waiting entry can be changed.`);
    const changes = {};
    if (input.guestCount !== void 0) changes.guestCount = input.guestCount;
    if (input.name !== void 0) changes.name = input.name.trim();
    if (input.phone !== void 0) changes.phone = input.phone;
    if (input.note !== void 0) changes.note = input.note;
    await WaitlistEntry.query(trx).findById(id).patch(changes);
  });
}
__name(updateWaitlistEntry, "updateWaitlistEntry");

// server/modules/waitlist/presenters.ts
function presentEntry(entry) {
  return {
    id: entry.id,
    eventId: entry.showEventId,
    eventSlug: entry.eventSlug,
    eventStartsAt: iso2(entry.eventStartsAt),
    customerId: entry.customerId,
    name: entry.name,
    email: entry.email,
    phone: entry.phone,
    locale: entry.locale,
    guestCount: entry.guestCount,
    status: entry.status,
    note: entry.note,
    notifiedAt: iso2(entry.notifiedAt),
    offerExpiresAt: iso2(entry.offerExpiresAt),
    reservationReference: entry.reservationReference ?? null,
    convertedAt: iso2(entry.convertedAt),
    expiredAt: iso2(entry.expiredAt),
    createdAt: iso2(entry.createdAt),
    updatedAt: iso2(entry.updatedAt)
  };
}
__name(presentEntry, "presentEntry");
function presentJoinReceipt(input) {
  return { eventSlug: input.eventSlug, guestCount: input.guestCount, status: "WAITING" };
}
__name(presentJoinReceipt, "presentJoinReceipt");

// server/modules/waitlist/services.ts
function waitlistServices(platform) {
  return { waitlistJoinLimit: new RateLimit({ name: "waitlist-join-address", points: 10, windowSeconds: 600 }, rateLimitStoreFor(platform.db)) };
}
__name(waitlistServices, "waitlistServices");
async function throttleJoin(app, ip) {
  await consumeOrThrow([[app.waitlistJoinLimit, addressKey(ip)]], "Too many waiting-list requests from this address; try again later.");
}
__name(throttleJoin, "throttleJoin");

// server/modules/waitlist/handlers.ts
var current = {
  async joinWaitlist(call) {
    await throttleJoin(call.app, call.ip);
    await joinWaitlist(call.app, call.body);
    return json(201, presentJoinReceipt(call.body), { "Cache-Control": "no-store" });
  },
  async listWaitlistEntries(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listEntries(call.app.db.knex, { eventId: query.eventId, status: query.status, q: query.q, limit, offset });
    return json(200, { items: page.items.map(presentEntry), total: page.total, limit, offset });
  },
  async getWaitlistEntry(call) {
    return json(200, presentEntry(await findEntryOrFail(call.app.db.knex, call.params.entryId)));
  },
  async updateWaitlistEntry(call) {
    await updateWaitlistEntry(call.app, call.params.entryId, call.body);
    return json(200, presentEntry(await findEntryOrFail(call.app.db.knex, call.params.entryId)));
  },
  async notifyWaitlistEntry(call) {
    await notifyWaitlistEntry(call.app, call.params.entryId);
    return json(200, presentEntry(await findEntryOrFail(call.app.db.knex, call.params.entryId)));
  },
  async archiveWaitlistEntry(call) {
    await archiveWaitlistEntry(call.app, call.params.entryId);
    return noContent();
  }
};
var handlers28 = {
  ...current,
  joinWaitlistDeprecated: current.joinWaitlist
};

// server/modules/waitlist/commands/expireOffers.ts
async function expireOffers(knex, now = /* @__PURE__ */ new Date()) {
  return [...new Set(await expirePastOffers(knex, now))];
}
__name(expireOffers, "expireOffers");

// server/modules/waitlist/commands/notifyNextWaiting.ts
async function notifyNextWaiting(app, eventId, now = /* @__PURE__ */ new Date()) {
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const event2 = await lockEvent(trx, eventId);
      if (!event2 || event2.status !== "SCHEDULED" || !event2.salesOpen || new Date(event2.startsAt) <= now) return 0;
      let free = event2.capacity - await seatsTakenOf(trx, event2.id, now);
      if (free <= 0) return 0;
      const waiting = await WaitlistEntry.query(trx).where({ show_event_id: eventId, status: "WAITING" }).orderBy([{ column: "created_at" }, { column: "id" }]).forUpdate();
      let notified = 0;
      for (const entry of waiting) {
        if (entry.guestCount > free) continue;
        await offerSeats(trx, app, event2, entry, now);
        free -= entry.guestCount;
        notified++;
      }
      return notified;
    },
    now
  );
}
__name(notifyNextWaiting, "notifyNextWaiting");

// server/modules/waitlist/jobs.ts
var jobs5 = [
  {
    name: WAITLIST_EXPIRE_OFFERS_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(_data, job) {
      if (!job.app) throw new Error(`${WAITLIST_EXPIRE_OFFERS_QUEUE}: the job engine was started without the app's services`);
      const events = await expireOffers(job.app.db.knex);
      let notified = 0;
      for (const eventId of events) notified += await notifyNextWaiting(job.app, eventId);
      return { events: events.length, notified };
    }
  },
  {
    name: WAITLIST_NOTIFY_NEXT_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(data, job) {
      if (!job.app) throw new Error(`${WAITLIST_NOTIFY_NEXT_QUEUE}: the job engine was started without the app's services`);
      if (!data.eventId) return { notified: 0 };
      return { notified: await notifyNextWaiting(job.app, data.eventId) };
    }
  }
];

// server/modules/waitlist/publicPolicy.ts
var policy13 = [
  { path: "/api/waitlist", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/public/waitlist", match: "exact", methods: ["POST"], level: "public" }
];

// server/modules/waitlist/commands/expireEntriesOfCancelledEvent.ts
async function expireEntriesOfCancelledEvent(trx, showEventId, now) {
  return expireLiveEntriesOf(trx, showEventId, now);
}
__name(expireEntriesOfCancelledEvent, "expireEntriesOfCancelledEvent");

// server/modules/waitlist/commands/queueNotifyNext.ts
async function queueNotifyNext(jobs8, trx, eventIds) {
  for (const eventId of new Set(eventIds)) await jobs8.enqueue(WAITLIST_NOTIFY_NEXT_QUEUE, { eventId }, { trx });
}
__name(queueNotifyNext, "queueNotifyNext");

// server/modules/waitlist/subscribers.ts
var subscribers4 = [
  subscriber({
    name: "waitlist.seats-freed-on-cancel",
    event: "reservation.cancelled",
    phase: "in-transaction",
    order: 40,
    async handle({ reservationId }, ctx) {
      await queueNotifyNext(ctx.app.jobs, ctx.trx, [await eventOfReservation(ctx.trx, reservationId)]);
    }
  }),
  subscriber({
    name: "waitlist.seats-freed-on-expiry",
    event: "holds.expired",
    phase: "in-transaction",
    order: 40,
    async handle({ reservationIds }, ctx) {
      await queueNotifyNext(ctx.app.jobs, ctx.trx, await eventsWithWaitingOf(ctx.trx, reservationIds));
    }
  }),
  // Named as the cancellation flow's reply reports it (`hooks[].name`).
  subscriber({
    name: "waitlist",
    event: "showEvent.cancelled",
    phase: "in-transaction",
    order: 20,
    async handle({ event: event2 }, ctx) {
      return { waitlistEntriesExpired: await expireEntriesOfCancelledEvent(ctx.trx, event2.id, /* @__PURE__ */ new Date()) };
    }
  })
];

// server/modules/waitlist/index.ts
function record28() {
  return { tag: "waitlist", handlers: handlers28, policy: policy13, jobs: jobs5, seatClaims: [claimWaitlistOffer], subscribers: subscribers4, services: waitlistServices };
}
__name(record28, "record");

// server/modules/profiles/models.ts
var GuestProfile = class extends BaseModel {
  static {
    __name(this, "GuestProfile");
  }
  static tableName = "guest_profiles";
  static jsonAttributes = ["dietaryPreferences"];
  reservationId;
  displayName;
  dietaryPreferences;
  dietaryNote;
  tableId;
  tokenHash;
  isDeleted;
  deletedAt;
};
var GuestReaction = class extends RecordModel {
  static {
    __name(this, "GuestReaction");
  }
  static tableName = "guest_reactions";
  id;
  profileId;
  emoji;
  comment;
  createdAt;
};

// server/modules/profiles/queries.ts
function profileQuery(trx) {
  return GuestProfile.query(trx).alias("p").join("reservations as r", "r.id", "p.reservation_id").join("show_events as e", "e.id", "r.show_event_id").leftJoin("venue_tables as t", "t.id", "p.table_id").select(
    "p.*",
    "r.reference as reservation_reference",
    "r.status as reservation_status",
    "r.show_event_id",
    "e.slug as event_slug",
    "e.starts_at as event_starts_at",
    "e.doors_at as event_doors_at",
    "t.code as table_code"
  );
}
__name(profileQuery, "profileQuery");
async function findProfileView(id, trx) {
  return await profileQuery(trx).where("p.id", id).first();
}
__name(findProfileView, "findProfileView");
async function findProfileOrFail(id, trx) {
  const profile2 = await findProfileView(id, trx);
  if (!profile2) throw NotFound("No such profile.");
  return profile2;
}
__name(findProfileOrFail, "findProfileOrFail");
var NoSuchProfile = /* @__PURE__ */ __name(() => NotFound("No such profile, or the token does not open it."), "NoSuchProfile");
var DUMMY = digest3("no profile");
async function profileForToken(token2) {
  const profile2 = token2 ? await profileQuery().where("p.token_hash", digest3(token2)).first() : void 0;
  const ok3 = tokenMatches(token2, profile2?.tokenHash ?? DUMMY);
  return profile2 && ok3 && !profile2.isDeleted ? profile2 : void 0;
}
__name(profileForToken, "profileForToken");
async function profileForTokenOrFail(token2) {
  const profile2 = await profileForToken(token2);
  if (!profile2) throw NoSuchProfile();
  return profile2;
}
__name(profileForTokenOrFail, "profileForTokenOrFail");
async function listProfiles(filters) {
  const base = profileQuery().where("r.show_event_id", filters.eventId);
  if (!filters.includeDeleted) base.where("p.is_deleted", false);
  const [items, total] = await Promise.all([
    base.clone().orderByRaw("t.sort_order nulls last, t.code nulls last, r.reference, p.created_at, p.id").limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listProfiles, "listProfiles");
async function listReactions(filters) {
  const base = GuestReaction.query().alias("x").join("guest_profiles as p", "p.id", "x.profile_id").join("reservations as r", "r.id", "p.reservation_id").leftJoin("venue_tables as t", "t.id", "p.table_id").where("r.show_event_id", filters.eventId).andWhere("p.is_deleted", false);
  if (filters.since) base.andWhere("x.created_at", ">", filters.since);
  const [items, total] = await Promise.all([
    base.clone().select("x.id", "x.profile_id", "p.display_name", "t.code as table_code", "x.emoji", "x.comment", "x.created_at").orderBy([{ column: "x.created_at", order: "desc" }, { column: "x.id", order: "asc" }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize()
  ]);
  return { items, total };
}
__name(listReactions, "listReactions");
async function lockReservationForProfiles(trx, reservationId) {
  const locked = await trx("reservations").where({ id: reservationId }).forUpdate().first("status", "guest_count", "hold_expires_at");
  return { status: locked.status, guestCount: locked.guest_count, holdExpiresAt: locked.hold_expires_at };
}
__name(lockReservationForProfiles, "lockReservationForProfiles");
async function liveProfileCount(trx, reservationId) {
  return GuestProfile.query(trx).where({ reservation_id: reservationId, is_deleted: false }).resultSize();
}
__name(liveProfileCount, "liveProfileCount");

// server/modules/profiles/commands/createGuestProfile.ts
var LIVE_RESERVATION = ["HELD", "CONFIRMED", "CHECKED_IN"];
async function createGuestProfile(app, reference, reservationToken, input) {
  const reservation = await guestReservation(app.db.knex, reference, reservationToken);
  if (!reservation) throw NotFound("No such reservation, or the token does not open it.");
  const token2 = newAccessToken();
  const id = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const locked = await lockReservationForProfiles(trx, reservation.id);
    const expired = locked.status === "HELD" && locked.holdExpiresAt && new Date(locked.holdExpiresAt) <= /* @__PURE__ */ new Date();
    if (!LIVE_RESERVATION.includes(locked.status) || expired) throw Conflict("reservation_not_active", "Profiles can be added to a live reservation only.");
    const count = await liveProfileCount(trx, reservation.id);
    if (count >= locked.guestCount) throw Conflict("party_full", `The party has ${locked.guestCount} guests and each has a profile.`);
    const profile2 = await GuestProfile.query(trx).insert({
      reservationId: reservation.id,
      displayName: input.displayName.trim(),
      dietaryPreferences: [...new Set(input.dietaryPreferences ?? [])],
      dietaryNote: input.dietaryNote ?? null,
      tokenHash: digest3(token2)
    });
    return profile2.id;
  });
  return { profile: await findProfileView(id), token: token2 };
}
__name(createGuestProfile, "createGuestProfile");

// server/modules/profiles/commands/createReaction.ts
async function createReaction(app, profile2, input, now = /* @__PURE__ */ new Date()) {
  const opensAt = new Date(profile2.eventDoorsAt ?? profile2.eventStartsAt);
  if (now < opensAt) throw Conflict("show_not_started", "Reactions open when the doors open.");
  if (!["CONFIRMED", "CHECKED_IN", "NO_SHOW"].includes(profile2.reservationStatus)) throw Conflict("reservation_not_active", "This reservation takes no reactions.");
  const reaction = await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => GuestReaction.query(trx).insertAndFetch({ profileId: profile2.id, emoji: input.emoji, comment: input.comment?.trim() || null, createdAt: now })
  );
  return Object.assign(reaction, { displayName: profile2.displayName, tableCode: profile2.tableCode });
}
__name(createReaction, "createReaction");

// server/modules/profiles/commands/deleteProfile.ts
async function deleteProfile(app, id, now = /* @__PURE__ */ new Date()) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current3 = await GuestProfile.query(trx).findById(id).select("id", "is_deleted");
    if (!current3) throw NotFound("No such profile.");
    if (current3.isDeleted) return;
    await current3.$query(trx).patch({ isDeleted: true, deletedAt: now });
  });
}
__name(deleteProfile, "deleteProfile");

// server/modules/profiles/commands/updateOwnProfile.ts
async function updateOwnProfile(app, profile2, input) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const fields = {};
    if (input.displayName !== void 0) fields.displayName = input.displayName.trim();
    if (input.dietaryPreferences !== void 0) fields.dietaryPreferences = [...new Set(input.dietaryPreferences)];
    if (input.dietaryNote !== void 0) fields.dietaryNote = input.dietaryNote;
    await GuestProfile.query(trx).where({ id: profile2.id, is_deleted: false }).patch(fields);
    return await findProfileView(profile2.id, trx);
  });
}
__name(updateOwnProfile, "updateOwnProfile");

// server/modules/profiles/commands/updateProfile.ts
async function updateProfile(app, id, tableId) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current3 = await findProfileOrFail(id, trx);
    if (current3.isDeleted) throw Conflict("profile_deleted", "The profile was deleted; it cannot be changed.");
    if (tableId && !await VenueTable.query(trx).findById(tableId).select("id")) {
      throw Unprocessable("unknown_table", "No such table.", [{ path: "body/tableId", message: "is not a table", code: "unknown_table" }]);
    }
    await GuestProfile.query(trx).findById(id).patch({ tableId });
    return findProfileOrFail(id, trx);
  });
}
__name(updateProfile, "updateProfile");

// server/modules/profiles/limits.ts
function profilesServices(platform) {
  const store = rateLimitStoreFor(platform.db);
  return {
    profileLimits: {
      writes: new RateLimit({ name: "profile-write-address", points: 30, windowSeconds: 600 }, store),
      reactionsPerProfile: new RateLimit({ name: "profile-reaction", points: 20, windowSeconds: 300 }, store),
      reactionsPerAddress: new RateLimit({ name: "profile-reaction-address", points: 200, windowSeconds: 300 }, store)
    }
  };
}
__name(profilesServices, "profilesServices");
var throttleProfileWrite = /* @__PURE__ */ __name((app, ip) => consumeOrThrow([[app.profileLimits.writes, addressKey(ip)]], "Too many profile changes from this address; try again later."), "throttleProfileWrite");
var throttleReaction = /* @__PURE__ */ __name((app, ip, profileId) => consumeOrThrow(
  [
    [app.profileLimits.reactionsPerProfile, profileId],
    [app.profileLimits.reactionsPerAddress, addressKey(ip)]
  ],
  "Too many reactions; take a breath and enjoy the show."
), "throttleReaction");

// server/modules/profiles/presenters.ts
function presentOwnProfile(profile2) {
  return {
    id: profile2.id,
    displayName: profile2.displayName,
    dietaryPreferences: profile2.dietaryPreferences,
    dietaryNote: profile2.dietaryNote,
    reservationReference: profile2.reservationReference,
    eventSlug: profile2.eventSlug,
    eventStartsAt: iso2(profile2.eventStartsAt),
    tableCode: profile2.tableCode,
    createdAt: iso2(profile2.createdAt),
    updatedAt: iso2(profile2.updatedAt)
  };
}
__name(presentOwnProfile, "presentOwnProfile");
function presentProfile(profile2) {
  return {
    id: profile2.id,
    reservationId: profile2.reservationId,
    reservationReference: profile2.reservationReference,
    eventId: profile2.showEventId,
    displayName: profile2.displayName,
    dietaryPreferences: profile2.dietaryPreferences,
    dietaryNote: profile2.dietaryNote,
    tableId: profile2.tableId,
    tableCode: profile2.tableCode,
    isDeleted: profile2.isDeleted,
    deletedAt: iso2(profile2.deletedAt),
    createdAt: iso2(profile2.createdAt),
    updatedAt: iso2(profile2.updatedAt)
  };
}
__name(presentProfile, "presentProfile");
function presentReaction(reaction) {
  return {
    id: reaction.id,
    profileId: reaction.profileId,
    displayName: reaction.displayName,
    tableCode: reaction.tableCode,
    emoji: reaction.emoji,
    comment: reaction.comment,
    createdAt: iso2(reaction.createdAt)
  };
}
__name(presentReaction, "presentReaction");

// server/modules/profiles/handlers.ts
var profileToken = /* @__PURE__ */ __name((call) => call.header("x-profile-token") || void 0, "profileToken");
var NO_STORE3 = { "Cache-Control": "no-store" };
var current2 = {
  async createGuestProfile(call) {
    await throttleProfileWrite(call.app, call.ip);
    const { reservationReference, ...input } = call.body;
    const { profile: profile2, token: token2 } = await createGuestProfile(call.app, reservationReference, call.header("x-reservation-token") || void 0, input);
    return json(201, { ...presentOwnProfile(profile2), profileToken: token2 }, NO_STORE3);
  },
  async getOwnProfile(call) {
    return json(200, presentOwnProfile(await profileForTokenOrFail(profileToken(call))), NO_STORE3);
  },
  async updateOwnProfile(call) {
    await throttleProfileWrite(call.app, call.ip);
    const profile2 = await profileForTokenOrFail(profileToken(call));
    return json(200, presentOwnProfile(await updateOwnProfile(call.app, profile2, call.body)), NO_STORE3);
  },
  async createReaction(call) {
    const profile2 = await profileForTokenOrFail(profileToken(call));
    await throttleReaction(call.app, call.ip, profile2.id);
    return json(201, presentReaction(await createReaction(call.app, profile2, call.body)));
  },
  async listProfiles(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listProfiles({ eventId: query.eventId, includeDeleted: query.includeDeleted ?? false, limit, offset });
    return json(200, { items: page.items.map(presentProfile), total: page.total, limit, offset });
  },
  async listReactions(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listReactions({ eventId: query.eventId, since: query.since, limit, offset });
    return json(200, { items: page.items.map(presentReaction), total: page.total, limit, offset });
  },
  async updateProfile(call) {
    return json(200, presentProfile(await updateProfile(call.app, call.params.profileId, call.body.tableId)));
  },
  async deleteProfile(call) {
    await deleteProfile(call.app, call.params.profileId);
    return noContent();
  }
};
var handlers29 = {
  ...current2,
  createGuestProfileDeprecated: current2.createGuestProfile,
  getOwnProfileDeprecated: current2.getOwnProfile,
  updateOwnProfileDeprecated: current2.updateOwnProfile,
  createReactionDeprecated: current2.createReaction
};

// server/modules/profiles/publicPolicy.ts
var policy14 = [
  { path: "/api/profiles", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/profiles/me", match: "exact", methods: ["GET", "HEAD", "PATCH"], level: "public" },
  { path: "/api/profiles/me/reactions", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/public/profiles", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/public/profiles/me", match: "exact", methods: ["GET", "HEAD", "PATCH"], level: "public" },
  { path: "/api/public/profiles/me/reactions", match: "exact", methods: ["POST"], level: "public" }
];

// server/modules/profiles/index.ts
function record29() {
  return { tag: "profiles", handlers: handlers29, policy: policy14, services: profilesServices };
}
__name(record29, "record");

// server/modules/integrations/presenters.ts
var iso4 = /* @__PURE__ */ __name((value) => (value instanceof Date ? value : new Date(value)).toISOString(), "iso");
var presentMetaEvent = /* @__PURE__ */ __name((row) => ({
  id: String(row.id),
  eventName: row.eventName,
  eventId: row.eventId,
  source: row.source,
  status: row.status,
  httpStatus: row.httpStatus,
  fbtraceId: row.fbtraceId,
  eventsReceived: row.eventsReceived,
  errorMessage: row.errorMessage,
  attempt: row.attempt,
  startedAt: iso4(row.startedAt),
  finishedAt: iso4(row.finishedAt),
  createdAt: iso4(row.createdAt)
}), "presentMetaEvent");

// server/modules/integrations/queries.ts
async function listMetaEvents(filters) {
  const filtered2 = MetaCapiEvent.query().modify((q) => {
    if (filters.eventName) q.where("event_name", filters.eventName);
    if (filters.eventId) q.where("event_id", filters.eventId);
    if (filters.source) q.where("source", filters.source);
    if (filters.status) q.where("status", filters.status);
    if (filters.createdFrom) q.where("created_at", ">=", new Date(filters.createdFrom));
    if (filters.createdTo) q.where("created_at", "<", new Date(filters.createdTo));
  });
  const total = await filtered2.clone().resultSize();
  const items = await filtered2.orderBy([{ column: "created_at", order: "desc" }, { column: "id", order: "desc" }]).limit(filters.limit).offset(filters.offset);
  return { items, total };
}
__name(listMetaEvents, "listMetaEvents");

// server/modules/integrations/handlers.ts
var handlers30 = {
  async listMetaConversionsApiEvents(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listMetaEvents({ ...query, limit, offset });
    return json(200, { items: page.items.map(presentMetaEvent), total: page.total, limit, offset });
  }
};

// server/modules/integrations/index.ts
function record30() {
  return { tag: "integrations", handlers: handlers30 };
}
__name(record30, "record");

// server/modules/referralPartners/errors.ts
function isUniqueViolation2(err, constraint) {
  const wrapped = err;
  const e = wrapped?.nativeError ?? err;
  if (e?.code !== "23505") return false;
  return !constraint || e.constraint === constraint || (e.message ?? "").includes(constraint);
}
__name(isUniqueViolation2, "isUniqueViolation");
var SlugTaken = /* @__PURE__ */ __name(() => Conflict("slug_taken", "Another partner has this public slug."), "SlugTaken");
var SLUG_INDEX = "referral_partners_public_slug_unique";

// server/modules/referralPartners/models.ts
var ReferralPartner = class extends BaseModel {
  static {
    __name(this, "ReferralPartner");
  }
  static tableName = "referral_partners";
  name;
  type;
  status;
  publicSlug;
  contactEmail;
  contactPhone;
  websiteUrl;
  city;
  description;
  commissionKind;
  commissionValue;
  payoutDetails;
  externalPlaceId;
  notes;
};

// server/modules/referralPartners/slugs.ts
function slugify(text, max = 60) {
  const slug = text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/gi, "d").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, max).replace(/-+$/g, "");
  return slug.length >= 2 ? slug : `partner${slug ? `-${slug}` : ""}`;
}
__name(slugify, "slugify");

// server/modules/referralPartners/commands/createReferralPartner.ts
var FIELDS = ["name", "type", "status", "publicSlug", "contactEmail", "contactPhone", "websiteUrl", "city", "description", "payoutDetails", "externalPlaceId", "notes"];
function partnerFields(input) {
  const out = {};
  for (const field of FIELDS) if (input[field] !== void 0) out[field] = input[field];
  if (input.commissionRule) {
    out.commissionKind = input.commissionRule.kind;
    out.commissionValue = input.commissionRule.value;
  }
  return out;
}
__name(partnerFields, "partnerFields");
async function createReferralPartner(app, input) {
  const explicit = input.publicSlug !== void 0;
  const base = input.publicSlug ?? slugify(input.name ?? "partner");
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    for (let attempt = 0; ; attempt++) {
      const slug = attempt === 0 ? base : `${base.slice(0, 70)}-${attempt + 1}`;
      try {
        return await trx.transaction(async (attemptTrx) => ReferralPartner.query(attemptTrx).insertAndFetch({ ...partnerFields(input), publicSlug: slug }));
      } catch (err) {
        if (!isUniqueViolation2(err, SLUG_INDEX)) throw err;
        if (explicit || attempt >= 20) throw SlugTaken();
      }
    }
  });
}
__name(createReferralPartner, "createReferralPartner");

// server/modules/referralPartners/queries.ts
async function findPartnerOrFail(id, trx) {
  const partner = await ReferralPartner.query(trx).findById(id);
  if (!partner) throw NotFound("No such referral partner.");
  return partner;
}
__name(findPartnerOrFail, "findPartnerOrFail");
async function listPartners(filters) {
  const base = ReferralPartner.query().modify((q) => {
    if (filters.status) q.where("status", filters.status);
    if (filters.type) q.where("type", filters.type);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().orderBy("created_at", "desc").orderBy("id", "desc").limit(filters.limit).offset(filters.offset);
  return { items, total };
}
__name(listPartners, "listPartners");
var COUNTED = ["CONFIRMED", "CHECKED_IN"];
async function partnerMetrics(knex, id) {
  await findPartnerOrFail(id);
  const clicks = await knex("referral_clicks as c").join("referral_links as l", "l.id", "c.link_id").where("l.partner_id", id).sum("c.click_count as sum");
  const bookings = await knex("reservations").where({ referral_partner_id: id }).whereIn("status", COUNTED).first(knex.raw("count(*)::int as bookings"), knex.raw("coalesce(sum(guest_count), 0)::int as guests"), knex.raw("coalesce(sum(total_vnd), 0)::bigint as revenue"));
  const byStatus = await knex("referral_commissions").where({ partner_id: id }).groupBy("status").select("status", knex.raw("coalesce(sum(amount_vnd), 0)::bigint as amount"));
  const commissions = { PENDING: 0, APPROVED: 0, PAID: 0, VOID: 0 };
  for (const row of byStatus) commissions[row.status] = Number(row.amount);
  return {
    partnerId: id,
    clicks: Number(clicks[0]?.sum ?? 0),
    bookings: Number(bookings.bookings),
    guests: Number(bookings.guests),
    revenueVnd: Number(bookings.revenue),
    commissions
  };
}
__name(partnerMetrics, "partnerMetrics");
async function activeExtras(partnerIds) {
  if (partnerIds.length === 0) return { codes: [], links: [] };
  const codes = await ReferralCode.query().whereIn("partner_id", partnerIds).andWhere("status", "ACTIVE").orderBy("code").select("partner_id", "code", "guest_discount_percent");
  const links = await ReferralLink.query().whereIn("partner_id", partnerIds).andWhere("status", "ACTIVE").orderBy("slug").select("partner_id", "slug", "channel", "label");
  return { codes, links };
}
__name(activeExtras, "activeExtras");
async function directory() {
  const partners = await ReferralPartner.query().where({ status: "ACTIVE" }).orderBy(["name", "public_slug"]);
  const { codes, links } = await activeExtras(partners.map((p) => p.id));
  return partners.map((partner) => ({ partner, codes: codes.filter((c) => c.partnerId === partner.id), links: links.filter((l) => l.partnerId === partner.id) }));
}
__name(directory, "directory");
async function profile(knex, slug) {
  const partner = await ReferralPartner.query().findOne({ public_slug: slug, status: "ACTIVE" });
  if (!partner) throw NotFound("No such partner.");
  const { codes, links } = await activeExtras([partner.id]);
  const stats = await knex("reservations").where({ referral_partner_id: partner.id }).whereIn("status", COUNTED).first(knex.raw("count(*)::int as bookings"), knex.raw("coalesce(sum(guest_count), 0)::int as guests"));
  return { partner, codes, links, stats: { bookings: Number(stats.bookings), guests: Number(stats.guests) } };
}
__name(profile, "profile");

// server/modules/referralPartners/commands/updateReferralPartner.ts
async function updateReferralPartner(app, id, input) {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const partner = await findPartnerOrFail(id, trx);
      return partner.$query(trx).patchAndFetch(partnerFields(input));
    });
  } catch (err) {
    if (isUniqueViolation2(err, SLUG_INDEX)) throw SlugTaken();
    throw err;
  }
}
__name(updateReferralPartner, "updateReferralPartner");

// server/modules/referralPartners/presenters.ts
function presentPartner(partner) {
  return {
    id: partner.id,
    name: partner.name,
    type: partner.type,
    status: partner.status,
    publicSlug: partner.publicSlug,
    contactEmail: partner.contactEmail,
    contactPhone: partner.contactPhone,
    websiteUrl: partner.websiteUrl,
    city: partner.city,
    description: partner.description,
    commissionRule: { kind: partner.commissionKind, value: partner.commissionValue },
    payoutDetails: partner.payoutDetails,
    externalPlaceId: partner.externalPlaceId,
    notes: partner.notes,
    createdAt: iso2(partner.createdAt),
    updatedAt: iso2(partner.updatedAt)
  };
}
__name(presentPartner, "presentPartner");
var presentPublicCode = /* @__PURE__ */ __name((code) => ({ code: code.code, guestDiscount: code.guestDiscountPercent > 0, guestDiscountPercent: code.guestDiscountPercent }), "presentPublicCode");
var presentPublicLink = /* @__PURE__ */ __name((link, siteUrl) => ({
  slug: link.slug,
  channel: link.channel,
  label: link.label,
  url: `${siteUrl}/go/${link.slug}`
}), "presentPublicLink");
var publicContact = /* @__PURE__ */ __name((partner) => ({
  name: partner.name,
  type: partner.type,
  publicSlug: partner.publicSlug,
  contactEmail: partner.contactEmail,
  contactPhone: partner.contactPhone,
  websiteUrl: partner.websiteUrl,
  city: partner.city
}), "publicContact");
function presentDirectoryEntry(entry) {
  return {
    ...publicContact(entry.partner),
    codes: entry.codes.map(presentPublicCode),
    guestDiscount: entry.codes.some((c) => c.guestDiscountPercent > 0),
    channels: [...new Set(entry.links.map((l) => l.channel))].sort()
  };
}
__name(presentDirectoryEntry, "presentDirectoryEntry");
var vnd = /* @__PURE__ */ __name((amount, locale) => `${new Intl.NumberFormat(locale === "vi" ? "vi-VN" : "en-US").format(amount)} VND`, "vnd");
function earningRules(partner, codes, locale) {
  const vi = locale === "vi";
  const rules = [];
  if (partner.commissionValue > 0) {
    if (partner.commissionKind === "PERCENT") {
      rules.push(vi ? `${partner.commissionValue}% tr\xEAn m\u1ED7i \u0111\u1EB7t ch\u1ED7 \u0111\xE3 thanh to\xE1n` : `${partner.commissionValue}% of every paid booking`);
    } else {
      rules.push(vi ? `${vnd(partner.commissionValue, locale)} cho m\u1ED7i kh\xE1ch c\u1EE7a \u0111\u1EB7t ch\u1ED7 \u0111\xE3 thanh to\xE1n` : `${vnd(partner.commissionValue, locale)} per guest of every paid booking`);
    }
  }
  for (const code of codes) {
    if (code.guestDiscountPercent > 0) {
      rules.push(vi ? `Kh\xE1ch d\xF9ng m\xE3 ${code.code} \u0111\u01B0\u1EE3c gi\u1EA3m ${code.guestDiscountPercent}%` : `Guests using code ${code.code} get ${code.guestDiscountPercent}% off`);
    }
  }
  return rules;
}
__name(earningRules, "earningRules");
function presentProfile2(p, locale, siteUrl) {
  return {
    ...publicContact(p.partner),
    description: p.partner.description,
    locale,
    earningRules: earningRules(p.partner, p.codes, locale),
    stats: p.stats,
    codes: p.codes.map(presentPublicCode),
    links: p.links.map((l) => presentPublicLink(l, siteUrl))
  };
}
__name(presentProfile2, "presentProfile");

// server/modules/referralPartners/handlers.ts
var handlers31 = {
  async listReferralPartners(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listPartners({ status: call.query.status, type: call.query.type, limit, offset });
    return json(200, { items: page.items.map(presentPartner), total: page.total, limit, offset });
  },
  async createReferralPartner(call) {
    return json(201, presentPartner(await createReferralPartner(call.app, call.body)));
  },
  async getReferralPartner(call) {
    return json(200, presentPartner(await findPartnerOrFail(call.params.partnerId)));
  },
  async updateReferralPartner(call) {
    return json(200, presentPartner(await updateReferralPartner(call.app, call.params.partnerId, call.body)));
  },
  async getReferralPartnerMetrics(call) {
    return json(200, await partnerMetrics(call.app.db.knex, call.params.partnerId));
  },
  async getReferralPartnerDirectory() {
    return json(200, { items: (await directory()).map(presentDirectoryEntry) });
  },
  async getReferralPartnerProfile(call) {
    const { siteLocales, defaultLocale, publicSiteUrl } = call.app.config;
    const locale = call.query.locale && siteLocales.includes(call.query.locale) ? call.query.locale : defaultLocale;
    return json(200, presentProfile2(await profile(call.app.db.knex, call.params.slug), locale, publicSiteUrl));
  }
};

// server/modules/referralPartners/publicPolicy.ts
var policy15 = [
  { path: "/api/referral-partners/directory", match: "exact", methods: ["GET", "HEAD"], level: "public" },
  { path: "/api/referral-partners/{slug}/profile", match: "exact", methods: ["GET", "HEAD"], level: "public" }
];

// server/modules/referralPartners/index.ts
function record31() {
  return { tag: "referralPartners", handlers: handlers31, policy: policy15 };
}
__name(record31, "record");

// server/modules/referralCodes/codeValue.ts
var normalizeCode2 = /* @__PURE__ */ __name((code) => code.trim().toUpperCase(), "normalizeCode");

// server/modules/referralCodes/models.ts
var ReferralCode = class extends BaseModel {
  static {
    __name(this, "ReferralCode");
  }
  static tableName = "referral_codes";
  code;
  partnerId;
  status;
  guestDiscountPercent;
  commissionKind;
  commissionValue;
  description;
  archivedAt;
};

// server/modules/referralCodes/commands/createReferralCode.ts
function ruleFields(input) {
  if (input.commissionRule === void 0) return {};
  return { commissionKind: input.commissionRule?.kind ?? null, commissionValue: input.commissionRule?.value ?? null };
}
__name(ruleFields, "ruleFields");
async function createReferralCode(app, input) {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const partner = await ReferralPartner.query(trx).findById(input.partnerId).select("id");
      if (!partner) throw Unprocessable("unknown_partner", "No such referral partner.", [{ path: "body/partnerId", message: "is not a partner", code: "unknown_partner" }]);
      return ReferralCode.query(trx).insertAndFetch({
        code: normalizeCode2(input.code),
        partnerId: input.partnerId,
        guestDiscountPercent: input.guestDiscountPercent ?? 0,
        description: input.description ?? null,
        ...ruleFields(input)
      });
    });
  } catch (err) {
    if (isUniqueViolation2(err, "referral_codes_code_unique")) throw Conflict("code_taken", "This referral code exists.");
    throw err;
  }
}
__name(createReferralCode, "createReferralCode");

// server/modules/referralCodes/queries.ts
async function findCodeOrFail(id, trx) {
  const code = await ReferralCode.query(trx).findById(id);
  if (!code) throw NotFound("No such referral code.");
  return code;
}
__name(findCodeOrFail, "findCodeOrFail");
async function listCodes(filters) {
  const base = ReferralCode.query().modify((q) => {
    if (filters.partnerId) q.where("partner_id", filters.partnerId);
    if (filters.status) q.where("status", filters.status);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().orderBy("created_at", "desc").orderBy("id", "desc").limit(filters.limit).offset(filters.offset);
  return { items, total };
}
__name(listCodes, "listCodes");

// server/modules/referralCodes/commands/deleteReferralCode.ts
async function deleteReferralCode(app, id) {
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    await findCodeOrFail(id, trx);
    await ReferralCode.query(trx).where({ id, status: "ACTIVE" }).patch({ status: "ARCHIVED", archivedAt: now });
  });
}
__name(deleteReferralCode, "deleteReferralCode");

// server/modules/referralCodes/commands/updateReferralCode.ts
async function updateReferralCode(app, id, input) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now }) => {
    const before = await findCodeOrFail(id, trx);
    const patch = { ...ruleFields(input) };
    if (input.guestDiscountPercent !== void 0) patch.guestDiscountPercent = input.guestDiscountPercent;
    if (input.description !== void 0) patch.description = input.description;
    if (input.status !== void 0 && input.status !== before.status) {
      patch.status = input.status;
      patch.archivedAt = input.status === "ARCHIVED" ? now : null;
    }
    return before.$query(trx).patchAndFetch(patch);
  });
}
__name(updateReferralCode, "updateReferralCode");

// server/modules/referralCodes/presenters.ts
function presentCode(code) {
  return {
    id: code.id,
    code: code.code,
    partnerId: code.partnerId,
    status: code.status,
    guestDiscount: code.guestDiscountPercent > 0,
    guestDiscountPercent: code.guestDiscountPercent,
    commissionRule: code.commissionKind !== null && code.commissionValue !== null ? { kind: code.commissionKind, value: code.commissionValue } : null,
    description: code.description,
    archivedAt: iso2(code.archivedAt),
    createdAt: iso2(code.createdAt),
    updatedAt: iso2(code.updatedAt)
  };
}
__name(presentCode, "presentCode");

// server/modules/referralCodes/handlers.ts
var handlers32 = {
  async listReferralCodes(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listCodes({ partnerId: call.query.partnerId, status: call.query.status, limit, offset });
    return json(200, { items: page.items.map(presentCode), total: page.total, limit, offset });
  },
  async createReferralCode(call) {
    return json(201, presentCode(await createReferralCode(call.app, call.body)));
  },
  async getReferralCode(call) {
    return json(200, presentCode(await findCodeOrFail(call.params.codeId)));
  },
  async updateReferralCode(call) {
    return json(200, presentCode(await updateReferralCode(call.app, call.params.codeId, call.body)));
  },
  async deleteReferralCode(call) {
    await deleteReferralCode(call.app, call.params.codeId);
    return noContent();
  }
};

// server/modules/referralCodes/index.ts
function record32() {
  return { tag: "referralCodes", handlers: handlers32 };
}
__name(record32, "record");

// server/modules/referralLinks/models.ts
import { Model as Model3 } from "objection";
var ReferralLink = class extends BaseModel {
  static {
    __name(this, "ReferralLink");
  }
  static tableName = "referral_links";
  slug;
  destination;
  channel;
  label;
  status;
  partnerId;
  codeId;
  stickerBlobId;
  stickerUrl;
  code;
  static get relationMappings() {
    return {
      code: { relation: Model3.BelongsToOneRelation, modelClass: ReferralCode, join: { from: "referral_links.code_id", to: "referral_codes.id" } }
    };
  }
};
var ReferralSigningKey = class extends RecordModel {
  static {
    __name(this, "ReferralSigningKey");
  }
  static tableName = "referral_signing_keys";
  id;
  secret;
};

// server/modules/referralLinks/tokens.ts
import { createHmac as createHmac2, timingSafeEqual as timingSafeEqual5 } from "node:crypto";

// server/modules/referralLinks/queries.ts
import { randomBytes as randomBytes7 } from "node:crypto";
async function findLinkOrFail(id, trx) {
  const link = await ReferralLink.query(trx).findById(id).withGraphFetched("code");
  if (!link) throw NotFound("No such referral link.");
  return link;
}
__name(findLinkOrFail, "findLinkOrFail");
async function listLinks(filters) {
  const base = ReferralLink.query().modify((q) => {
    if (filters.partnerId) q.where("partner_id", filters.partnerId);
    if (filters.status) q.where("status", filters.status);
    if (filters.channel) q.where("channel", filters.channel);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().withGraphFetched("code").orderBy("created_at", "desc").orderBy("id", "desc").limit(filters.limit).offset(filters.offset);
  return { items, total };
}
__name(listLinks, "listLinks");
async function countClick(trx, linkId, now) {
  await trx.raw(
    `insert into referral_clicks (link_id, bucket, click_count) values (?, date_trunc('hour', ?::timestamptz), 1)
     on conflict (link_id, bucket) do update set click_count = referral_clicks.click_count + 1`,
    [linkId, now.toISOString()]
  );
}
__name(countClick, "countClick");
async function signingKey(knex) {
  const existing = await ReferralSigningKey.query(knex).findById(1).select("secret");
  if (existing) return Buffer.from(existing.secret);
  await knex.raw("insert into referral_signing_keys (id, secret) values (1, ?) on conflict (id) do nothing", [randomBytes7(32)]);
  const made = await ReferralSigningKey.query(knex).findById(1).select("secret");
  return Buffer.from(made.secret);
}
__name(signingKey, "signingKey");

// server/modules/referralLinks/tokens.ts
var ATTRIBUTION_TTL_DAYS = 30;
var mac = /* @__PURE__ */ __name((key, payload) => createHmac2("sha256", key).update(`referral-attribution\0${payload}`).digest(), "mac");
async function signAttribution(knex, a) {
  const payload = Buffer.from(JSON.stringify({ l: a.linkId, c: a.codeId, p: a.partnerId, x: Math.floor(a.expiresAt.getTime() / 1e3) })).toString("base64url");
  return `ra1.${payload}.${mac(await signingKey(knex), payload).toString("base64url")}`;
}
__name(signAttribution, "signAttribution");
async function verifyAttribution(knex, token2, now) {
  const [version, payload, signature] = token2.split(".");
  if (version !== "ra1" || !payload || !signature) return "invalid";
  const expected2 = mac(await signingKey(knex), payload);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected2.length || !timingSafeEqual5(given, expected2)) return "invalid";
  let body;
  try {
    body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return "invalid";
  }
  if (typeof body.l !== "string" || typeof body.p !== "string" || typeof body.x !== "number" || body.c !== null && typeof body.c !== "string") return "invalid";
  const expiresAt = new Date(body.x * 1e3);
  if (expiresAt <= now) return "expired";
  return { linkId: body.l, codeId: body.c, partnerId: body.p, expiresAt };
}
__name(verifyAttribution, "verifyAttribution");

// server/modules/referralLinks/attribution.ts
async function referralAdjustment(context) {
  const referral = context.input.referral;
  if (!referral) return null;
  const { trx } = context;
  let partnerId;
  let linkId = null;
  let codeId = null;
  if (referral.attributionToken) {
    const attribution = await verifyAttribution(trx, referral.attributionToken, context.now);
    if (attribution === "invalid") {
      throw Unprocessable("invalid_attribution_token", "The referral attribution token is not valid.", [
        { path: "body/referral/attributionToken", message: "is not a valid attribution token", code: "invalid_attribution_token" }
      ]);
    }
    if (attribution !== "expired") {
      partnerId = attribution.partnerId;
      linkId = attribution.linkId;
      codeId = attribution.codeId;
    }
  }
  if (!partnerId && referral.code) {
    const code2 = await ReferralCode.query(trx).findOne({ code: normalizeCode2(referral.code), status: "ACTIVE" }).select("id", "partner_id");
    if (code2) {
      partnerId = code2.partnerId;
      codeId = code2.id;
    }
  }
  if (!partnerId) return null;
  const partner = await ReferralPartner.query(trx).findOne({ id: partnerId, status: "ACTIVE" }).select("id", "public_slug");
  if (!partner) return null;
  const code = codeId ? await ReferralCode.query(trx).findOne({ id: codeId, partner_id: partnerId, status: "ACTIVE" }).select("id", "code", "guest_discount_percent") : void 0;
  const link = linkId ? await ReferralLink.query(trx).findOne({ id: linkId, partner_id: partnerId }).select("id", "slug") : void 0;
  const discountVnd = code ? Math.round(context.subtotalVnd * code.guestDiscountPercent / 100) : 0;
  return {
    kind: "referral",
    discountVnd,
    columns: {
      referralPartnerId: partner.id,
      referralCodeId: code?.id ?? null,
      referralLinkId: link?.id ?? null,
      referralCode: code?.code ?? referral.code ?? null,
      referralPartnerSlug: partner.publicSlug,
      referralLinkSlug: link?.slug ?? referral.linkSlug ?? null
    }
  };
}
__name(referralAdjustment, "referralAdjustment");
var priceAdjustment3 = { name: "referral", order: 30, adjust: referralAdjustment };

// server/modules/referralLinks/destinations.ts
var ROUTES = [/^\/$/, /^\/shows$/, /^\/shows\/[a-z0-9]+(-[a-z0-9]+)*$/, /^\/book\/[a-z0-9]+(-[a-z0-9]+)*$/, /^\/inquiries$/, /^\/waitlist$/, /^\/partners$/];
var InvalidDestination = /* @__PURE__ */ __name((detail) => Unprocessable("invalid_destination", detail, [{ path: "body/destination", message: detail, code: "invalid_destination" }]), "InvalidDestination");
function normalizeDestination(raw4, config) {
  let path15 = raw4.trim();
  if (!path15.startsWith("/")) {
    let url;
    try {
      url = new URL(path15);
    } catch {
      throw InvalidDestination("must be a public site path such as /shows, or a URL on the public site");
    }
    const site = new URL(config.publicSiteUrl);
    if (url.protocol !== site.protocol || url.host !== site.host || url.username || url.password) throw InvalidDestination("must be on the public site");
    if (url.search || url.hash) throw InvalidDestination("must not carry a query or fragment");
    path15 = url.pathname;
  } else if (path15.startsWith("//") || /[?#\\]/.test(path15)) {
    throw InvalidDestination("must be a plain site path");
  }
  if (path15.length > 1) path15 = path15.replace(/\/+$/, "");
  const segments = path15.split("/");
  const rest = segments.length > 1 && config.siteLocales.includes(segments[1]) ? `/${segments.slice(2).join("/")}` : path15;
  if (!ROUTES.some((route) => route.test(rest))) throw InvalidDestination("is not a public site route (/, /shows, /shows/{slug}, /book/{eventSlug}, /inquiries, /waitlist, /partners)");
  return path15;
}
__name(normalizeDestination, "normalizeDestination");
function absoluteDestination(path15, locale, config) {
  const first = path15.split("/")[1];
  const localized2 = config.siteLocales.includes(first) ? path15 : `/${locale}${path15 === "/" ? "" : path15}`;
  return `${config.publicSiteUrl}${localized2}`;
}
__name(absoluteDestination, "absoluteDestination");

// server/modules/referralLinks/commands/createReferralLink.ts
var SlugTaken2 = /* @__PURE__ */ __name(() => Conflict("slug_taken", "Another referral link has this slug."), "SlugTaken");
var SLUG_INDEX2 = "referral_links_slug_unique";
var CHANNEL_WORD = { QR_STICKER: "qr", INFLUENCER: "influencer", BAR: "bar", WEBSITE: "web", SOCIAL: "social" };
async function partnerCode(trx, partnerId, codeId) {
  if (!codeId) return null;
  const code = await ReferralCode.query(trx).findOne({ id: codeId, partner_id: partnerId, status: "ACTIVE" }).select("id");
  if (!code) throw Unprocessable("invalid_code", "Not one of the partner's active codes.", [{ path: "body/codeId", message: "is not an active code of the partner", code: "invalid_code" }]);
  return code.id;
}
__name(partnerCode, "partnerCode");
async function createReferralLink(app, input) {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const partner = await ReferralPartner.query(trx).findById(input.partnerId).select("id", "public_slug");
    if (!partner) throw Unprocessable("unknown_partner", "No such referral partner.", [{ path: "body/partnerId", message: "is not a partner", code: "unknown_partner" }]);
    const codeId = await partnerCode(trx, partner.id, input.codeId);
    const destination = normalizeDestination(input.destination ?? "/", app.config);
    const base = `${partner.publicSlug.slice(0, 45).replace(/-+$/, "")}-${CHANNEL_WORD[input.channel]}`;
    for (let attempt = 0; ; attempt++) {
      const slug = input.slug ?? (attempt === 0 ? base : `${base}-${attempt + 1}`);
      try {
        const link = await trx.transaction(
          async (attemptTrx) => ReferralLink.query(attemptTrx).insert({ slug, destination, channel: input.channel, label: input.label ?? null, partnerId: partner.id, codeId })
        );
        return findLinkOrFail(link.id, trx);
      } catch (err) {
        if (!isUniqueViolation2(err, SLUG_INDEX2)) throw err;
        if (input.slug !== void 0 || attempt >= 50) throw SlugTaken2();
      }
    }
  });
}
__name(createReferralLink, "createReferralLink");

// server/modules/referralLinks/commands/resolveReferralLink.ts
async function resolveReferralLink(app, ip, slug, requestedLocale, now = /* @__PURE__ */ new Date()) {
  await consumeOrThrow([[app.referralResolveLimit, addressKey(ip)]], "Too many link resolutions from this address; try again later.");
  const { siteLocales, defaultLocale, publicSiteUrl } = app.config;
  return inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const link = await ReferralLink.query(trx).findOne({ slug, status: "ACTIVE" });
      const partner = link && await ReferralPartner.query(trx).findOne({ id: link.partnerId, status: "ACTIVE" }).select("id", "public_slug");
      if (!link || !partner) throw NotFound("No such link.");
      const code = link.codeId ? await ReferralCode.query(trx).findOne({ id: link.codeId, status: "ACTIVE" }).select("id", "code") : void 0;
      await countClick(trx, link.id, now);
      const locale = requestedLocale && siteLocales.includes(requestedLocale) ? requestedLocale : defaultLocale;
      const expiresAt = new Date(now.getTime() + ATTRIBUTION_TTL_DAYS * 864e5);
      const token2 = await signAttribution(trx, { linkId: link.id, codeId: code?.id ?? null, partnerId: link.partnerId, expiresAt });
      return {
        destination: absoluteDestination(link.destination, locale, { publicSiteUrl, siteLocales }),
        attribution: { code: code?.code ?? null, linkSlug: link.slug, partnerSlug: partner.publicSlug, token: token2, expiresAt: expiresAt.toISOString() }
      };
    },
    now
  );
}
__name(resolveReferralLink, "resolveReferralLink");

// server/modules/referralLinks/commands/updateReferralLink.ts
async function updateReferralLink(app, id, input) {
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
      const link = await findLinkOrFail(id, trx);
      const patch = {};
      if (input.slug !== void 0) patch.slug = input.slug;
      if (input.destination !== void 0) patch.destination = normalizeDestination(input.destination, app.config);
      if (input.channel !== void 0) patch.channel = input.channel;
      if (input.label !== void 0) patch.label = input.label;
      if (input.status !== void 0) patch.status = input.status;
      await link.$query(trx).patch(patch);
      return findLinkOrFail(id, trx);
    });
  } catch (err) {
    if (isUniqueViolation2(err, SLUG_INDEX2)) throw SlugTaken2();
    throw err;
  }
}
__name(updateReferralLink, "updateReferralLink");

// server/modules/referralLinks/sticker.ts
var STICKER_MIN_PX = 64;
var STICKER_MAX_PX = 4096;
var SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
var InvalidPng = /* @__PURE__ */ __name((detail) => new Problem(400, "invalid_png", "Bad request", { detail, errors: [{ path: "body", message: detail, code: "invalid_png" }] }), "InvalidPng");
function pngDimensions(bytes2) {
  if (bytes2.length < 33 || !bytes2.subarray(0, 8).equals(SIGNATURE)) throw InvalidPng("is not a PNG (bad signature)");
  if (bytes2.readUInt32BE(8) !== 13 || bytes2.toString("latin1", 12, 16) !== "IHDR") throw InvalidPng("is not a PNG (no IHDR chunk first)");
  return { width: bytes2.readUInt32BE(16), height: bytes2.readUInt32BE(20) };
}
__name(pngDimensions, "pngDimensions");
async function linkQrSvg(app, linkId) {
  const link = await findLinkOrFail(linkId);
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(`${app.config.publicSiteUrl}/go/${link.slug}`, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
__name(linkQrSvg, "linkQrSvg");

// server/modules/referralLinks/commands/uploadReferralLinkSticker.ts
async function uploadReferralLinkSticker(app, linkId, bytes2, uploadedBy) {
  await findLinkOrFail(linkId);
  const { width, height } = pngDimensions(bytes2);
  for (const [side, px] of [["width", width], ["height", height]]) {
    if (px < STICKER_MIN_PX || px > STICKER_MAX_PX) {
      throw Unprocessable("sticker_dimensions", `A sticker is ${STICKER_MIN_PX} to ${STICKER_MAX_PX} pixels on each side.`, [
        { path: "body", message: `${side} ${px} px is outside ${STICKER_MIN_PX}\u2013${STICKER_MAX_PX}`, code: "sticker_dimensions" }
      ]);
    }
  }
  const blob = await uploadBlob(app.storage, { purpose: "sticker", contentType: "image/png", body: bytes2, originalFilename: null, uploadedByAccountId: uploadedBy, field: "body" });
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await ReferralLink.query(trx).findById(linkId).patch({ stickerBlobId: blob.id, stickerUrl: `${app.config.publicApiUrl}${assetUrl(blob.key)}` });
    return findLinkOrFail(linkId, trx);
  });
}
__name(uploadReferralLinkSticker, "uploadReferralLinkSticker");

// server/modules/referralLinks/presenters.ts
function presentLink(link, siteUrl) {
  return {
    id: link.id,
    slug: link.slug,
    url: `${siteUrl}/go/${link.slug}`,
    destination: link.destination,
    channel: link.channel,
    label: link.label,
    status: link.status,
    partnerId: link.partnerId,
    codeId: link.codeId,
    code: link.code?.code ?? null,
    stickerUrl: link.stickerUrl,
    createdAt: iso2(link.createdAt),
    updatedAt: iso2(link.updatedAt)
  };
}
__name(presentLink, "presentLink");

// server/modules/referralLinks/handlers.ts
var handlers33 = {
  async listReferralLinks(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listLinks({ partnerId: call.query.partnerId, status: call.query.status, channel: call.query.channel, limit, offset });
    return json(200, { items: page.items.map((link) => presentLink(link, call.app.config.publicSiteUrl)), total: page.total, limit, offset });
  },
  async createReferralLink(call) {
    return json(201, presentLink(await createReferralLink(call.app, call.body), call.app.config.publicSiteUrl));
  },
  async updateReferralLink(call) {
    return json(200, presentLink(await updateReferralLink(call.app, call.params.linkId, call.body), call.app.config.publicSiteUrl));
  },
  async resolveReferralLink(call) {
    const answer2 = await resolveReferralLink(call.app, call.ip, call.params.slug, call.body?.locale);
    return json(200, answer2, { "Cache-Control": "no-store" });
  },
  async uploadReferralLinkSticker(call) {
    const file = call.file("file");
    const body = file ? Buffer.from(file.bytes) : call.rawBody;
    const uploader = call.auth.authSource === "session" ? call.auth.identity.accountId ?? null : null;
    const link = await uploadReferralLinkSticker(call.app, call.params.linkId, body ?? Buffer.alloc(0), uploader);
    return json(200, presentLink(link, call.app.config.publicSiteUrl));
  },
  async getReferralLinkQr(call) {
    const svg = await linkQrSvg(call.app, call.params.linkId);
    return bytes(Buffer.from(svg, "utf8"), "image/svg+xml", { headers: { "Cache-Control": "private, no-cache" } });
  }
};

// server/modules/referralLinks/limits.ts
function referralLinksServices(platform) {
  return { referralResolveLimit: new RateLimit({ name: "referral-resolve-address", points: 60, windowSeconds: 60 }, rateLimitStoreFor(platform.db)) };
}
__name(referralLinksServices, "referralLinksServices");

// server/modules/referralLinks/publicPolicy.ts
var policy16 = [{ path: "/api/referral-links/resolve/{slug}", match: "exact", methods: ["POST"], level: "public" }];

// server/modules/referralLinks/index.ts
function record33() {
  return { tag: "referralLinks", handlers: handlers33, policy: policy16, priceAdjustments: [priceAdjustment3], services: referralLinksServices };
}
__name(record33, "record");

// server/modules/referralCommissions/commands/createReferralPayouts.ts
import { createHash as createHash15, randomInt as randomInt4 } from "node:crypto";

// server/modules/referralCommissions/models.ts
var ReferralCommission = class extends RecordModel {
  static {
    __name(this, "ReferralCommission");
  }
  static tableName = "referral_commissions";
  id;
  partnerId;
  codeId;
  linkId;
  reservationId;
  paymentId;
  baseVnd;
  amountVnd;
  status;
  payoutId;
  voidReason;
  statusChangedAt;
  createdAt;
};
var ReferralPayout = class extends RecordModel {
  static {
    __name(this, "ReferralPayout");
  }
  static tableName = "referral_payouts";
  id;
  reference;
  partnerId;
  totalVnd;
  commissionCount;
  note;
  createdBy;
  createdAt;
};

// server/modules/referralCommissions/queries.ts
var commissionQuery = /* @__PURE__ */ __name((knex) => ReferralCommission.query(knex).alias("m").join("reservations as r", "r.id", "m.reservation_id").leftJoin("referral_codes as c", "c.id", "m.code_id").select("m.*", "r.reference as reservation_reference", "c.code").castTo(), "commissionQuery");
async function findCommissionOrFail(id) {
  const commission = await commissionQuery().where("m.id", id).first();
  if (!commission) throw NotFound("No such commission.");
  return commission;
}
__name(findCommissionOrFail, "findCommissionOrFail");
async function listCommissions(f) {
  const filter = /* @__PURE__ */ __name((q) => {
    if (f.partnerId) q.where("m.partner_id", f.partnerId);
    if (f.status) q.where("m.status", f.status);
    if (f.from) q.where("m.created_at", ">=", new Date(f.from));
    if (f.to) q.where("m.created_at", "<", new Date(f.to));
  }, "filter");
  const total = await ReferralCommission.query().alias("m").modify(filter).resultSize();
  const items = await commissionQuery().modify(filter).orderBy("m.created_at", "desc").orderBy("m.id", "desc").limit(f.limit).offset(f.offset);
  return { items, total };
}
__name(listCommissions, "listCommissions");
async function findPayoutOrFail(id, knex) {
  const payout = await ReferralPayout.query(knex).findById(id);
  if (!payout) throw NotFound("No such payout batch.");
  const commissions = await ReferralCommission.query(knex).where("payout_id", id).orderBy(["created_at", "id"]).select("id");
  return Object.assign(payout, { commissionIds: commissions.map((c) => c.id) });
}
__name(findPayoutOrFail, "findPayoutOrFail");
async function payoutsByIds(ids, knex) {
  const payouts = [];
  for (const id of ids) payouts.push(await findPayoutOrFail(id, knex));
  return payouts;
}
__name(payoutsByIds, "payoutsByIds");
async function listPayouts(f) {
  const base = ReferralPayout.query().modify((q) => {
    if (f.partnerId) q.where("partner_id", f.partnerId);
  });
  const total = await base.clone().resultSize();
  const rows2 = await base.clone().orderBy("created_at", "desc").orderBy("id", "desc").limit(f.limit).offset(f.offset).select("id");
  return { items: await payoutsByIds(rows2.map((r) => r.id)), total };
}
__name(listPayouts, "listPayouts");
async function attributedReservation(trx, reservationId) {
  const r = await trx("reservations as r").join("referral_partners as p", "p.id", "r.referral_partner_id").leftJoin("referral_codes as c", "c.id", "r.referral_code_id").where("r.id", reservationId).first("r.subtotal_vnd", "r.discount_vnd", "r.guest_count", "r.referral_partner_id", "r.referral_code_id", "r.referral_link_id", "p.commission_kind", "p.commission_value", "c.commission_kind as code_kind", "c.commission_value as code_value");
  if (!r) return void 0;
  return {
    subtotalVnd: r.subtotal_vnd,
    discountVnd: r.discount_vnd,
    guestCount: r.guest_count,
    partnerId: r.referral_partner_id,
    codeId: r.referral_code_id,
    linkId: r.referral_link_id,
    partnerRule: { kind: r.commission_kind, value: r.commission_value },
    codeRule: r.code_kind && r.code_value !== null ? { kind: r.code_kind, value: r.code_value } : null
  };
}
__name(attributedReservation, "attributedReservation");
async function insertCommissionOnce(trx, c) {
  await trx.raw(
    `insert into referral_commissions (partner_id, code_id, link_id, reservation_id, payment_id, base_vnd, amount_vnd, status, status_changed_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?) on conflict (reservation_id) do nothing`,
    [c.partnerId, c.codeId, c.linkId, c.reservationId, c.paymentId, c.baseVnd, c.amountVnd, c.now, c.now]
  );
}
__name(insertCommissionOnce, "insertCommissionOnce");
async function partnersToPay(trx, partnerId) {
  const rows2 = await trx("referral_commissions").where({ status: "APPROVED" }).whereNull("payout_id").modify((q) => {
    if (partnerId) q.where("partner_id", partnerId);
  }).distinct("partner_id").orderBy("partner_id");
  return rows2.map((r) => r.partner_id);
}
__name(partnersToPay, "partnersToPay");
async function claimApproved(trx, partnerId, payoutId, now) {
  const claimed = await trx("referral_commissions").where({ partner_id: partnerId, status: "APPROVED" }).whereNull("payout_id").update({ status: "PAID", payout_id: payoutId, status_changed_at: now }).returning("amount_vnd");
  return claimed.map((c) => c.amount_vnd);
}
__name(claimApproved, "claimApproved");

// server/modules/referralCommissions/commands/createReferralPayouts.ts
var PAYOUT_ROUTE = "POST /api/referral-commissions/payouts";
var ALPHABET2 = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
function newPayoutReference(now) {
  let code = "";
  for (let i = 0; i < 6; i++) code += ALPHABET2[randomInt4(ALPHABET2.length)];
  return `RP-${now.toISOString().slice(0, 10).replace(/-/g, "")}-${code}`;
}
__name(newPayoutReference, "newPayoutReference");
var requestHash3 = /* @__PURE__ */ __name((body) => createHash15("sha256").update(JSON.stringify([body.partnerId ?? null, body.note ?? null])).digest(), "requestHash");
async function remembered2(app, key, hash2, now) {
  const answer2 = await rememberedAnswer(app.db.knex, PAYOUT_ROUTE, key, hash2, now);
  return answer2 ? payoutsByIds(JSON.parse(answer2.body)) : void 0;
}
__name(remembered2, "remembered");
async function createReferralPayouts(app, body, createdBy, idempotencyKey, now = /* @__PURE__ */ new Date()) {
  const hash2 = requestHash3(body);
  if (idempotencyKey) {
    const before = await remembered2(app, idempotencyKey, hash2, now);
    if (before) return { payouts: before, replayed: true };
  }
  const ids = await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      if (idempotencyKey) {
        await lockIdempotencyKey(trx, PAYOUT_ROUTE, idempotencyKey);
        const raced = await IdempotencyKey.query(trx).findOne({ route: PAYOUT_ROUTE, key_hash: digest3(idempotencyKey) }).select("response_body", "request_hash");
        if (raced) return { replay: true };
      }
      const made = [];
      for (const partnerId of await partnersToPay(trx, body.partnerId)) {
        const payout = await ReferralPayout.query(trx).insert({
          reference: newPayoutReference(now),
          partnerId,
          totalVnd: 0,
          commissionCount: 0,
          note: body.note ?? null,
          createdBy,
          createdAt: now
        });
        const claimed = await claimApproved(trx, partnerId, payout.id, now);
        if (claimed.length === 0) {
          await ReferralPayout.query(trx).deleteById(payout.id);
          continue;
        }
        await ReferralPayout.query(trx).findById(payout.id).patch({ totalVnd: claimed.reduce((sum, amount) => sum + amount, 0), commissionCount: claimed.length });
        made.push(payout.id);
      }
      if (made.length === 0) throw Conflict("nothing_to_pay", "No approved commission is waiting for a payout.");
      if (idempotencyKey) {
        await rememberAnswer(trx, PAYOUT_ROUTE, idempotencyKey, hash2, 201, JSON.stringify(made), now);
      }
      return { ids: made };
    },
    now
  );
  if ("replay" in ids) {
    const again = await remembered2(app, idempotencyKey, hash2, now);
    return { payouts: again ?? [], replayed: true };
  }
  return { payouts: await payoutsByIds(ids.ids), replayed: false };
}
__name(createReferralPayouts, "createReferralPayouts");

// server/modules/referralCommissions/commands/updateReferralCommissionStatus.ts
var ADMIN_MOVES = { PENDING: ["APPROVED", "VOID"], APPROVED: ["PENDING", "VOID"], PAID: [], VOID: [] };
async function updateReferralCommissionStatus(app, id, to, reason, now = /* @__PURE__ */ new Date()) {
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const row = await ReferralCommission.query(trx).findById(id).forUpdate().select("status");
      if (!row) throw NotFound("No such commission.");
      if (row.status === to) return;
      if (!ADMIN_MOVES[row.status].includes(to)) throw Conflict("illegal_transition", `A ${row.status} commission cannot become ${to}.`);
      await ReferralCommission.query(trx).findById(id).patch({ status: to, statusChangedAt: now, voidReason: to === "VOID" ? reason ?? "voided by an admin" : null });
    },
    now
  );
  return findCommissionOrFail(id);
}
__name(updateReferralCommissionStatus, "updateReferralCommissionStatus");

// server/modules/referralCommissions/presenters.ts
function presentCommission(commission) {
  return {
    id: commission.id,
    partnerId: commission.partnerId,
    codeId: commission.codeId,
    code: commission.code ?? null,
    linkId: commission.linkId,
    reservationId: commission.reservationId,
    reservationReference: commission.reservationReference,
    baseVnd: commission.baseVnd,
    amountVnd: commission.amountVnd,
    status: commission.status,
    payoutId: commission.payoutId,
    voidReason: commission.voidReason,
    statusChangedAt: iso2(commission.statusChangedAt),
    createdAt: iso2(commission.createdAt)
  };
}
__name(presentCommission, "presentCommission");
function presentPayout(payout) {
  return {
    id: payout.id,
    reference: payout.reference,
    partnerId: payout.partnerId,
    totalVnd: payout.totalVnd,
    commissionCount: payout.commissionCount,
    commissionIds: payout.commissionIds,
    note: payout.note,
    createdBy: payout.createdBy,
    createdAt: iso2(payout.createdAt)
  };
}
__name(presentPayout, "presentPayout");

// server/modules/referralCommissions/handlers.ts
var handlers34 = {
  async listReferralCommissions(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listCommissions({ partnerId: query.partnerId, status: query.status, from: query.from, to: query.to, limit, offset });
    return json(200, { items: page.items.map(presentCommission), total: page.total, limit, offset });
  },
  async updateReferralCommissionStatus(call) {
    return json(200, presentCommission(await updateReferralCommissionStatus(call.app, call.params.commissionId, call.body.status, call.body.reason)));
  },
  async createReferralPayouts(call) {
    const key = call.header("idempotency-key") || void 0;
    const identity = call.auth.identity;
    const createdBy = identity.accountId ?? (identity.apiKeyId ? `api-key:${identity.apiKeyId}` : "superuser-token");
    const answer2 = await createReferralPayouts(call.app, call.body ?? {}, createdBy, key);
    return json(201, { items: answer2.payouts.map(presentPayout) }, answer2.replayed ? { "Idempotent-Replayed": "true" } : {});
  },
  async listReferralPayouts(call) {
    const limit = call.query.limit ?? 20;
    const offset = call.query.offset ?? 0;
    const page = await listPayouts({ partnerId: call.query.partnerId, limit, offset });
    return json(200, { items: page.items.map(presentPayout), total: page.total, limit, offset });
  },
  async getReferralPayout(call) {
    return json(200, presentPayout(await findPayoutOrFail(call.params.payoutId)));
  }
};

// server/modules/referralCommissions/commands/earnCommission.ts
function commissionAmount(rule, baseVnd, guests) {
  return rule.kind === "FIXED_PER_GUEST" ? rule.value * guests : Math.round(baseVnd * rule.value / 100);
}
__name(commissionAmount, "commissionAmount");
async function earnCommission(trx, reservationId, paymentId, now) {
  const r = await attributedReservation(trx, reservationId);
  if (!r) return;
  const rule = r.codeRule ?? r.partnerRule;
  const baseVnd = Math.max(0, r.subtotalVnd - r.discountVnd);
  await insertCommissionOnce(trx, {
    partnerId: r.partnerId,
    codeId: r.codeId,
    linkId: r.linkId,
    reservationId,
    paymentId,
    baseVnd,
    amountVnd: commissionAmount(rule, baseVnd, r.guestCount),
    now
  });
}
__name(earnCommission, "earnCommission");

// server/modules/referralCommissions/commands/voidCommission.ts
async function voidCommission(trx, reservationId, reason, now) {
  await ReferralCommission.query(trx).where("reservation_id", reservationId).whereIn("status", ["PENDING", "APPROVED"]).patch({ status: "VOID", voidReason: reason, statusChangedAt: now });
}
__name(voidCommission, "voidCommission");

// server/modules/referralCommissions/subscribers.ts
var subscribers5 = [
  subscriber({
    name: "referrals.earn-commission",
    event: "payment.captured",
    phase: "in-transaction",
    order: 20,
    handle: /* @__PURE__ */ __name(({ reservationId, paymentId }, ctx) => earnCommission(ctx.trx, reservationId, paymentId, ctx.now), "handle")
  }),
  subscriber({
    name: "referrals.void-on-refund",
    event: "payment.refunded",
    phase: "in-transaction",
    order: 10,
    handle: /* @__PURE__ */ __name(({ reservationId }, ctx) => voidCommission(ctx.trx, reservationId, "refunded", ctx.now), "handle")
  }),
  subscriber({
    name: "referrals.void-on-cancel",
    event: "reservation.cancelled",
    phase: "in-transaction",
    order: 50,
    handle: /* @__PURE__ */ __name(({ reservationId }, ctx) => voidCommission(ctx.trx, reservationId, "cancelled", ctx.now), "handle")
  })
];

// server/modules/referralCommissions/index.ts
function record34() {
  return { tag: "referralCommissions", handlers: handlers34, subscribers: subscribers5 };
}
__name(record34, "record");

// server/assistant/address.ts
var learned = /* @__PURE__ */ new WeakMap();
function noteOwnAddress(app, baseUrl) {
  learned.set(app, baseUrl.replace(/\/+$/, ""));
}
__name(noteOwnAddress, "noteOwnAddress");
function socketBaseUrl(address, port) {
  if (!address || !port) return void 0;
  const bare = address.startsWith("::ffff:") ? address.slice(7) : address;
  const host = bare === "0.0.0.0" || bare === "::" ? "127.0.0.1" : bare.includes(":") ? `[${bare}]` : bare;
  return `http://${host}:${port}`;
}
__name(socketBaseUrl, "socketBaseUrl");
function assistantApiBaseUrl(app, config) {
  if (config.assistantApiBaseUrl) return config.assistantApiBaseUrl;
  const known = learned.get(app);
  if (known) return known;
  const host = config.host === "0.0.0.0" || config.host === "::" || config.host === "" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}
__name(assistantApiBaseUrl, "assistantApiBaseUrl");

// server/assistant/index.ts
var AssistantEngine = class {
  static {
    __name(this, "AssistantEngine");
  }
  agent;
  override;
  /** The agent being made (concurrent first turns wait for the same one). */
  making;
};
var engineOf = /* @__PURE__ */ __name((app) => app.assistantEngine ??= new AssistantEngine(), "engineOf");
async function assistantFor(app) {
  return engineOf(app).override ?? agentFor(app);
}
__name(assistantFor, "assistantFor");
async function agentFor(app) {
  const engine = engineOf(app);
  if (engine.agent) return engine.agent;
  engine.making ??= import("./agent-QYDFQCAN.js").then(
    ({ createAgent }) => engine.agent ??= createAgent({ config: app.config, logger: app.logger, analytics: app.analytics, baseUrl: /* @__PURE__ */ __name(() => assistantApiBaseUrl(app, app.config), "baseUrl") })
  );
  return engine.making;
}
__name(agentFor, "agentFor");

// server/modules/assistant/service.ts
function assistantServices(platform) {
  const { config, db } = platform;
  return {
    assistantEngine: new AssistantEngine(),
    assistantTurnLimit: new RateLimit({ name: "assistant-turn-address", points: config.llmChatRateLimitPerMinute, windowSeconds: 60 }, rateLimitStoreFor(db))
  };
}
__name(assistantServices, "assistantServices");
async function throttleTurn(call) {
  await consumeOrThrow([[call.app.assistantTurnLimit, addressKey(call.ip)]], "Too many questions from this address; try again in a minute.");
}
__name(throttleTurn, "throttleTurn");
function noteAddressOf(call) {
  const socket = call.koa.req.socket;
  const url = socketBaseUrl(socket.localAddress, socket.localPort);
  if (url) noteOwnAddress(call.app, url);
}
__name(noteAddressOf, "noteAddressOf");
function abortOnDisconnect(call) {
  const controller = new AbortController();
  const { res } = call.koa;
  res.once("close", () => {
    if (!res.writableFinished) controller.abort(new DOMException("The client disconnected.", "AbortError"));
  });
  return controller.signal;
}
__name(abortOnDisconnect, "abortOnDisconnect");
async function conversationOf(messages) {
  const hasTools = messages.some((message) => message.role === "assistant" && message.parts.some((part) => part.type.startsWith("tool-")));
  const inputs = hasTools ? (await import("./tools-KKTCKS2C.js")).TOOL_INPUTS : void 0;
  return messages.flatMap((message) => {
    if (message.role !== "user" && message.role !== "assistant") return [];
    const text = message.parts.filter((part) => part.type === "text" && typeof part.text === "string").map((part) => part.text).join("\n").trim();
    const tools = message.role === "assistant" && inputs ? message.parts.flatMap((part) => toolInputOf(inputs, part)) : [];
    if (!text && !tools.length) return [];
    return [{ role: message.role, text, ...tools.length ? { tools } : {} }];
  });
}
__name(conversationOf, "conversationOf");
function toolInputOf(inputs, part) {
  if (!part.type.startsWith("tool-")) return [];
  const toolName = part.type.slice(5);
  const schema = Object.hasOwn(inputs, toolName) ? inputs[toolName] : void 0;
  if (!schema) return [];
  const parsed = schema.safeParse(part.input);
  return parsed.success ? [{ toolName, input: parsed.data }] : [];
}
__name(toolInputOf, "toolInputOf");
function turnLocale(app, locale) {
  return locale ?? app.config.defaultLocale;
}
__name(turnLocale, "turnLocale");
function endsWithQuestion(messages) {
  return messages.at(-1)?.role === "user";
}
__name(endsWithQuestion, "endsWithQuestion");
function traceIdOf(call) {
  return call.requestId;
}
__name(traceIdOf, "traceIdOf");
async function sse(stream2) {
  const { JsonToSseTransformStream } = await import("ai");
  return stream2.pipeThrough(new JsonToSseTransformStream()).pipeThrough(new TextEncoderStream());
}
__name(sse, "sse");

// server/modules/assistant/handlers.ts
var LEGACY_DEPRECATED_AT = Date.UTC(2026, 10, 1) / 1e3;
var NoQuestion = /* @__PURE__ */ __name(() => Unprocessable("no_question", "The conversation must end with a message of the guest holding text.", [
  { path: "body/messages", message: "the last message must be a user message with text", code: "no_question" }
]), "NoQuestion");
var handlers35 = {
  async chatWithAssistant(call) {
    await throttleTurn(call);
    const messages = await conversationOf(call.body.messages);
    if (!endsWithQuestion(messages)) throw NoQuestion();
    noteAddressOf(call);
    const turn = { messages, locale: turnLocale(call.app, call.body.locale), channel: "web", abortSignal: abortOnDisconnect(call), traceId: traceIdOf(call) };
    const headers = { "x-vercel-ai-ui-message-stream": "v1" };
    if (!call.header("origin")) headers["Access-Control-Allow-Origin"] = "*";
    const agent = await agentFor(call.app);
    return stream(await sse(agent.streamUi(turn)), "text/event-stream", { headers });
  },
  async askAssistantDemo(call) {
    const prompt = call.body.prompt.trim();
    if (!prompt) {
      throw Unprocessable("no_question", "The prompt holds no text.", [{ path: "body/prompt", message: "must hold text other than white space", code: "no_question" }]);
    }
    await throttleTurn(call);
    noteAddressOf(call);
    const history2 = (call.body.history ?? []).flatMap((message) => message.text.trim() ? [{ role: message.role, text: message.text.trim() }] : []);
    const messages = [...history2, { role: "user", text: prompt }];
    const reply = await (await assistantFor(call.app)).reply({ messages, locale: turnLocale(call.app, call.body.locale), channel: "demo", traceId: traceIdOf(call) });
    return json(200, { text: reply.text, links: reply.links, invalidLinks: reply.audit.invalid });
  },
  async streamLegacyCustomerSupport(call) {
    await throttleTurn(call);
    const messages = call.body.messages.flatMap(
      (message) => message.role === "system" || !message.content.trim() ? [] : [{ role: message.role, text: message.content.trim() }]
    );
    if (!endsWithQuestion(messages)) throw NoQuestion();
    noteAddressOf(call);
    const turn = { messages, locale: turnLocale(call.app, call.body.locale), channel: "web", abortSignal: abortOnDisconnect(call), traceId: traceIdOf(call) };
    const text = (await agentFor(call.app)).streamPlainText(turn).pipeThrough(new TextEncoderStream());
    return stream(text, "text/plain; charset=utf-8", {
      headers: { Deprecation: `@${LEGACY_DEPRECATED_AT}`, Link: '</llm/chat>; rel="successor-version"', "Cache-Control": "no-cache" }
    });
  },
  // `/api/agentruntime/*` is declared `disabled` (spec §4.1): never mounted, so the router answers 404 before
  // any handler runs. These keep the contract's operation map complete and would answer the same 404.
  getAgentRuntime() {
    throw NotFound();
  },
  postAgentRuntime() {
    throw NotFound();
  }
};

// server/modules/assistant/publicPolicy.ts
var policy17 = [
  { path: "/llm/chat", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/ai/demo", match: "exact", methods: ["POST"], level: "public" },
  { path: "/api/ai/customer-support", match: "exact", methods: ["POST"], level: "public" }
];

// server/modules/assistant/index.ts
function record35() {
  return { tag: "assistant", handlers: handlers35, policy: policy17, services: assistantServices };
}
__name(record35, "record");

// server/modules/chatPlatform/commands/receiveChatPlatformMessage.ts
import { randomUUID as randomUUID10 } from "node:crypto";

// server/platform/integrations/httpJson.ts
var OutboundError = class extends Error {
  static {
    __name(this, "OutboundError");
  }
  kind;
  delivery;
  status;
  constructor(kind, message, delivery, status, cause) {
    super(message, cause === void 0 ? void 0 : { cause });
    this.name = "OutboundError";
    this.kind = kind;
    this.delivery = delivery;
    this.status = status;
  }
};
var NOT_SENT = /* @__PURE__ */ new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
async function postJson(url, body, options) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...options.headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs)
    });
  } catch (err) {
    const name = err?.name;
    if (name === "TimeoutError" || name === "AbortError") {
      throw new OutboundError("timeout", `no answer within ${options.timeoutMs} ms`, "unknown", void 0, err);
    }
    const code = err?.cause?.code ?? "";
    throw new OutboundError("network", `request failed${code ? ` (${code})` : ""}`, NOT_SENT.has(code) ? "not_delivered" : "unknown", void 0, err);
  }
  let text;
  try {
    text = await response.text();
  } catch (err) {
    throw new OutboundError("network", "the answer could not be read", "unknown", response.status, err);
  }
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : void 0;
  } catch {
    parsed = void 0;
  }
  return { status: response.status, body: parsed, text };
}
__name(postJson, "postJson");

// server/platform/integrations/manychat.ts
var CONTENT_TYPE2 = { instagram: "instagram", whatsapp: "whatsapp", telegram: "telegram" };
var MAX_TEXT_LENGTH = 2e3;
var MAX_MESSAGES = 10;
function dynamicBlock(channel, text) {
  const type = CONTENT_TYPE2[channel];
  const messages = splitText(text, MAX_TEXT_LENGTH).slice(0, MAX_MESSAGES).map((part) => ({ type: "text", text: part }));
  return { version: "v2", content: { ...type ? { type } : {}, messages } };
}
__name(dynamicBlock, "dynamicBlock");
function splitText(text, max) {
  const parts = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window2 = rest.slice(0, max);
    let cut = window2.lastIndexOf("\n\n");
    if (cut < max / 2) cut = window2.lastIndexOf("\n");
    if (cut < max / 2) cut = window2.lastIndexOf(" ");
    if (cut < max / 2) cut = max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts.length ? parts : [""];
}
__name(splitText, "splitText");
var ManyChatError = class extends Error {
  static {
    __name(this, "ManyChatError");
  }
  code;
  /** HTTP status of ManyChat's answer. */
  status;
  /** ManyChat's own error code (`code` of its error body), when it sent one. */
  apiCode;
  delivery;
  /** True when a retry may help and cannot send twice (ManyChat certainly did not send; 429 or 5xx or no connection). */
  retryable;
  constructor(code, message, extra) {
    super(message, extra.cause === void 0 ? void 0 : { cause: extra.cause });
    this.name = "ManyChatError";
    this.code = code;
    this.status = extra.status;
    this.apiCode = extra.apiCode;
    this.delivery = extra.delivery;
    this.retryable = extra.retryable;
  }
};
function createManyChatClient(options) {
  const base = options.baseUrl.replace(/\/+$/, "");
  return {
    isConfigured: Boolean(options.token),
    async sendContent(subscriberId2, data) {
      if (!options.token) {
        throw new ManyChatError("not_configured", "CHAT_API_TOKEN is unset", { delivery: "not_delivered", retryable: false });
      }
      if (!/^\d{1,20}$/.test(subscriberId2)) {
        throw new ManyChatError("bad_response", "the subscriber id is not numeric", { delivery: "not_delivered", retryable: false });
      }
      let result;
      try {
        result = await postJson(
          `${base}/fb/sending/sendContent`,
          // ManyChat takes the id as a number (a string past 2^53, which no id reaches today).
          { subscriber_id: Number.isSafeInteger(Number(subscriberId2)) ? Number(subscriberId2) : subscriberId2, data },
          { headers: { authorization: `Bearer ${options.token}` }, timeoutMs: options.timeoutMs }
        );
      } catch (err) {
        const e = err;
        throw new ManyChatError(e.kind === "timeout" ? "timeout" : "network", e.message, { delivery: e.delivery, retryable: e.delivery === "not_delivered", cause: err });
      }
      const body = result.body;
      if (result.status >= 200 && result.status < 300 && body?.status === "success") return;
      const retryable = result.status === 429 || result.status >= 500;
      const apiCode = body?.code;
      const message = body?.message ?? (result.text.slice(0, 200) || `HTTP ${result.status}`);
      if (result.status >= 200 && result.status < 300 && body?.status !== "error") {
        throw new ManyChatError("bad_response", `unexpected answer: ${message}`, { status: result.status, delivery: "unknown", retryable: false });
      }
      throw new ManyChatError(body?.status === "error" ? "api_error" : "http_status", message, {
        status: result.status,
        apiCode,
        delivery: "not_delivered",
        retryable
      });
    }
  };
}
__name(createManyChatClient, "createManyChatClient");

// server/modules/chatPlatform/service.ts
var TEXT_FIELDS2 = ["last_input_text", "text", "message", "query"];
var ID_FIELDS = ["subscriber_id", "id", "user_id"];
function messageText(body) {
  const candidates = [...TEXT_FIELDS2.map((field) => body[field]), body.contact?.last_input_text];
  for (const value of candidates) if (typeof value === "string" && value.trim()) return value.trim();
  return void 0;
}
__name(messageText, "messageText");
var numericId = /* @__PURE__ */ __name((value) => {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^\d{1,20}$/.test(value.trim()) && !/^0+$/.test(value.trim())) return value.trim();
  return void 0;
}, "numericId");
function subscriberId(body) {
  const candidates = [...ID_FIELDS.map((field) => body[field]), body.contact?.id, body.contact?.user_id];
  for (const value of candidates) {
    const id = numericId(value);
    if (id) return id;
  }
  return void 0;
}
__name(subscriberId, "subscriberId");
function guestLocale2(body, siteLocales) {
  const names2 = { english: "en", vietnamese: "vi", "ti\u1EBFng vi\u1EC7t": "vi" };
  const candidates = [body.locale, body.language, body.contact?.locale, body.contact?.language];
  for (const value of candidates) {
    if (typeof value !== "string" || !value.trim()) continue;
    const raw4 = value.trim().toLowerCase();
    const tag = names2[raw4] ?? raw4.split(/[-_]/)[0];
    if (siteLocales.includes(tag)) return tag;
  }
  return siteLocales[0];
}
__name(guestLocale2, "guestLocale");
var ACKNOWLEDGEMENTS = {
  en: "Thanks for your message! Give me a moment while I look that up for you.",
  vi: "C\u1EA3m \u01A1n b\u1EA1n \u0111\xE3 nh\u1EAFn tin! Vui l\xF2ng ch\u1EDD trong gi\xE2y l\xE1t, m\xECnh \u0111ang t\xECm th\xF4ng tin cho b\u1EA1n."
};
var acknowledgement = /* @__PURE__ */ __name((locale) => ACKNOWLEDGEMENTS[locale] ?? ACKNOWLEDGEMENTS.en, "acknowledgement");
function chatPlatformServices(platform) {
  return { manyChat: createManyChatClient(platform.config.chatApi) };
}
__name(chatPlatformServices, "chatPlatformServices");
function manyChatFor(app) {
  return app.manyChat;
}
__name(manyChatFor, "manyChatFor");
function manyChatChannel(client) {
  return {
    send: /* @__PURE__ */ __name((turn, text) => client.sendContent(turn.recipient, dynamicBlock(turn.channel, text)), "send"),
    typing: /* @__PURE__ */ __name(() => void 0, "typing"),
    describe(err) {
      if (err instanceof ManyChatError) {
        return {
          code: `manychat_${err.code}`,
          detail: err.message,
          retryable: err.retryable,
          fields: { manychatCode: err.apiCode, httpStatus: err.status, delivery: err.delivery }
        };
      }
      return { code: "send_error", detail: err?.message ?? "send failed", retryable: false, fields: {} };
    }
  };
}
__name(manyChatChannel, "manyChatChannel");

// server/modules/chatPlatform/commands/runTurn.ts
import { raw as raw3 } from "objection";

// server/modules/chatPlatform/models.ts
var ChatTurn = class extends BaseModel {
  static {
    __name(this, "ChatTurn");
  }
  static tableName = "chat_turns";
  source;
  channel;
  recipient;
  externalMessageId;
  locale;
  status;
  guestText;
  replyText;
  attempts;
  invalidLinks;
  errorCode;
  errorDetail;
  receivedAt;
  generationStartedAt;
  generatedAt;
  sendStartedAt;
  sentAt;
  finishedAt;
};

// server/modules/chatPlatform/turns.ts
var RetryTurn = class extends Error {
  static {
    __name(this, "RetryTurn");
  }
  constructor(message, options) {
    super(message, options);
    this.name = "RetryTurn";
  }
};
var TERMINAL = ["SENT", "FAILED"];
function secretsOf(app) {
  const c = app.config;
  return [
    c.chatApi.token,
    c.messaging.accessToken,
    c.messaging.appSecret,
    ...Object.values(c.accessTokens),
    ...c.superuserApiTokens,
    c.vnpayHashSecret,
    c.posthogApiKey
  ].filter((s) => typeof s === "string" && s.length >= 8);
}
__name(secretsOf, "secretsOf");
function redactSecrets2(text, secrets2) {
  let out = text;
  for (const secret of secrets2) out = out.split(secret).join("[redacted]");
  return out;
}
__name(redactSecrets2, "redactSecrets");
function routeDataFetcher(app, log) {
  const venueData = createVenueData({ baseUrl: /* @__PURE__ */ __name(() => assistantApiBaseUrl(app, app.config), "baseUrl"), timeoutMs: app.config.assistantApiTimeoutMs });
  return async (locale) => {
    try {
      return readRoutes(await venueData.routes(locale)).all;
    } catch (err) {
      log.warn({ err: err.message }, "route data unavailable for the link repair: the answer\u2019s own links only");
      return [];
    }
  };
}
__name(routeDataFetcher, "routeDataFetcher");
function plainText(text) {
  return text.replace(/\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?\s*\)/g, (_, label, url) => label.trim() === url ? url : `${label.trim()}: ${url}`).replace(/\*\*([^*\n]+)\*\*/g, "$1").replace(/__([^_\n]+)__/g, "$1").replace(/^[ \t]*[-*][ \t]+/gm, "\u2022 ");
}
__name(plainText, "plainText");
async function polishAnswer(app, log, reply, locale, routes = routeDataFetcher(app, log)) {
  let answer2 = reply.text;
  const invalid2 = reply.audit.invalid;
  if (invalid2.length) {
    const replacements = { ...reply.audit.replacements };
    const unplaced = invalid2.filter((link) => !replacements[link]);
    if (unplaced.length) {
      const all2 = [.../* @__PURE__ */ new Set([...await routes(locale), ...reply.links])];
      const facts = { named: {}, showUrls: {}, bookingUrls: {}, all: all2 };
      for (const link of unplaced) {
        const closest = closestRoute(link, facts);
        if (closest) replacements[link] = closest;
      }
    }
    answer2 = repairLinks(answer2, { replacements });
    log.warn({ invalid: invalid2, replacements }, "[link-audit] invalid internal links replaced by the closest valid route in a chat answer");
  }
  return redactSecrets2(plainText(answer2), secretsOf(app)).trim();
}
__name(polishAnswer, "polishAnswer");

// server/modules/chatPlatform/typing.ts
var TYPING_INDICATOR = {
  /** Initial delay: 400 to 900 ms after the acknowledgement (none at all when the answer is ready first). */
  initialDelayMs: { min: 400, max: 900 },
  /** Typing-on window: 2.2 to 4.8 seconds. */
  typingOnMs: { min: 2200, max: 4800 },
  /** Typing-off pause: 600 to 1,800 ms. */
  typingOffMs: { min: 600, max: 1800 },
  /** Maximum loop duration: 55 seconds. */
  maxLoopMs: 55e3,
  /** Maximum failures before the loop goes silent: 3. */
  maxFailures: 3
};
var systemClock = {
  now: /* @__PURE__ */ __name(() => Date.now(), "now"),
  setTimeout: /* @__PURE__ */ __name((fn, ms) => setTimeout(fn, ms), "setTimeout"),
  clearTimeout: /* @__PURE__ */ __name((handle) => clearTimeout(handle), "clearTimeout"),
  random: /* @__PURE__ */ __name(() => Math.random(), "random")
};
var jitter = /* @__PURE__ */ __name((clock, range) => range.min + Math.floor(clock.random() * (range.max - range.min + 1)), "jitter");
function startTypingLoop(adapter, log, clock = systemClock, constants = TYPING_INDICATOR) {
  const startedAt = clock.now();
  let stopped = false;
  let silent = false;
  let calls = 0;
  let failures = 0;
  let timer;
  let inflight = Promise.resolve();
  const call = /* @__PURE__ */ __name(async (on, final = false) => {
    calls++;
    try {
      await adapter.typing(on);
    } catch (err) {
      failures++;
      log.warn({ err: { message: err?.message, code: err?.code }, on, final, failures }, "typing indicator call failed (ignored)");
      if (!silent && failures >= constants.maxFailures) {
        silent = true;
        log.warn({ failures }, "typing indicator loop silent after repeated failures");
      }
    }
  }, "call");
  const expired = /* @__PURE__ */ __name(() => clock.now() - startedAt >= constants.maxLoopMs, "expired");
  const schedule = /* @__PURE__ */ __name((ms, next) => {
    if (stopped || silent || expired()) return;
    timer = clock.setTimeout(next, ms);
  }, "schedule");
  const turnOn = /* @__PURE__ */ __name(() => {
    if (stopped || silent || expired()) return;
    inflight = call(true).then(() => schedule(jitter(clock, constants.typingOnMs), turnOff));
  }, "turnOn");
  const turnOff = /* @__PURE__ */ __name(() => {
    if (stopped || silent) return;
    inflight = call(false).then(() => schedule(jitter(clock, constants.typingOffMs), turnOn));
  }, "turnOff");
  schedule(jitter(clock, constants.initialDelayMs), turnOn);
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      clock.clearTimeout(timer);
      await inflight;
      await call(false, true);
    },
    get calls() {
      return calls;
    },
    get failures() {
      return failures;
    }
  };
}
__name(startTypingLoop, "startTypingLoop");

// server/modules/chatPlatform/commands/runTurn.ts
var dbNow = /* @__PURE__ */ __name(() => raw3("CURRENT_TIMESTAMP"), "dbNow");
async function runTurn(app, turnId, channel, run, options = {}) {
  const knex = app.db.knex;
  const log = run.log.child({ turnId });
  const final = run.attempt > run.retryLimit;
  const row = await ChatTurn.query(knex).findById(turnId);
  if (!row) {
    log.warn("chat turn not found (already removed)");
    return { status: "missing" };
  }
  if (TERMINAL.includes(row.status)) return { status: row.status };
  const finish = /* @__PURE__ */ __name(async (status, error) => {
    const now = dbNow();
    await ChatTurn.query(knex).patch({
      status,
      guestText: null,
      replyText: null,
      finishedAt: now,
      ...status === "SENT" ? { sentAt: now, errorCode: null, errorDetail: null } : {},
      ...error ? { errorCode: error.code, errorDetail: error.detail.slice(0, 500) } : {}
    }).where({ id: turnId }).whereNotIn("status", TERMINAL);
    const timings = await ChatTurn.query(knex).findById(turnId).select("received_at", "generation_started_at", "generated_at", "send_started_at", "finished_at", "attempts");
    const ms = /* @__PURE__ */ __name((a, b) => a && b ? new Date(b).getTime() - new Date(a).getTime() : void 0, "ms");
    log.info(
      {
        status,
        errorCode: error?.code,
        attempts: timings?.attempts,
        generationMs: ms(timings?.generationStartedAt, timings?.generatedAt),
        sendMs: ms(timings?.sendStartedAt, timings?.finishedAt),
        totalMs: ms(timings?.receivedAt, timings?.finishedAt)
      },
      `chat turn ${status === "SENT" ? "sent" : "failed"}`
    );
    return { status, errorCode: error?.code };
  }, "finish");
  if (row.status === "SENDING") {
    log.error("chat turn found mid-send: delivery unknown, not sent again");
    return finish("FAILED", { code: "delivery_unknown", detail: "An earlier attempt was interrupted while sending." });
  }
  const typing = channel.typing(row);
  const loop = typing ? startTypingLoop(typing, log, options.clock ?? systemClock) : void 0;
  try {
    let text = row.replyText;
    if (row.status !== "GENERATED" || text === null) {
      const claimed = await ChatTurn.query(knex).patch({ status: "GENERATING", attempts: raw3("attempts + 1"), generationStartedAt: dbNow() }).where({ id: turnId }).whereIn("status", ["QUEUED", "GENERATING"]);
      if (!claimed) return { status: "busy" };
      let reply;
      try {
        reply = await (await assistantFor(app)).reply({
          messages: [{ role: "user", text: row.guestText ?? "" }],
          locale: row.locale,
          channel: row.channel,
          traceId: turnId
        });
        if (!reply.text.trim()) throw new Error("the agent answered nothing");
      } catch (err) {
        log.error({ err }, "the agent failed on a chat turn");
        if (final) return finish("FAILED", { code: "agent_error", detail: err?.message ?? "agent error" });
        await ChatTurn.query(knex).patch({ status: "QUEUED", errorCode: "agent_error" }).where({ id: turnId, status: "GENERATING" });
        throw new RetryTurn("the agent failed; retrying", { cause: err });
      }
      const invalid2 = reply.audit.invalid;
      text = await polishAnswer(app, log, reply, row.locale, options.routes);
      await ChatTurn.query(knex).patch({ status: "GENERATED", replyText: text, invalidLinks: invalid2.length, generatedAt: dbNow() }).where({ id: turnId, status: "GENERATING" });
    } else {
      await ChatTurn.query(knex).patch({ attempts: raw3("attempts + 1") }).where({ id: turnId });
    }
    const sending = await ChatTurn.query(knex).patch({ status: "SENDING", sendStartedAt: dbNow() }).where({ id: turnId, status: "GENERATED" });
    if (!sending) return { status: "busy" };
    try {
      await channel.send(row, text);
    } catch (err) {
      const failure = channel.describe(err);
      log.error({ ...failure.fields, code: failure.code, retryable: failure.retryable }, `chat platform send failed: ${failure.detail}`);
      if (failure.retryable && !final) {
        await ChatTurn.query(knex).patch({ status: "GENERATED", errorCode: failure.code }).where({ id: turnId, status: "SENDING" });
        throw new RetryTurn(`send failed (${failure.code}); retrying`, { cause: err });
      }
      return finish("FAILED", { code: failure.code, detail: failure.detail });
    }
    return finish("SENT");
  } catch (err) {
    if (err instanceof RetryTurn) throw err;
    log.error({ err }, "chat turn failed unexpectedly");
    if (!final) throw err;
    return finish("FAILED", { code: "internal_error", detail: err?.message ?? "error" });
  } finally {
    await loop?.stop();
  }
}
__name(runTurn, "runTurn");

// server/modules/chatPlatform/jobs.ts
var CHAT_PLATFORM_TURN_QUEUE = "chatPlatform.turn";
var jobs6 = [
  {
    name: CHAT_PLATFORM_TURN_QUEUE,
    // 4 attempts: at once, then about 5 s, 10 s, 20 s later (a platform hiccup, a 429).
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    // The agent has no response time-out (spec §8.2); this only bounds how long a dead process's run stays
    // active before it is retried (and a run found mid-send is never sent again).
    expireInSeconds: 15 * 60,
    // Turns wait on the agent and the platform, not on this process: many run at once.
    concurrency: 8,
    async handler(data, job) {
      if (!job.app) throw new Error(`${CHAT_PLATFORM_TURN_QUEUE}: the job engine was started without the app's services`);
      return runTurn(job.app, data.turnId, manyChatChannel(manyChatFor(job.app)), { attempt: job.attempt, retryLimit: job.retryLimit, log: job.log });
    }
  }
];

// server/modules/chatPlatform/queries.ts
function turnInsert(knex, turn) {
  return knex("chat_turns").insert({
    ...turn.id ? { id: turn.id } : {},
    source: turn.source,
    channel: turn.channel,
    recipient: turn.recipient,
    external_message_id: turn.externalMessageId ?? null,
    locale: turn.locale,
    guest_text: turn.text
  }).onConflict(["source", "external_message_id"]).ignore();
}
__name(turnInsert, "turnInsert");
async function insertTurn(knex, turn) {
  const rows2 = await turnInsert(knex, turn).returning("id");
  return rows2[0]?.id ?? null;
}
__name(insertTurn, "insertTurn");

// server/modules/chatPlatform/commands/receiveChatPlatformMessage.ts
function wantsAsync(mode) {
  if (mode === void 0 || mode === null) return true;
  const value = String(mode).trim().toLowerCase();
  return value === "" || value === "async";
}
__name(wantsAsync, "wantsAsync");
async function receiveChatPlatformMessage(app, input, accepted = () => void 0) {
  const { body, log } = input;
  const channel = body.channel ?? "facebook";
  const text = messageText(body);
  if (!text) {
    throw Unprocessable("no_message_text", "The body carries no message text.", [
      { path: "body/last_input_text", message: "one of last_input_text, text, message, query, contact.last_input_text is required", code: "required" }
    ]);
  }
  const locale = guestLocale2(body, app.config.siteLocales);
  const subscriber2 = subscriberId(body);
  accepted();
  if (subscriber2 && wantsAsync(body.response_mode)) {
    const turnId = randomUUID10();
    const turn = turnInsert(app.db.knex, { id: turnId, source: "chat-platform", channel, recipient: subscriber2, locale, text });
    await app.jobs.enqueue(CHAT_PLATFORM_TURN_QUEUE, { turnId }, { alongside: turn });
    log.info({ turnId, channel, locale }, "chat-platform turn queued");
    return dynamicBlock(channel, acknowledgement(locale));
  }
  let reply;
  try {
    reply = await (await assistantFor(app)).reply({ messages: [{ role: "user", text }], locale, channel, traceId: input.requestId });
  } catch (err) {
    log.error({ err }, "the agent failed on a synchronous chat-platform message");
    throw new Problem(503, "assistant_unavailable", "Service unavailable", { detail: "The assistant could not answer; try again." });
  }
  return dynamicBlock(channel, await polishAnswer(app, log, reply, locale));
}
__name(receiveChatPlatformMessage, "receiveChatPlatformMessage");

// server/modules/chatPlatform/handlers.ts
var handlers36 = {
  async receiveChatPlatformMessage(call) {
    const input = { body: call.body, log: call.log, requestId: call.requestId };
    const block = await receiveChatPlatformMessage(call.app, input, () => noteAddressOf(call));
    return json(200, block);
  }
};

// server/modules/chatPlatform/publicPolicy.ts
var policy18 = [{ path: "/llm/chat-platform", match: "exact", methods: ["POST"], level: "public" }];

// server/modules/chatPlatform/index.ts
function record36() {
  return { tag: "chatPlatform", handlers: handlers36, policy: policy18, jobs: jobs6, services: chatPlatformServices };
}
__name(record36, "record");

// server/modules/messaging/service.ts
import { createHmac as createHmac3, timingSafeEqual as timingSafeEqual6 } from "node:crypto";

// server/platform/integrations/whatsapp.ts
var WHATSAPP_MAX_TEXT = 4096;
var TEMPORARY_CODES = /* @__PURE__ */ new Set([1, 2, 4, 17, 341, 80007, 130429, 131e3, 131016]);
var WhatsAppError = class extends Error {
  static {
    __name(this, "WhatsAppError");
  }
  code;
  status;
  /** Meta's error object, as it answered it. */
  graph;
  delivery;
  retryable;
  constructor(code, message, extra) {
    super(message, extra.cause === void 0 ? void 0 : { cause: extra.cause });
    this.name = "WhatsAppError";
    this.code = code;
    this.status = extra.status;
    this.graph = extra.graph;
    this.delivery = extra.delivery;
    this.retryable = extra.retryable;
  }
};
function createWhatsAppClient(options) {
  const base = options.baseUrl.replace(/\/+$/, "");
  async function post(payload) {
    if (!options.phoneNumberId || !options.accessToken) {
      throw new WhatsAppError("not_configured", "MESSAGING_PHONE_NUMBER_ID and MESSAGING_ACCESS_TOKEN are required", { delivery: "not_delivered", retryable: false });
    }
    let result;
    try {
      result = await postJson(
        `${base}/${encodeURIComponent(options.phoneNumberId)}/messages`,
        { messaging_product: "whatsapp", ...payload },
        { headers: { authorization: `Bearer ${options.accessToken}` }, timeoutMs: options.timeoutMs }
      );
    } catch (err) {
      const e = err;
      throw new WhatsAppError(e.kind === "timeout" ? "timeout" : "network", e.message, { delivery: e.delivery, retryable: e.delivery === "not_delivered", cause: err });
    }
    if (result.status >= 200 && result.status < 300 && result.body && !result.body.error) return result.body;
    const graph = result.body?.error;
    if (!graph) {
      throw new WhatsAppError("bad_response", `HTTP ${result.status}: ${result.text.slice(0, 200)}`, {
        status: result.status,
        delivery: result.status >= 400 ? "not_delivered" : "unknown",
        retryable: result.status === 429 || result.status >= 500
      });
    }
    const retryable = result.status === 429 || result.status >= 500 || TEMPORARY_CODES.has(graph.code ?? -1);
    throw new WhatsAppError("api_error", graph.message ?? `HTTP ${result.status}`, { status: result.status, graph, delivery: "not_delivered", retryable });
  }
  __name(post, "post");
  return {
    isConfigured: Boolean(options.phoneNumberId && options.accessToken),
    async sendText(to, text, extra = {}) {
      const body = await post({
        recipient_type: "individual",
        to,
        type: "text",
        ...extra.replyTo ? { context: { message_id: extra.replyTo } } : {},
        text: { preview_url: true, body: text.slice(0, WHATSAPP_MAX_TEXT) }
      });
      return { messageId: body?.messages?.[0]?.id };
    },
    async typing(messageId) {
      await post({ status: "read", message_id: messageId, typing_indicator: { type: "text" } });
    },
    async sendTemplate(to, template) {
      const body = await post({
        recipient_type: "individual",
        to,
        type: "template",
        template: { name: template.name, language: { code: template.language }, ...template.components?.length ? { components: template.components } : {} }
      });
      return { messageId: body?.messages?.[0]?.id, waId: body?.contacts?.[0]?.wa_id };
    }
  };
}
__name(createWhatsAppClient, "createWhatsAppClient");

// server/modules/messaging/service.ts
function validSignature(rawBody, header, appSecret) {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected2 = createHmac3("sha256", appSecret).update(rawBody).digest();
  const presented = Buffer.from(match[1], "hex");
  return presented.length === expected2.length && timingSafeEqual6(presented, expected2);
}
__name(validSignature, "validSignature");
function inboundTexts(body) {
  const texts = [];
  let ignored = 0;
  for (const entry of Array.isArray(body?.entry) ? body.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value ?? {};
      ignored += Array.isArray(value.statuses) ? value.statuses.length : 0;
      for (const message of Array.isArray(value.messages) ? value.messages : []) {
        const text = message?.type === "text" && typeof message?.text?.body === "string" ? message.text.body.trim() : "";
        if (text && typeof message.from === "string" && /^\d{5,20}$/.test(message.from) && typeof message.id === "string" && message.id) {
          texts.push({ from: message.from, id: message.id, text });
        } else {
          ignored++;
        }
      }
    }
  }
  return { texts, ignored };
}
__name(inboundTexts, "inboundTexts");
function localeOfText(text, siteLocales) {
  const vietnamese = /[ăâđêôơưàảãáạằẳẵắặầẩẫấậèẻẽéẹềểễếệìỉĩíịòỏõóọồổỗốộờởỡớợùủũúụừửữứựỳỷỹýỵ]/i;
  if (siteLocales.includes("vi") && vietnamese.test(text)) return "vi";
  return siteLocales[0];
}
__name(localeOfText, "localeOfText");
function messagingServices(platform) {
  const m = platform.config.messaging;
  return { whatsApp: createWhatsAppClient({ baseUrl: m.graphApiBaseUrl, phoneNumberId: m.phoneNumberId, accessToken: m.accessToken, timeoutMs: m.timeoutMs }) };
}
__name(messagingServices, "messagingServices");
function whatsAppFor(app) {
  return app.whatsApp;
}
__name(whatsAppFor, "whatsAppFor");
function whatsAppChannel(client) {
  return {
    async send(turn, text) {
      await client.sendText(turn.recipient, text, { replyTo: turn.externalMessageId ?? void 0 });
    },
    typing: /* @__PURE__ */ __name((turn) => turn.externalMessageId ? {
      typing: /* @__PURE__ */ __name(async (on) => {
        if (on) await client.typing(turn.externalMessageId);
      }, "typing")
    } : void 0, "typing"),
    describe(err) {
      if (err instanceof WhatsAppError) {
        return {
          code: `whatsapp_${err.code}`,
          detail: err.message,
          retryable: err.retryable,
          fields: { graphCode: err.graph?.code, graphSubcode: err.graph?.error_subcode, fbtraceId: err.graph?.fbtrace_id, httpStatus: err.status, delivery: err.delivery }
        };
      }
      return { code: "send_error", detail: err?.message ?? "send failed", retryable: false, fields: {} };
    }
  };
}
__name(whatsAppChannel, "whatsAppChannel");

// server/modules/messaging/jobs.ts
var MESSAGING_REPLY_QUEUE = "messaging.reply";
var jobs7 = [
  {
    name: MESSAGING_REPLY_QUEUE,
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    // No agent time-out (spec §8.2): this only bounds a dead process's run; a run found mid-send is never resent.
    expireInSeconds: 15 * 60,
    concurrency: 4,
    async handler(data, job) {
      if (!job.app) throw new Error(`${MESSAGING_REPLY_QUEUE}: the job engine was started without the app's services`);
      return runTurn(job.app, data.turnId, whatsAppChannel(whatsAppFor(job.app)), { attempt: job.attempt, retryLimit: job.retryLimit, log: job.log });
    }
  }
];

// server/modules/messaging/commands/receiveMessagingWebhook.ts
async function receiveMessagingWebhook(app, input, accepted = () => void 0) {
  const secret = app.config.messaging.appSecret;
  if (secret && !validSignature(input.rawBody ?? Buffer.alloc(0), input.signature, secret)) {
    throw new Problem(401, "invalid_signature", "Authentication required", { detail: "X-Hub-Signature-256 is missing or does not match the body." });
  }
  const { texts, ignored } = inboundTexts(input.body);
  accepted();
  let queued = 0;
  const siteLocales = app.config.siteLocales;
  await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    for (const message of texts) {
      const turnId = await insertTurn(trx, {
        source: "whatsapp",
        channel: "whatsapp",
        recipient: message.from,
        externalMessageId: message.id,
        locale: localeOfText(message.text, siteLocales),
        text: message.text
      });
      if (!turnId) continue;
      await app.jobs.enqueue(MESSAGING_REPLY_QUEUE, { turnId }, { trx });
      queued++;
    }
  });
  const duplicates = texts.length - queued;
  if (texts.length) input.log.info({ queued, duplicates, ignored }, "whatsapp messages received");
  return { queued, duplicates, ignored };
}
__name(receiveMessagingWebhook, "receiveMessagingWebhook");

// server/modules/messaging/commands/sendMessagingTemplate.ts
async function sendMessagingTemplate(app, input, log) {
  const client = app.whatsApp;
  if (!client.isConfigured) throw ServiceUnavailable("not_configured", "MESSAGING_PHONE_NUMBER_ID and MESSAGING_ACCESS_TOKEN are required.");
  const to = input.to.replace(/^\+/, "");
  try {
    const result = await client.sendTemplate(to, input.template);
    log.info({ template: input.template.name, messageId: result.messageId }, "whatsapp template sent");
    return { messageId: result.messageId ?? null, waId: result.waId ?? null };
  } catch (err) {
    if (!(err instanceof WhatsAppError)) throw err;
    const g = err.graph;
    log.warn({ code: err.code, httpStatus: err.status, graphCode: g?.code, graphSubcode: g?.error_subcode, fbtraceId: g?.fbtrace_id }, "whatsapp template send failed");
    const said = g ? `Meta answered ${err.status}: ${g.message ?? "error"} (code ${g.code ?? "?"}${g.error_subcode ? `, subcode ${g.error_subcode}` : ""}${g.fbtrace_id ? `, fbtrace_id ${g.fbtrace_id}` : ""})` : err.message;
    if (err.code === "api_error" && err.status && err.status < 500 && err.status !== 429) {
      throw Unprocessable("messaging_rejected", said, [
        { path: "body/template", message: g?.error_user_msg ?? g?.message ?? "rejected by Meta", code: "messaging_rejected" }
      ]);
    }
    throw new Problem(502, "messaging_unavailable", "Bad gateway", { detail: said });
  }
}
__name(sendMessagingTemplate, "sendMessagingTemplate");

// server/modules/messaging/handlers.ts
var handlers37 = {
  verifyMessagingWebhook(call) {
    if (call.query["hub.mode"] !== "subscribe") throw Forbidden("invalid_mode", "hub.mode must be subscribe.");
    return { status: 200, body: String(call.query["hub.challenge"] ?? ""), contentType: "text/plain; charset=utf-8" };
  },
  async receiveMessagingWebhook(call) {
    const input = { body: call.body, rawBody: call.rawBody, signature: call.header("x-hub-signature-256"), log: call.log };
    const received = await receiveMessagingWebhook(call.app, input, () => noteAddressOf(call));
    return json(200, received);
  },
  async sendMessagingTemplate(call) {
    return json(200, await sendMessagingTemplate(call.app, call.body, call.log));
  }
};

// server/modules/messaging/publicPolicy.ts
var policy19 = [{ path: "/api/messaging/webhook", match: "exact", methods: ["GET", "HEAD", "POST"], level: "public" }];

// server/modules/messaging/index.ts
function record37() {
  return { tag: "messaging", handlers: handlers37, policy: policy19, jobs: jobs7, services: messagingServices };
}
__name(record37, "record");

// server/modules/chatNotifications/models.ts
var ChatTranscript = class extends BaseModel {
  static {
    __name(this, "ChatTranscript");
  }
  static tableName = "chat_transcripts";
  static jsonAttributes = ["messages"];
  conversationId;
  locale;
  pageUrl;
  messages;
  messageCount;
  emailMessageId;
  startedAt;
};

// server/modules/chatNotifications/commands/notifyChatTranscript.ts
async function notifyChatTranscript(app, body) {
  const to = app.config.venueNotificationsEmail;
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const transcript = await ChatTranscript.query(trx).insert({
      conversationId: body.conversationId ?? null,
      locale: body.locale,
      pageUrl: body.pageUrl ?? null,
      startedAt: body.startedAt ?? null,
      messages: body.messages,
      messageCount: body.messages.length
    });
    let emailMessageId = null;
    if (to) {
      const message = await recordEmail(
        trx,
        {
          to,
          template: "chat-transcript",
          locale: "en",
          data: { transcriptId: transcript.id, conversationId: body.conversationId, locale: body.locale, pageUrl: body.pageUrl, startedAt: body.startedAt, messages: body.messages }
        },
        { enqueue: /* @__PURE__ */ __name((queue, data, options) => app.jobs.enqueue(queue, data, options), "enqueue"), emailFrom: app.config.emailFrom }
      );
      emailMessageId = message.id;
      await ChatTranscript.query(trx).patch({ emailMessageId: message.id }).where({ id: transcript.id });
    }
    return { id: transcript.id, messageCount: body.messages.length, emailMessageId };
  });
}
__name(notifyChatTranscript, "notifyChatTranscript");

// server/modules/chatNotifications/handlers.ts
var handlers38 = {
  async notifyChatTranscript(call) {
    if (call.header("origin")) throw Forbidden("browser_not_allowed", "This endpoint is for the assistant service, not for browsers.");
    const receipt = await notifyChatTranscript(call.app, call.body);
    call.log.info({ transcriptId: receipt.id, messages: receipt.messageCount, emailed: Boolean(receipt.emailMessageId) }, "chat transcript stored");
    return json(201, receipt);
  }
};

// server/modules/chatNotifications/index.ts
function record38() {
  return { tag: "chatNotifications", handlers: handlers38, policy };
}
__name(record38, "record");

// server/modules/index.ts
var records = {
  system: record(),
  auth: record3(),
  accounts: record2(),
  apiKeys: record4(),
  passkeys: record5(),
  jobs: record6(),
  maintenance: record9(),
  email: record15(),
  storage: record7(),
  shows: record10(),
  offers: record17(),
  fulfillment: record16(),
  tables: record18(),
  commercialSetup: record19(),
  showEvents: record20(),
  catalog: record8(),
  booking: record14(),
  customers: record21(),
  payments: record22(),
  checkIns: record23(),
  reservations: record24(),
  assistantCatalog: record12(),
  knowledge: record11(),
  promoCodes: record25(),
  vouchers: record26(),
  inquiries: record27(),
  waitlist: record28(),
  profiles: record29(),
  analytics: record13(),
  integrations: record30(),
  referralLinks: record33(),
  referralPartners: record31(),
  referralCodes: record32(),
  referralCommissions: record34(),
  assistant: record35(),
  chatPlatform: record36(),
  messaging: record37(),
  chatNotifications: record38()
};
var RECORDS = Object.values(records);
var MODULES = Object.fromEntries(RECORDS.map((record39) => [record39.tag, record39]));
var typed = {
  ...records.system.handlers,
  ...records.auth.handlers,
  ...records.accounts.handlers,
  ...records.apiKeys.handlers,
  ...records.passkeys.handlers,
  ...records.jobs.handlers,
  ...records.maintenance.handlers,
  ...records.email.handlers,
  ...records.storage.handlers,
  ...records.shows.handlers,
  ...records.offers.handlers,
  ...records.fulfillment.handlers,
  ...records.tables.handlers,
  ...records.commercialSetup.handlers,
  ...records.showEvents.handlers,
  ...records.catalog.handlers,
  ...records.booking.handlers,
  ...records.customers.handlers,
  ...records.payments.handlers,
  ...records.checkIns.handlers,
  ...records.reservations.handlers,
  ...records.assistantCatalog.handlers,
  ...records.knowledge.handlers,
  ...records.promoCodes.handlers,
  ...records.vouchers.handlers,
  ...records.inquiries.handlers,
  ...records.waitlist.handlers,
  ...records.profiles.handlers,
  ...records.analytics.handlers,
  ...records.integrations.handlers,
  ...records.referralLinks.handlers,
  ...records.referralPartners.handlers,
  ...records.referralCodes.handlers,
  ...records.referralCommissions.handlers,
  ...records.assistant.handlers,
  ...records.chatPlatform.handlers,
  ...records.messaging.handlers,
  ...records.chatNotifications.handlers
};
var handlers39 = typed;
var POLICY_REGISTRY = [...RECORDS.flatMap((record39) => record39.policy ?? []), ...BASE_POLICY];
var QUEUES = collectQueues(RECORDS.map((record39) => record39.jobs ?? []));
function moduleServices(platform) {
  const services = {};
  for (const record39 of RECORDS) {
    for (const [key, value] of Object.entries(record39.services?.(platform) ?? {})) {
      if (key in services) throw new Error(`the app context's "${key}" is declared by two modules (the second: ${record39.tag})`);
      services[key] = value;
    }
  }
  return services;
}
__name(moduleServices, "moduleServices");
var SUBSCRIBERS = RECORDS.flatMap((record39) => record39.subscribers ?? []);
var byOrder = /* @__PURE__ */ __name((list) => list.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name)), "byOrder");
var BOOKING_EXTENSIONS = {
  priceAdjustments: byOrder(RECORDS.flatMap((record39) => [...record39.priceAdjustments ?? []])),
  seatClaims: RECORDS.flatMap((record39) => record39.seatClaims ?? [])
};
function checkModules(operations, modules = MODULES) {
  const problems = [];
  const tagOf = new Map(operations.map((op) => [op.operationId, op.tags[0]]));
  for (const op of operations) {
    const tag = op.tags[0];
    if (!modules[tag]) problems.push(`${op.operationId} is tagged ${tag}, but there is no module server/modules/${tag}/`);
  }
  for (const [tag, module] of Object.entries(modules)) {
    for (const operationId of Object.keys(module.handlers)) {
      const owner = tagOf.get(operationId);
      if (owner && owner !== tag) problems.push(`${operationId} is tagged ${owner} but handled in server/modules/${tag}/handlers.ts`);
    }
  }
  return problems;
}
__name(checkModules, "checkModules");

// server/app.ts
function createApp(deps) {
  const contract = deps.contract ?? loadContract();
  const handlers40 = deps.handlers ?? handlers39;
  const registry = deps.registry ?? POLICY_REGISTRY;
  const problems = [
    ...checkHandlers(contract.operations, handlers40),
    ...deps.handlers ? [] : checkModules(contract.operations),
    ...checkPolicyRegistry(contract, registry)
  ];
  if (problems.length) throw new ContractError(problems);
  const jobs8 = deps.jobs ?? createJobEngine({ config: deps.config, db: deps.db, logger: deps.logger, queues: QUEUES });
  const context = createAppContext({
    config: deps.config,
    db: deps.db,
    logger: deps.logger,
    contract,
    jobs: jobs8,
    analytics: deps.analytics,
    storage: deps.storage,
    tracing: deps.tracing,
    // The modules' declared parts of each other's flows (server/modules/index.ts), built once per app.
    additions: /* @__PURE__ */ __name((platform) => ({ ...moduleServices(platform), events: createDomainEventBus(SUBSCRIBERS), bookingExtensions: BOOKING_EXTENSIONS }), "additions")
  });
  const { analytics } = context;
  const koa = new Koa({ proxy: deps.config.trustProxy });
  koa.silent = true;
  koa.use(requestContext(deps.logger));
  if (context.tracing) koa.use(context.tracing.middleware);
  if (context.metrics) koa.use(observeRequests(context.metrics));
  const detachDatabase = context.tracing?.instrumentDatabase(deps.db.knex);
  koa.use(
    errorBoundary({
      jsonBodyLimitBytes: deps.config.jsonBodyLimitBytes,
      // Server exceptions go to analytics (spec §6.5 item 4); a no-op unless analytics is enabled.
      onServerError: analytics.enabled ? (err, info) => analytics.captureException(err, info) : void 0
    })
  );
  koa.use(
    corsPolicy({
      allowedOrigin: deps.config.allowedOrigin,
      credentialOrigins: deps.config.dashboardOrigins,
      headers: corsHeadersFrom(contract, SERVER_ONLY_PATHS),
      serverOnlyPaths: SERVER_ONLY_PATHS
    })
  );
  koa.use(identityResolver({ knex: deps.db.knex, superuserApiTokens: deps.config.superuserApiTokens, credentials: context.credentials }).middleware);
  for (const middleware of mountOperations({ app: context, handlers: handlers40, registry })) koa.use(middleware);
  const close = /* @__PURE__ */ __name(async () => {
    await Promise.all([context.credentials.close(), analytics.shutdown(), context.notifications.close()]);
    context.mailer.close();
    if (!deps.storage) await context.storage.close?.();
    detachDatabase?.();
    await context.tracing?.shutdown();
  }, "close");
  return { koa, context, close };
}
__name(createApp, "createApp");

// server/platform/config.ts
import path9 from "node:path";
var ConfigError = class extends Error {
  static {
    __name(this, "ConfigError");
  }
};
function str(env, name) {
  const value = env[name];
  return value === void 0 || value.trim() === "" ? void 0 : value.trim();
}
__name(str, "str");
function int(env, name, fallback, min, max) {
  const raw4 = str(env, name);
  if (raw4 === void 0) return fallback;
  const value = Number(raw4);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw4}"`);
  }
  return value;
}
__name(int, "int");
function bool(env, name, fallback) {
  const raw4 = str(env, name)?.toLowerCase();
  if (raw4 === void 0) return fallback;
  if (["1", "true", "yes", "on"].includes(raw4)) return true;
  if (["0", "false", "no", "off"].includes(raw4)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw4}"`);
}
__name(bool, "bool");
function oneOf(env, name, allowed, fallback) {
  const raw4 = str(env, name);
  if (raw4 === void 0) return fallback;
  if (!allowed.includes(raw4)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got "${raw4}"`);
  }
  return raw4;
}
__name(oneOf, "oneOf");
function loadConfig(env = process.env) {
  const nodeEnv = oneOf(env, "NODE_ENV", ["development", "production", "test"], "development");
  const tokens = (str(env, "SUPERUSER_API_TOKENS") ?? str(env, "SUPERUSER_API_TOKEN") ?? "").split(",").map((token2) => token2.trim()).filter(Boolean);
  const analyticsEnabled = bool(env, "ANALYTICS_ENABLED", false);
  const posthogApiKey = str(env, "POSTHOG_API_KEY");
  if (analyticsEnabled && !posthogApiKey) throw new ConfigError("POSTHOG_API_KEY is required when ANALYTICS_ENABLED=true");
  const siteLocales = locales(env);
  const storageDriver = oneOf(env, "STORAGE_DRIVER", ["local", "s3"], "local");
  const s3Bucket = str(env, "STORAGE_S3_BUCKET");
  if (storageDriver === "s3" && !s3Bucket) throw new ConfigError("STORAGE_S3_BUCKET is required when STORAGE_DRIVER=s3");
  const port = int(env, "PORT", 3e3, 0, 65535);
  const metricsSettings = metrics(env, port);
  return {
    nodeEnv,
    port,
    host: str(env, "HOST") ?? "0.0.0.0",
    databaseUrl: str(env, "DATABASE_URL"),
    dataDir: path9.resolve(str(env, "DATA_DIR") ?? "./.data"),
    logLevel: oneOf(env, "LOG_LEVEL", ["fatal", "error", "warn", "info", "debug", "trace", "silent"], "info"),
    emailDomain: (str(env, "EMAIL_DOMAIN") ?? "venue.local").toLowerCase(),
    superuserApiTokens: tokens,
    accessTokens: {
      "service-token": str(env, "SVC_LLM_SERVICE_TOKEN"),
      "chat-webhook-token": str(env, "CHAT_WEBHOOK_TOKEN"),
      "messaging-verify-token": str(env, "MESSAGING_VERIFY_TOKEN"),
      // The API serves /metrics only when no separate METRICS_PORT does.
      "metrics-token": metricsSettings.port === void 0 ? metricsSettings.token : void 0
    },
    publicApiPolicyMode: oneOf(env, "PUBLIC_API_POLICY_MODE", ["report", "enforce", "off"], "report"),
    allowedOrigin: str(env, "ALLOWED_ORIGIN") ?? "*",
    dashboardOrigins: origins(env, "DASHBOARD_ORIGINS"),
    sessionCookie: sessionCookie(env, nodeEnv),
    trustProxy: bool(env, "TRUST_PROXY", false),
    sessionTtlSeconds: int(env, "SESSION_TTL_SECONDS", 7 * 24 * 3600, 60, 365 * 24 * 3600),
    signInMaxFailures: int(env, "SIGN_IN_MAX_FAILURES", 5, 1, 1e3),
    signInWindowSeconds: int(env, "SIGN_IN_WINDOW_SECONDS", 15 * 60, 1, 24 * 3600),
    jsonBodyLimitBytes: int(env, "JSON_BODY_LIMIT_BYTES", 1024 * 1024, 1024, 50 * 1024 * 1024),
    allowDatabaseReset: bool(env, "ALLOW_DATABASE_RESET", false),
    apiKeyCacheMs: int(env, "API_KEY_CACHE_MS", 1e4, 0, 3e5),
    catalogCacheEntries: int(env, "CATALOG_CACHE_ENTRIES", 500, 0, 1e5),
    apiKeyUsageFlushMs: int(env, "API_KEY_USAGE_FLUSH_MS", 5e3, 10, 6e5),
    validateResponses: bool(env, "VALIDATE_RESPONSES", nodeEnv !== "production"),
    seedPasswords: {
      admin: str(env, "SEED_ADMIN_PASSWORD"),
      marketing: str(env, "SEED_MARKETING_PASSWORD"),
      staff: str(env, "SEED_STAFF_PASSWORD")
    },
    seedOnStart: bool(env, "SEED_ON_START", true),
    ...processRole(env),
    jobLostAfterSeconds: int(env, "JOB_LOST_AFTER_SECONDS", 30, 3, 3600),
    jobPollIntervalSeconds: int(env, "JOB_POLL_INTERVAL_SECONDS", 2, 1, 600),
    jobMaintenanceIntervalSeconds: int(env, "JOB_MAINTENANCE_INTERVAL_SECONDS", 10, 1, 3600),
    jobShutdownTimeoutMs: int(env, "JOB_SHUTDOWN_TIMEOUT_MS", 1e4, 1e3, 6e5),
    smtpUrl: smtpUrl(env),
    emailFrom: str(env, "EMAIL_FROM") ?? "Venue <no-reply@venue.local>",
    smtpTimeoutMs: int(env, "SMTP_TIMEOUT_MS", 1e4, 100, 3e5),
    analyticsEnabled,
    posthogApiKey,
    posthogHost: (str(env, "POSTHOG_HOST") ?? "https://us.i.posthog.com").replace(/\/+$/, ""),
    analyticsTimeoutMs: int(env, "ANALYTICS_TIMEOUT_MS", 5e3, 100, 6e4),
    uploadBodyLimitBytes: int(env, "UPLOAD_BODY_LIMIT_BYTES", 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    storageDriver,
    storageS3Endpoint: str(env, "STORAGE_S3_ENDPOINT"),
    storageS3Bucket: s3Bucket,
    storageS3Region: str(env, "STORAGE_S3_REGION") ?? "us-east-1",
    storageS3AccessKeyId: str(env, "STORAGE_S3_ACCESS_KEY_ID"),
    storageS3SecretAccessKey: str(env, "STORAGE_S3_SECRET_ACCESS_KEY"),
    storageS3ForcePathStyle: bool(env, "STORAGE_S3_FORCE_PATH_STYLE", false),
    // 10 × the default SIGN_IN_MAX_FAILURES: a shared address (an office, a NAT) holds many accounts.
    signInMaxFailuresPerAddress: int(env, "SIGN_IN_MAX_FAILURES_PER_ADDRESS", 50, 1, 1e5),
    siteLocales,
    defaultLocale: siteLocales[0],
    venueTimezone: timezone(env),
    ...vnpay(env, nodeEnv),
    publicApiUrl: httpUrl(env, "PUBLIC_API_URL", "http://localhost:3000"),
    publicApiUrlExplicit: str(env, "PUBLIC_API_URL") !== void 0,
    ...assistant(env),
    bankTransfer: bankTransfer(env),
    publicSiteUrl: httpUrl(env, "PUBLIC_SITE_URL", "http://localhost:5173"),
    webauthn: webauthn(env, origins(env, "DASHBOARD_ORIGINS"), httpUrl(env, "PUBLIC_SITE_URL", "http://localhost:5173")),
    botcheckSecretKey: str(env, "BOTCHECK_SECRET_KEY"),
    botcheckVerifyUrl: httpUrl(env, "BOTCHECK_VERIFY_URL", "https://challenges.cloudflare.com/turnstile/v0/siteverify"),
    botcheckTimeoutMs: int(env, "BOTCHECK_TIMEOUT_MS", 5e3, 100, 6e4),
    botcheckHostname: str(env, "BOTCHECK_HOSTNAME"),
    botcheckAction: str(env, "BOTCHECK_ACTION"),
    venueNotificationsEmail: str(env, "VENUE_NOTIFICATIONS_EMAIL"),
    waitlistOfferHours: int(env, "WAITLIST_OFFER_HOURS", 24, 1, 336),
    reminderHoursBefore: int(env, "REMINDER_HOURS_BEFORE", 24, 0, 336),
    venueAddress: str(env, "VENUE_ADDRESS"),
    waitlistOfferUrl: httpUrl(env, "WAITLIST_OFFER_URL", "http://localhost:3000/waitlist-offer"),
    ...visitsAndMeta(env),
    chatApi: {
      baseUrl: httpUrl(env, "CHAT_API_BASE_URL", "https://api.manychat.com"),
      token: str(env, "CHAT_API_TOKEN"),
      timeoutMs: int(env, "CHAT_API_TIMEOUT_MS", 1e4, 100, 12e4)
    },
    messaging: {
      graphApiBaseUrl: httpUrl(env, "GRAPH_API_BASE_URL", "https://graph.facebook.com/v23.0"),
      phoneNumberId: str(env, "MESSAGING_PHONE_NUMBER_ID"),
      accessToken: str(env, "MESSAGING_ACCESS_TOKEN"),
      appSecret: str(env, "MESSAGING_APP_SECRET"),
      timeoutMs: int(env, "MESSAGING_TIMEOUT_MS", 1e4, 100, 12e4)
    },
    metrics: metricsSettings,
    tracing: tracingSettings(env)
  };
}
__name(loadConfig, "loadConfig");
function processRole(env) {
  const explicit = str(env, "PROCESS_ROLE");
  let role = oneOf(env, "PROCESS_ROLE", ["all", "api", "worker"], "all");
  const legacy = str(env, "JOB_WORKERS") === void 0 ? void 0 : bool(env, "JOB_WORKERS", true);
  const deprecations = [];
  if (legacy !== void 0) {
    if (explicit === void 0) {
      if (!legacy) role = "api";
      deprecations.push(`JOB_WORKERS is deprecated: use PROCESS_ROLE=${legacy ? "all" : "api"}`);
    } else if (legacy !== (role !== "api")) {
      throw new ConfigError(`JOB_WORKERS=${legacy} contradicts PROCESS_ROLE=${role}: unset JOB_WORKERS (deprecated; PROCESS_ROLE=api is a process without job workers)`);
    } else {
      deprecations.push("JOB_WORKERS is deprecated and redundant with PROCESS_ROLE: unset it");
    }
  }
  if (role !== "all" && !str(env, "DATABASE_URL")) {
    const setting = explicit === void 0 ? "JOB_WORKERS=false (that is PROCESS_ROLE=api)" : `PROCESS_ROLE=${role}`;
    throw new ConfigError(`${setting} needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process, which runs everything (PROCESS_ROLE=all)`);
  }
  if (role === "worker" && !str(env, "ASSISTANT_API_BASE_URL")) {
    throw new ConfigError("PROCESS_ROLE=worker needs ASSISTANT_API_BASE_URL (an API process or the load balancer): chat turns call the assistant-safe endpoints, which a worker does not serve");
  }
  return { processRole: role, jobWorkers: role !== "api", deprecations };
}
__name(processRole, "processRole");
function metrics(env, apiPort) {
  const port = int(env, "METRICS_PORT", 0, 0, 65535) || void 0;
  const token2 = str(env, "METRICS_TOKEN");
  if (token2 !== void 0 && token2.length < 16) throw new ConfigError("METRICS_TOKEN must be at least 16 characters (a random secret: openssl rand -hex 24)");
  if (port !== void 0 && port === apiPort) {
    throw new ConfigError("METRICS_PORT must differ from PORT (the metrics server listens apart from the API)");
  }
  return { enabled: port !== void 0 || token2 !== void 0, port, host: str(env, "METRICS_HOST") ?? "127.0.0.1", token: token2 };
}
__name(metrics, "metrics");
function tracingSettings(env) {
  const raw4 = str(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const endpoint = raw4 === void 0 ? void 0 : httpUrl(env, "OTEL_EXPORTER_OTLP_ENDPOINT", raw4);
  const serviceName = str(env, "OTEL_SERVICE_NAME") ?? "venue-backend";
  if (!/^[\w.\-/:]{1,128}$/.test(serviceName)) throw new ConfigError(`OTEL_SERVICE_NAME must be 1\u2013128 letters, digits, and . - _ / :, got "${serviceName}"`);
  return { endpoint, serviceName };
}
__name(tracingSettings, "tracingSettings");
function visitsAndMeta(env) {
  const webhook = str(env, "VISIT_NOTIFICATION_WEBHOOK_URL");
  const metaPixelId = str(env, "META_PIXEL_ID");
  if (metaPixelId !== void 0 && !/^\d{1,32}$/.test(metaPixelId)) throw new ConfigError(`META_PIXEL_ID must be the pixel's digits, got "${metaPixelId}"`);
  const metaGraphApiVersion = str(env, "META_GRAPH_API_VERSION") ?? "v21.0";
  if (!/^v\d{1,3}\.\d{1,3}$/.test(metaGraphApiVersion)) throw new ConfigError(`META_GRAPH_API_VERSION must look like v21.0, got "${metaGraphApiVersion}"`);
  return {
    visitNotificationWebhookUrl: webhook === void 0 ? void 0 : httpUrl(env, "VISIT_NOTIFICATION_WEBHOOK_URL", webhook),
    visitNotificationTimeoutMs: int(env, "VISIT_NOTIFICATION_TIMEOUT_MS", 5e3, 100, 6e4),
    visitNotificationMaxPending: int(env, "VISIT_NOTIFICATION_MAX_PENDING", 20, 1, 1e4),
    visitRateLimitPerMinute: int(env, "VISIT_RATE_LIMIT_PER_MINUTE", 60, 1, 1e6),
    metaPixelId,
    metaCapiAccessToken: str(env, "META_CAPI_ACCESS_TOKEN"),
    metaTestEventCode: str(env, "META_TEST_EVENT_CODE"),
    metaGraphApiUrl: httpUrl(env, "META_GRAPH_API_URL", "https://graph.facebook.com"),
    metaGraphApiVersion,
    metaCapiTimeoutMs: int(env, "META_CAPI_TIMEOUT_MS", 1e4, 100, 12e4),
    metaEventRateLimitPerMinute: int(env, "META_EVENT_RATE_LIMIT_PER_MINUTE", 60, 1, 1e6)
  };
}
__name(visitsAndMeta, "visitsAndMeta");
function bankTransfer(env) {
  const accountName = str(env, "BANK_TRANSFER_ACCOUNT_NAME");
  const accountNumber = str(env, "BANK_TRANSFER_ACCOUNT_NUMBER");
  const bankName = str(env, "BANK_TRANSFER_BANK");
  const set = [accountName, accountNumber, bankName].filter(Boolean).length;
  if (set === 0) return void 0;
  if (set !== 3) throw new ConfigError("BANK_TRANSFER_ACCOUNT_NAME, BANK_TRANSFER_ACCOUNT_NUMBER and BANK_TRANSFER_BANK are set together (all unset: bank transfer is off)");
  return { accountName, accountNumber, bankName };
}
__name(bankTransfer, "bankTransfer");
function locales(env) {
  const raw4 = str(env, "SITE_LOCALES") ?? "en,vi";
  const list = [...new Set(raw4.split(",").map((locale) => locale.trim()).filter(Boolean))];
  for (const locale of list) {
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(locale)) throw new ConfigError(`SITE_LOCALES: "${locale}" is not a locale tag such as en or vi`);
  }
  if (list.length === 0) throw new ConfigError("SITE_LOCALES must name at least one locale");
  return list;
}
__name(locales, "locales");
function timezone(env) {
  const zone = str(env, "VENUE_TIMEZONE") ?? "Asia/Ho_Chi_Minh";
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new ConfigError(`VENUE_TIMEZONE must be an IANA time zone such as Asia/Ho_Chi_Minh, got "${zone}"`);
  }
  return zone;
}
__name(timezone, "timezone");
function origins(env, name) {
  const list = (str(env, name) ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  for (const entry of list) {
    const url = URL.canParse(entry) ? new URL(entry) : void 0;
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, "")) {
      throw new ConfigError(`${name}: "${entry}" is not an origin such as https://dashboard.example.com (scheme, host and port only; no "*")`);
    }
  }
  return list.map((entry) => new URL(entry).origin);
}
__name(origins, "origins");
function webauthn(env, dashboardOrigins, publicSiteUrl) {
  const listed = origins(env, "WEBAUTHN_ORIGINS");
  const candidates = listed.length > 0 ? listed : dashboardOrigins.length > 0 ? dashboardOrigins : [new URL(publicSiteUrl).origin];
  const rpId = (str(env, "WEBAUTHN_RP_ID") ?? new URL(candidates[0]).hostname).toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(rpId)) {
    throw new ConfigError(`WEBAUTHN_RP_ID must be a host name such as dashboard.example.com (no scheme, port or path), got "${rpId}"`);
  }
  const onRpId = /* @__PURE__ */ __name((origin) => {
    const host = new URL(origin).hostname;
    return host === rpId || host.endsWith(`.${rpId}`);
  }, "onRpId");
  for (const origin of listed) {
    if (!onRpId(origin)) {
      throw new ConfigError(`WebAuthn origin ${origin} is not on WEBAUTHN_RP_ID "${rpId}" or a subdomain of it (set WEBAUTHN_ORIGINS / WEBAUTHN_RP_ID)`);
    }
  }
  const allowed = candidates.filter(onRpId);
  if (allowed.length === 0) {
    throw new ConfigError(`no WebAuthn origin is on WEBAUTHN_RP_ID "${rpId}" (set WEBAUTHN_ORIGINS to the dashboard's origins on it)`);
  }
  return {
    rpId,
    rpName: str(env, "WEBAUTHN_RP_NAME") ?? "Venue dashboard",
    origins: allowed,
    challengeTtlSeconds: int(env, "WEBAUTHN_CHALLENGE_TTL_SECONDS", 300, 10, 3600)
  };
}
__name(webauthn, "webauthn");
function sessionCookie(env, nodeEnv) {
  const sameSite = oneOf(env, "SESSION_COOKIE_SAMESITE", ["lax", "strict", "none"], "lax");
  return { sameSite, alwaysSecure: nodeEnv === "production" || sameSite === "none" };
}
__name(sessionCookie, "sessionCookie");
function httpUrl(env, name, fallback) {
  const raw4 = str(env, name) ?? fallback;
  if (!/^https?:\/\/[^/\s]/i.test(raw4) || !URL.canParse(raw4)) throw new ConfigError(`${name} must be an http:// or https:// URL, got "${raw4}"`);
  return raw4.replace(/\/+$/, "");
}
__name(httpUrl, "httpUrl");
function vnpay(env, nodeEnv) {
  const vnpayTmnCode = str(env, "VNPAY_TMN_CODE");
  const vnpayHashSecret = str(env, "VNPAY_HASH_SECRET");
  if (Boolean(vnpayTmnCode) !== Boolean(vnpayHashSecret)) {
    throw new ConfigError("VNPAY_TMN_CODE and VNPAY_HASH_SECRET are set together (both unset: VNPay is off)");
  }
  const vnpaySandbox = bool(env, "VNPAY_SANDBOX", nodeEnv !== "production" && !vnpayTmnCode);
  if (vnpaySandbox && nodeEnv === "production") {
    throw new ConfigError("VNPAY_SANDBOX=true is not allowed with NODE_ENV=production: the simulated pay page would confirm bookings nobody paid for (unset VNPAY_SANDBOX, set VNPAY_TMN_CODE and VNPAY_HASH_SECRET)");
  }
  if (vnpaySandbox && vnpayTmnCode) {
    throw new ConfigError("VNPAY_SANDBOX=true cannot be used with VNPAY_TMN_CODE / VNPAY_HASH_SECRET set: choose the simulator or VNPay");
  }
  return {
    vnpayTmnCode,
    vnpayHashSecret,
    vnpaySandbox,
    vnpayPaymentUrl: httpUrl(env, "VNPAY_PAYMENT_URL", "https://sandbox.vnpayment.vn/paymentv2/vpcpay.html"),
    vnpayApiUrl: httpUrl(env, "VNPAY_API_URL", "https://sandbox.vnpayment.vn/merchant_webapi/api/transaction"),
    vnpayTimeoutMs: int(env, "VNPAY_TIMEOUT_MS", 1e4, 100, 12e4)
  };
}
__name(vnpay, "vnpay");
function smtpUrl(env) {
  const raw4 = str(env, "SMTP_URL");
  if (raw4 !== void 0 && !/^smtps?:\/\/[^/]/i.test(raw4)) {
    throw new ConfigError("SMTP_URL must be an smtp:// or smtps:// URL");
  }
  return raw4;
}
__name(smtpUrl, "smtpUrl");
function assistant(env) {
  const mistralApiKey = str(env, "MISTRAL_API_KEY");
  const assistantModel = oneOf(env, "ASSISTANT_MODEL", ["offline", "mistral", "openai-compatible"], mistralApiKey ? "mistral" : "offline");
  if (assistantModel === "mistral" && !mistralApiKey) throw new ConfigError("MISTRAL_API_KEY is required when ASSISTANT_MODEL=mistral");
  const openaiBase = str(env, "ASSISTANT_OPENAI_BASE_URL");
  const openaiModel = str(env, "ASSISTANT_OPENAI_MODEL");
  if (assistantModel === "openai-compatible") {
    if (!openaiBase) throw new ConfigError("ASSISTANT_OPENAI_BASE_URL is required when ASSISTANT_MODEL=openai-compatible");
    if (!openaiModel) throw new ConfigError("ASSISTANT_OPENAI_MODEL is required when ASSISTANT_MODEL=openai-compatible");
  }
  const base = str(env, "ASSISTANT_API_BASE_URL");
  return {
    assistantApiBaseUrl: base === void 0 ? void 0 : httpUrl(env, "ASSISTANT_API_BASE_URL", base),
    assistantApiTimeoutMs: int(env, "ASSISTANT_API_TIMEOUT_MS", 1e4, 100, 12e4),
    assistantModel,
    assistantMaxSteps: int(env, "ASSISTANT_MAX_STEPS", 5, 1, 20),
    mistralApiKey,
    mistralModel: str(env, "MISTRAL_MODEL") ?? "mistral-small-latest",
    mistralBaseUrl: httpUrl(env, "MISTRAL_BASE_URL", "https://api.mistral.ai/v1"),
    assistantOpenaiBaseUrl: openaiBase === void 0 ? void 0 : httpUrl(env, "ASSISTANT_OPENAI_BASE_URL", openaiBase),
    assistantOpenaiModel: openaiModel,
    assistantOpenaiApiKey: str(env, "ASSISTANT_OPENAI_API_KEY"),
    llmChatRateLimitPerMinute: int(env, "LLM_CHAT_RATE_LIMIT_PER_MINUTE", 20, 1, 1e5),
    aiObservabilityEnabled: bool(env, "ANALYTICS_AI_OBSERVABILITY_ENABLED", false),
    aiObservabilityCaptureContent: bool(env, "ANALYTICS_AI_OBSERVABILITY_CAPTURE_CONTENT", false)
  };
}
__name(assistant, "assistant");

// server/platform/guardRails.ts
import fs8 from "node:fs";
import path10 from "node:path";
var DEVELOPMENT_TOKEN_PREFIX = "dev_";
var VNPAY_SANDBOX_HOST = /(^|\.)sandbox\.vnpayment\.vn$/i;
function productionRefusals(config) {
  if (config.nodeEnv !== "production") return [];
  const refusals = [];
  if (config.vnpaySandbox) refusals.push("VNPAY_SANDBOX: the simulated pay page confirms bookings nobody paid for; unset it and set VNPAY_TMN_CODE and VNPAY_HASH_SECRET");
  if (config.vnpayTmnCode) {
    for (const [name, url] of [
      ["VNPAY_PAYMENT_URL", config.vnpayPaymentUrl],
      ["VNPAY_API_URL", config.vnpayApiUrl]
    ]) {
      if (VNPAY_SANDBOX_HOST.test(new URL(url).hostname)) refusals.push(`${name}: ${url} is VNPay's sandbox, which takes no real payment; set VNPay's production address`);
    }
  }
  const wildcard = config.dashboardOrigins.filter((origin) => origin.includes("*") || origin === "null");
  if (wildcard.length) refusals.push(`DASHBOARD_ORIGINS: ${wildcard.join(", ")} would be answered with credentials from any site; list the dashboard's exact origins`);
  if (config.superuserApiTokens.length === 0) {
    refusals.push("SUPERUSER_API_TOKENS: no superuser token is set (nothing is generated in production); set one or more long random tokens, comma-separated");
  }
  if (config.superuserApiTokens.some((token2) => token2.startsWith(DEVELOPMENT_TOKEN_PREFIX))) {
    refusals.push(`SUPERUSER_API_TOKENS: a token starting with "${DEVELOPMENT_TOKEN_PREFIX}" is a generated development token; set tokens of your own`);
  }
  const file = path10.join(config.dataDir, "dev-credentials.json");
  const recorded = readRecorded(file);
  if (recorded) {
    if (recorded.superuserToken && config.superuserApiTokens.includes(recorded.superuserToken)) {
      refusals.push(`SUPERUSER_API_TOKENS: a token is the development token recorded in ${file}; set tokens of your own`);
    }
    if (!config.databaseUrl) {
      refusals.push(
        `DATA_DIR: ${file} holds development secrets generated for this data directory (the accounts it names were seeded with them); change those passwords and delete the file, or use a data directory (or DATABASE_URL) made for production`
      );
    }
  }
  return refusals;
}
__name(productionRefusals, "productionRefusals");
function readRecorded(file) {
  try {
    return JSON.parse(fs8.readFileSync(file, "utf8"));
  } catch {
    return void 0;
  }
}
__name(readRecorded, "readRecorded");
function assertProductionReady(config) {
  const refusals = productionRefusals(config);
  if (refusals.length) throw new ConfigError(`NODE_ENV=production refuses to start:
  - ${refusals.join("\n  - ")}`);
}
__name(assertProductionReady, "assertProductionReady");

// server/platform/db/database.ts
import fs9 from "node:fs";
import path11 from "node:path";
import knexFactory from "knex";
import ClientPgLite from "knex-pglite";
import { Model as Model4 } from "objection";
var EmbeddedClient = class extends ClientPgLite {
  static {
    __name(this, "EmbeddedClient");
  }
  processResponse(obj, runner) {
    return super.processResponse(obj.method === "del" ? { ...obj, method: "delete" } : obj, runner);
  }
};
function openDatabase(options) {
  let knex;
  let kind;
  if (options.databaseUrl) {
    kind = "postgres";
    knex = knexFactory({
      client: "pg",
      connection: options.databaseUrl,
      pool: { min: 0, max: 10 },
      // A request waits at most this long for a connection (knex's default: 60 s). While PostgreSQL is away (a
      // restart) requests then fail within seconds instead of piling up for a minute; once it is back, new
      // connections are made as they are needed.
      acquireConnectionTimeout: 1e4,
      migrations: { migrationSource }
    });
  } else {
    kind = "embedded";
    const dataDir = options.dataDir ?? "memory";
    const pgdata = dataDir === "memory" ? void 0 : path11.join(dataDir, "pgdata");
    if (pgdata) fs9.mkdirSync(pgdata, { recursive: true });
    knex = knexFactory({
      client: EmbeddedClient,
      dialect: "postgres",
      connection: pgdata ? { filename: pgdata } : {},
      migrations: { migrationSource }
    });
  }
  Model4.knex(knex);
  return { knex, kind, close: /* @__PURE__ */ __name(() => knex.destroy(), "close") };
}
__name(openDatabase, "openDatabase");
function openConfiguredDatabase(config) {
  return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
}
__name(openConfiguredDatabase, "openConfiguredDatabase");

// server/platform/db/template.ts
import { createHash as createHash16 } from "node:crypto";
import fs10 from "node:fs";
import path12 from "node:path";
import { fileURLToPath as fileURLToPath5 } from "node:url";
import { Model as Model5 } from "objection";
var ROOT = path12.resolve(path12.dirname(fileURLToPath5(new URL("../server/platform/db/template.ts", import.meta.url).href)), "../../..");
var TEMPLATE_DIR = path12.join(ROOT, ".build", "pgdata-template");
var RECORD = "template.json";
function pgliteVersion() {
  const entry = fileURLToPath5(import.meta.resolve("@electric-sql/pglite"));
  let dir = path12.dirname(entry);
  while (dir !== path12.dirname(dir)) {
    const candidate = path12.join(dir, "package.json");
    if (fs10.existsSync(candidate)) {
      const pkg = JSON.parse(fs10.readFileSync(candidate, "utf8"));
      if (pkg.name === "@electric-sql/pglite") return pkg.version ?? "unknown";
    }
    dir = path12.dirname(dir);
  }
  return "unknown";
}
__name(pgliteVersion, "pgliteVersion");
async function currentRecord() {
  const migrations = await migrationSource.getMigrations([]);
  const pglite = pgliteVersion();
  const hash2 = createHash16("sha256").update(`pglite ${pglite}
`);
  for (const name of migrations) hash2.update(`${name}
`).update(fs10.readFileSync(path12.join(MIGRATIONS_DIR, name))).update("\n");
  return { digest: hash2.digest("hex"), pglite, migrations };
}
__name(currentRecord, "currentRecord");
function holdsDatabase(pgdata) {
  return fs10.existsSync(path12.join(pgdata, "PG_VERSION"));
}
__name(holdsDatabase, "holdsDatabase");
async function startFromTemplate(pgdata, templateDir = TEMPLATE_DIR) {
  if (holdsDatabase(pgdata)) return "the data directory holds a database";
  if (fs10.existsSync(pgdata) && fs10.readdirSync(pgdata).length) return "the data directory is not empty";
  let record39;
  try {
    record39 = JSON.parse(fs10.readFileSync(path12.join(templateDir, RECORD), "utf8"));
  } catch {
    return "no template (npm run build makes one)";
  }
  const current3 = await currentRecord();
  if (record39.digest !== current3.digest) return "the template was made from other migrations or another PGlite";
  const staging = `${pgdata}.template-${process.pid}`;
  fs10.rmSync(staging, { recursive: true, force: true });
  fs10.cpSync(path12.join(templateDir, "pgdata"), staging, { recursive: true });
  fs10.rmSync(pgdata, { recursive: true, force: true });
  fs10.renameSync(staging, pgdata);
  return void 0;
}
__name(startFromTemplate, "startFromTemplate");

// server/platform/http/clientError.ts
import { randomUUID as randomUUID11 } from "node:crypto";
function describeParserError(code) {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, reason: "Request Header Fields Too Large", code: "header_too_large", detail: "The request line or headers are too large." };
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "ERR_HTTP_HEADERS_TIMEOUT":
      return { status: 408, reason: "Request Timeout", code: "request_timeout", detail: "The request was not received in time." };
    default:
      return { status: 400, reason: "Bad Request", code: "bad_request", detail: "The request is not valid HTTP/1.1." };
  }
}
__name(describeParserError, "describeParserError");
function clientErrorHandler(logger) {
  return (err, socket) => {
    const inFlight = socket._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer2 = describeParserError(err.code);
    const requestId = randomUUID11();
    logger?.info({ requestId, code: err.code, status: answer2.status }, "request refused by the HTTP parser");
    const body = JSON.stringify({
      type: PROBLEM_TYPE_BASE + answer2.code,
      title: answer2.reason,
      status: answer2.status,
      code: answer2.code,
      detail: answer2.detail,
      requestId
    });
    socket.end(
      `HTTP/1.1 ${answer2.status} ${answer2.reason}\r
Content-Type: application/problem+json; charset=utf-8\r
Content-Length: ${Buffer.byteLength(body)}\r
x-request-id: ${requestId}\r
Connection: close\r
\r
` + body
    );
  };
}
__name(clientErrorHandler, "clientErrorHandler");

// server/platform/http/healthOnly.ts
import { randomUUID as randomUUID12 } from "node:crypto";
var HEALTH_PATHS = /* @__PURE__ */ new Set(["/api/system/health/live", "/api/system/health/ready"]);
function healthOnly(app) {
  return (req, res) => {
    const path15 = (req.url ?? "/").split("?")[0];
    if ((req.method === "GET" || req.method === "HEAD") && HEALTH_PATHS.has(path15)) return app(req, res);
    const requestId = randomUUID12();
    const code = "not_found";
    const body = JSON.stringify({
      type: PROBLEM_TYPE_BASE + code,
      title: "Not Found",
      status: 404,
      code,
      detail: "This process runs job workers only (PROCESS_ROLE=worker): it answers the health probes, not the API.",
      requestId
    });
    req.resume();
    res.writeHead(404, { "content-type": "application/problem+json; charset=utf-8", "content-length": Buffer.byteLength(body), "x-request-id": requestId });
    res.end(req.method === "HEAD" ? void 0 : body);
  };
}
__name(healthOnly, "healthOnly");

// server/platform/startup.ts
var round = /* @__PURE__ */ __name((ms) => Math.round(ms * 10) / 10, "round");
var StartupTimeline = class {
  static {
    __name(this, "StartupTimeline");
  }
  phases = [];
  last = 0;
  logger;
  launcher = globalThis.__venueStart;
  constructor() {
    if (this.launcher?.at !== void 0) this.record("node", this.launcher.at, this.launcher.cpu);
    this.record(this.launcher?.from === "build" ? "import (build)" : "import (sources, tsx)", performance.now());
  }
  record(phase, at2, cpu = process.cpuUsage()) {
    const entry = { phase, atMs: round(at2), ms: round(at2 - this.last), cpuMs: round((cpu.user + cpu.system) / 1e3) };
    this.last = at2;
    this.phases.push(entry);
    if (this.logger?.isLevelEnabled("debug")) this.logger.debug(entry, "start-up phase");
    return entry;
  }
  /** Logs the phases so far, and each next one as it ends. */
  attach(logger) {
    this.logger = logger;
    if (!logger.isLevelEnabled("debug")) return;
    if (this.launcher?.from === "sources" && this.launcher.reason) logger.debug({ reason: this.launcher.reason }, "start-up from the sources (tsx)");
    for (const entry of this.phases) logger.debug(entry, "start-up phase");
  }
  /** Ends the phase under way under this name. */
  mark(phase) {
    this.record(phase, performance.now());
  }
  /** The summary line: total time and each phase's share, for the phases so far. */
  summary(label = "start-up timeline") {
    if (!this.logger?.isLevelEnabled("debug")) return;
    this.logger.debug(
      { totalMs: round(this.last), cpuMs: this.phases.at(-1)?.cpuMs, from: this.launcher?.from ?? "sources", phases: Object.fromEntries(this.phases.map((entry) => [entry.phase, entry.ms])) },
      label
    );
  }
};

// server/cli/devSecrets.ts
import fs11 from "node:fs";
import path13 from "node:path";

// sdk/index.ts
import createFetchClient from "openapi-fetch";
var IDEMPOTENT_CREATES = [
  { method: "POST", path: "/api/public/reservations" },
  { method: "POST", path: "/api/inquiries" },
  { method: "POST", path: "/api/referral-commissions/payouts" }
];
var inBrowser = /* @__PURE__ */ __name(() => typeof window !== "undefined" && typeof document !== "undefined", "inBrowser");
function fetchWithJar(given, base) {
  let wrapped;
  const load2 = /* @__PURE__ */ __name(async () => {
    const [{ default: fetchCookie }, { CookieJar }] = await Promise.all([import("fetch-cookie"), import("tough-cookie")]);
    return fetchCookie(base ?? globalThis.fetch, given ?? new CookieJar());
  }, "load");
  return async (input, init) => {
    wrapped ??= load2();
    return (await wrapped)(input, init);
  };
}
__name(fetchWithJar, "fetchWithJar");
function createClient2(options) {
  const jar = typeof options.cookies === "object" ? options.cookies : void 0;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const client = createFetchClient({
    baseUrl,
    fetch: options.cookies ? fetchWithJar(jar, options.fetch) : options.fetch,
    headers: options.headers,
    credentials: options.credentials ?? (inBrowser() && options.cookies ? "include" : void 0)
  });
  const idempotent = new Set(IDEMPOTENT_CREATES.map(({ method, path: path15 }) => `${method} ${new URL(baseUrl + path15).pathname}`));
  const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
  const auth = {
    onRequest({ request }) {
      if (options.superuserToken) request.headers.set("x-api-token", options.superuserToken);
      if (options.apiKey) request.headers.set("x-api-key", options.apiKey);
      if (!request.headers.has("idempotency-key") && idempotent.has(`${request.method} ${new URL(request.url).pathname}`)) {
        request.headers.set("idempotency-key", newKey());
      }
      return request;
    }
  };
  client.use(auth);
  if (jar) client.cookies = jar;
  return client;
}
__name(createClient2, "createClient");

// seed/errors.ts
var SeedError = class extends Error {
  static {
    __name(this, "SeedError");
  }
};
var describe3 = /* @__PURE__ */ __name((status, error) => `${status} ${JSON.stringify(error)}`, "describe");

// seed/accounts.ts
var SEED_ACCOUNTS = [
  { username: "admin", name: "Venue admin", memberRole: "admin" },
  { username: "marketing", name: "Marketing", memberRole: "admin" },
  { username: "staff", name: "Venue staff", memberRole: "member" }
];
async function seedAccounts(client, options) {
  const attach = /* @__PURE__ */ __name((seedAccount) => client.POST("/api/sudo/ensure-organization-member", { body: { email: seedAccount.username, role: seedAccount.memberRole } }), "attach");
  async function mayExist(username) {
    const listed = await client.GET("/api/sudo/users", { params: { query: { q: `${username}@`, limit: 100 } } });
    if (!listed.data) throw new SeedError(`listing accounts failed: ${describe3(listed.response.status, listed.error)}`);
    if (listed.data.total > listed.data.items.length) return true;
    return listed.data.items.some((account) => account.email.toLowerCase().startsWith(`${username}@`));
  }
  __name(mayExist, "mayExist");
  async function createAccount(seedAccount, password) {
    if (!password) throw new SeedError(`SEED_${seedAccount.username.toUpperCase()}_PASSWORD is required to create the ${seedAccount.username} account`);
    const created = await client.POST("/api/sudo/users", { body: { username: seedAccount.username, name: seedAccount.name, password } });
    if (created.response.status === 201) {
      options.onCreated?.(seedAccount.username);
      return "created";
    }
    if (created.response.status === 409) return "existing";
    throw new SeedError(`creating ${seedAccount.username} failed: ${describe3(created.response.status, created.error)}`);
  }
  __name(createAccount, "createAccount");
  const report = [];
  for (const seedAccount of SEED_ACCOUNTS) {
    let account = "existing";
    let member;
    if (await mayExist(seedAccount.username)) {
      member = await attach(seedAccount);
      if (member.response.status === 404) {
        account = await createAccount(seedAccount, options.passwords[seedAccount.username]);
        member = await attach(seedAccount);
      }
    } else {
      account = await createAccount(seedAccount, options.passwords[seedAccount.username]);
      member = await attach(seedAccount);
    }
    if (!member.data) throw new SeedError(`attaching ${seedAccount.username} failed: ${describe3(member.response.status, member.error)}`);
    report.push({ username: seedAccount.username, account, membership: member.data.outcome });
  }
  return report;
}
__name(seedAccounts, "seedAccounts");

// seed/venue.ts
var DEMO_WEEKS = 8;
var DEMO_FULFILLMENT_ITEMS = [
  { code: "MEAL-SET", kind: "MEAL", name: { en: "Five-course Vietnamese set menu", vi: "Th\u1EF1c \u0111\u01A1n Vi\u1EC7t Nam n\u0103m m\xF3n" }, dietaryTags: ["contains-seafood"] },
  { code: "MEAL-VEG", kind: "MEAL", name: { en: "Vegetarian five-course menu", vi: "Th\u1EF1c \u0111\u01A1n chay n\u0103m m\xF3n" }, dietaryTags: ["vegetarian"] },
  { code: "MEAL-TASTING", kind: "MEAL", name: { en: "Chef's seven-course tasting menu", vi: "Th\u1EF1c \u0111\u01A1n n\u1EBFm th\u1EED b\u1EA3y m\xF3n c\u1EE7a b\u1EBFp tr\u01B0\u1EDFng" }, dietaryTags: ["contains-seafood", "contains-nuts"] },
  { code: "DRINK-WELCOME", kind: "DRINK", name: { en: "Welcome cocktail", vi: "Cocktail ch\xE0o m\u1EEBng" }, dietaryTags: ["contains-alcohol"] },
  { code: "DRINK-WINE", kind: "DRINK", name: { en: "Wine pairing (three glasses)", vi: "R\u01B0\u1EE3u vang k\u1EBFt h\u1EE3p (ba ly)" }, dietaryTags: ["contains-alcohol"] },
  { code: "DRINK-TEA", kind: "DRINK", name: { en: "Lotus tea service", vi: "Tr\xE0 sen" }, dietaryTags: ["vegan"] },
  { code: "MERCH-PROGRAM", kind: "MERCH", name: { en: "Printed show programme", vi: "T\u1EDD ch\u01B0\u01A1ng tr\xECnh bi\u1EC3u di\u1EC5n" }, dietaryTags: [] },
  { code: "SERVICE-HOST", kind: "SERVICE", name: { en: "Personal VIP host", vi: "Nh\xE2n vi\xEAn ph\u1EE5c v\u1EE5 VIP ri\xEAng" }, dietaryTags: [] }
];
var DEMO_SHOWS = [
  {
    code: "SGC",
    slug: "saigon-chronicles",
    canonical: true,
    durationMinutes: 120,
    sortOrder: 1,
    title: { en: "Saigon Chronicles", vi: "Bi\xEAn ni\xEAn S\xE0i G\xF2n" },
    summary: {
      en: "A dinner cabaret through three centuries of the city, with live band and acrobats.",
      vi: "D\u1EA1 ti\u1EC7c cabaret qua ba th\u1EBF k\u1EF7 c\u1EE7a th\xE0nh ph\u1ED1, c\xF9ng ban nh\u1EA1c s\u1ED1ng v\xE0 ngh\u1EC7 s\u0129 xi\u1EBFc."
    },
    description: {
      en: "Twelve performers, a seven-piece band and a five-course dinner tell the story of Saigon from a river trading post to the city that never sleeps. Doors open 45 minutes before the show.",
      vi: "M\u01B0\u1EDDi hai ngh\u1EC7 s\u0129, ban nh\u1EA1c b\u1EA3y ng\u01B0\u1EDDi v\xE0 b\u1EEFa t\u1ED1i n\u0103m m\xF3n k\u1EC3 c\xE2u chuy\u1EC7n S\xE0i G\xF2n t\u1EEB th\u01B0\u01A1ng c\u1EA3ng ven s\xF4ng \u0111\u1EBFn th\xE0nh ph\u1ED1 kh\xF4ng ng\u1EE7. M\u1EDF c\u1EEDa 45 ph\xFAt tr\u01B0\u1EDBc gi\u1EDD di\u1EC5n."
    },
    // Tuesday to Sunday at 19:30.
    schedule: { weekdays: [2, 3, 4, 5, 6, 7], times: ["19:30"], capacity: 120, doorsMinutesBefore: 45 }
  },
  {
    code: "LTS",
    slug: "lotus-tales",
    canonical: false,
    durationMinutes: 75,
    sortOrder: 2,
    title: { en: "Lotus Tales", vi: "Chuy\u1EC7n hoa sen" },
    summary: {
      en: "Folk legends told with water puppets and traditional instruments; an early show for families.",
      vi: "Truy\u1EC1n thuy\u1EBFt d\xE2n gian qua m\xFAa r\u1ED1i n\u01B0\u1EDBc v\xE0 nh\u1EA1c c\u1EE5 truy\u1EC1n th\u1ED1ng; su\u1EA5t di\u1EC5n s\u1EDBm cho gia \u0111\xECnh."
    },
    description: {
      en: "Seven legends of the Mekong delta, played on water by master puppeteers with a \u0111\xE0n b\u1EA7u and bamboo flute ensemble. Suitable for children from four.",
      vi: "B\u1EA3y truy\u1EC1n thuy\u1EBFt mi\u1EC1n T\xE2y s\xF4ng n\u01B0\u1EDBc do c\xE1c ngh\u1EC7 nh\xE2n m\xFAa r\u1ED1i n\u01B0\u1EDBc bi\u1EC3u di\u1EC5n c\xF9ng d\xE0n nh\u1EA1c \u0111\xE0n b\u1EA7u v\xE0 s\xE1o tr\xFAc. Ph\xF9 h\u1EE3p cho tr\u1EBB t\u1EEB b\u1ED1n tu\u1ED5i."
    },
    // Friday and Saturday at 17:00, Sunday at 11:00 and 17:00.
    schedule: { weekdays: [5, 6], times: ["17:00"], capacity: 80, doorsMinutesBefore: 30, extra: { weekdays: [7], times: ["11:00", "17:00"] } }
  },
  {
    code: "JZN",
    slug: "jazz-after-dark",
    canonical: false,
    durationMinutes: 90,
    sortOrder: 3,
    title: { en: "Jazz After Dark", vi: "Jazz v\u1EC1 \u0111\xEAm" },
    summary: {
      en: "A late jazz set with Vietnamese standards reimagined, cocktails and small plates.",
      vi: "\u0110\xEAm nh\u1EA1c jazz mu\u1ED9n v\u1EDBi nh\u1EEFng ca kh\xFAc Vi\u1EC7t kinh \u0111i\u1EC3n \u0111\u01B0\u1EE3c ph\u1ED1i m\u1EDBi, cocktail v\xE0 m\xF3n nh\u1EB9."
    },
    description: {
      en: "The house quintet and a guest vocalist play Tr\u1ECBnh C\xF4ng S\u01A1n and Ph\u1EA1m Duy in the key of Blue Note. Adults only.",
      vi: "Nh\xF3m ng\u0169 t\u1EA5u c\u1EE7a nh\xE0 h\xE1t c\xF9ng ca s\u0129 kh\xE1ch m\u1EDDi tr\xECnh b\xE0y Tr\u1ECBnh C\xF4ng S\u01A1n v\xE0 Ph\u1EA1m Duy theo phong c\xE1ch Blue Note. D\xE0nh cho ng\u01B0\u1EDDi l\u1EDBn."
    },
    // Thursday and Saturday at 21:30.
    schedule: { weekdays: [4, 6], times: ["21:30"], capacity: 60, doorsMinutesBefore: 30 }
  }
];
var DEMO_OFFERS = [
  {
    code: "SGC-DINNER",
    showCode: "SGC",
    bookingPath: "DINNER_SHOW",
    experienceType: "STANDARD",
    pricePerGuestVnd: 165e4,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 1,
    name: { en: "Dinner and show", vi: "\u0102n t\u1ED1i v\xE0 xem bi\u1EC3u di\u1EC5n" },
    description: { en: "Five-course dinner, welcome cocktail and the show.", vi: "B\u1EEFa t\u1ED1i n\u0103m m\xF3n, cocktail ch\xE0o m\u1EEBng v\xE0 ch\u01B0\u01A1ng tr\xECnh bi\u1EC3u di\u1EC5n." },
    items: [
      { code: "MEAL-SET", quantityPerGuest: 1 },
      { code: "DRINK-WELCOME", quantityPerGuest: 1 },
      { code: "MERCH-PROGRAM", quantityPerGuest: 1 }
    ]
  },
  {
    code: "SGC-SHOW",
    showCode: "SGC",
    bookingPath: "SHOW_ONLY",
    experienceType: "ESSENTIAL",
    pricePerGuestVnd: 95e4,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 2,
    name: { en: "Show only", vi: "Ch\u1EC9 xem bi\u1EC3u di\u1EC5n" },
    description: { en: "Balcony seating with a welcome cocktail.", vi: "Gh\u1EBF ban c\xF4ng k\xE8m cocktail ch\xE0o m\u1EEBng." },
    items: [
      { code: "DRINK-WELCOME", quantityPerGuest: 1 },
      { code: "MERCH-PROGRAM", quantityPerGuest: 1 }
    ]
  },
  {
    code: "SGC-VIP",
    showCode: "SGC",
    bookingPath: "VIP_DINNER_SHOW",
    experienceType: "VIP",
    pricePerGuestVnd: 29e5,
    minGuests: 2,
    maxGuests: 8,
    sortOrder: 3,
    name: { en: "VIP dinner and show", vi: "\u0102n t\u1ED1i VIP v\xE0 xem bi\u1EC3u di\u1EC5n" },
    description: {
      en: "Front VIP booth, chef's tasting menu with wine pairing and a personal host.",
      vi: "B\xE0n VIP ph\xEDa tr\u01B0\u1EDBc, th\u1EF1c \u0111\u01A1n n\u1EBFm th\u1EED c\u1EE7a b\u1EBFp tr\u01B0\u1EDFng k\xE8m r\u01B0\u1EE3u vang v\xE0 nh\xE2n vi\xEAn ph\u1EE5c v\u1EE5 ri\xEAng."
    },
    items: [
      { code: "MEAL-TASTING", quantityPerGuest: 1 },
      { code: "DRINK-WINE", quantityPerGuest: 1 },
      { code: "SERVICE-HOST", quantityPerGuest: 1 },
      { code: "MERCH-PROGRAM", quantityPerGuest: 1 }
    ]
  },
  {
    code: "LTS-DINNER",
    showCode: "LTS",
    bookingPath: "DINNER_SHOW",
    experienceType: "FAMILY",
    pricePerGuestVnd: 125e4,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 1,
    name: { en: "Family dinner and show", vi: "B\u1EEFa t\u1ED1i gia \u0111\xECnh v\xE0 xem bi\u1EC3u di\u1EC5n" },
    description: { en: "Early dinner, lotus tea and the puppet show.", vi: "B\u1EEFa t\u1ED1i s\u1EDBm, tr\xE0 sen v\xE0 m\xFAa r\u1ED1i n\u01B0\u1EDBc." },
    items: [
      { code: "MEAL-SET", quantityPerGuest: 1 },
      { code: "DRINK-TEA", quantityPerGuest: 1 }
    ]
  },
  {
    code: "LTS-SHOW",
    showCode: "LTS",
    bookingPath: "SHOW_ONLY",
    experienceType: "ESSENTIAL",
    pricePerGuestVnd: 65e4,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 2,
    name: { en: "Show only", vi: "Ch\u1EC9 xem bi\u1EC3u di\u1EC5n" },
    description: { en: "The puppet show with lotus tea.", vi: "M\xFAa r\u1ED1i n\u01B0\u1EDBc k\xE8m tr\xE0 sen." },
    items: [{ code: "DRINK-TEA", quantityPerGuest: 1 }]
  },
  {
    code: "JZN-SHOW",
    showCode: "JZN",
    bookingPath: "SHOW_ONLY",
    experienceType: "STANDARD",
    pricePerGuestVnd: 75e4,
    minGuests: 1,
    maxGuests: 6,
    sortOrder: 1,
    name: { en: "Jazz set and cocktail", vi: "\u0110\xEAm jazz v\xE0 cocktail" },
    description: { en: "Lounge seating and a signature cocktail.", vi: "Gh\u1EBF lounge v\xE0 m\u1ED9t ly cocktail \u0111\u1EB7c bi\u1EC7t." },
    items: [{ code: "DRINK-WELCOME", quantityPerGuest: 1 }]
  },
  {
    code: "JZN-VIP",
    showCode: "JZN",
    bookingPath: "VIP_DINNER_SHOW",
    experienceType: "PREMIUM",
    pricePerGuestVnd: 18e5,
    minGuests: 2,
    maxGuests: 6,
    sortOrder: 2,
    name: { en: "Stage-side table with supper", vi: "B\xE0n s\xE1t s\xE2n kh\u1EA5u k\xE8m b\u1EEFa khuya" },
    description: { en: "Stage-side table, vegetarian-friendly supper and wine pairing.", vi: "B\xE0n s\xE1t s\xE2n kh\u1EA5u, b\u1EEFa khuya c\xF3 l\u1EF1a ch\u1ECDn chay v\xE0 r\u01B0\u1EE3u vang." },
    items: [
      { code: "MEAL-VEG", quantityPerGuest: 1 },
      { code: "DRINK-WINE", quantityPerGuest: 1 }
    ]
  },
  {
    code: "PRIVATE-EVENT",
    showCode: null,
    bookingPath: "PRIVATE_EVENT",
    experienceType: "PRIVATE",
    pricePerGuestVnd: 22e5,
    minGuests: 20,
    maxGuests: 120,
    sortOrder: 9,
    name: { en: "Private event", vi: "S\u1EF1 ki\u1EC7n ri\xEAng" },
    description: {
      en: "The whole house for a company or wedding party: dinner, drinks package and the show of your choice.",
      vi: "Tr\u1ECDn nh\xE0 h\xE1t cho c\xF4ng ty ho\u1EB7c ti\u1EC7c c\u01B0\u1EDBi: b\u1EEFa t\u1ED1i, g\xF3i \u0111\u1ED3 u\u1ED1ng v\xE0 ch\u01B0\u01A1ng tr\xECnh t\xF9y ch\u1ECDn."
    },
    items: [
      { code: "MEAL-SET", quantityPerGuest: 1 },
      { code: "DRINK-WINE", quantityPerGuest: 1 },
      { code: "SERVICE-HOST", quantityPerGuest: 1 }
    ]
  }
];
var DEMO_TABLES = [
  ...["S1", "S2", "S3", "S4"].map((code, i) => ({ code, zone: "STAGE_FRONT", seats: 4, sortOrder: i + 1 })),
  ...["V1", "V2", "V3", "V4"].map((code, i) => ({ code, zone: "VIP", seats: 6, sortOrder: i + 1 })),
  ...["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8"].map((code, i) => ({ code, zone: "MAIN", seats: i < 4 ? 6 : 4, sortOrder: i + 1 })),
  ...["B1", "B2", "B3", "B4"].map((code, i) => ({ code, zone: "BALCONY", seats: i < 2 ? 4 : 2, sortOrder: i + 1 }))
];
var DEMO_COMMERCIAL_SETUP = {
  bookingCutoffMinutes: 120,
  holdMinutes: 15,
  cancellationWindowHours: 48,
  serviceChargePercent: 5,
  vatPercent: 8,
  paymentGateways: ["VNPAY", "CASH"],
  defaultMaxGuests: 10,
  limitedAvailabilityThreshold: 12
};

// seed/catalog.ts
var zero = /* @__PURE__ */ __name(() => ({ created: 0, updated: 0, unchanged: 0 }), "zero");
var CATALOG_STEPS = ["fulfillment items", "shows", "offers", "tables", "commercial setup", "events", "knowledge", "referrals"];
function ok(what, result) {
  if (result.data === void 0) throw new SeedError(`${what} failed: ${describe3(result.response.status, result.error)}`);
  return result.data;
}
__name(ok, "ok");
async function all(what, page) {
  const rows2 = [];
  for (; ; ) {
    const { items, total } = ok(what, await page(rows2.length));
    rows2.push(...items);
    if (items.length === 0 || rows2.length >= total) return rows2;
  }
}
__name(all, "all");
function sameText(field, wanted, view, untranslated2) {
  return Object.entries(wanted).every(([locale, text]) => view[locale] === text && !untranslated2.includes(`${field}/${locale}`));
}
__name(sameText, "sameText");
var countsOf = /* @__PURE__ */ __name((outcomes) => {
  const counts = zero();
  for (const outcome of outcomes) counts[outcome] += 1;
  return counts;
}, "countsOf");
async function seedFulfillmentItems(client) {
  const items = DEMO_FULFILLMENT_ITEMS.map((item) => ({ code: item.code, kind: item.kind, name: { ...item.name }, dietaryTags: [...item.dietaryTags] }));
  return ok("seeding fulfillment items", await client.POST("/api/sudo/create-fulfillment-items", { body: { items } })).counts;
}
__name(seedFulfillmentItems, "seedFulfillmentItems");
async function seedShows(client) {
  const existing = await all("listing shows", (offset) => client.GET("/api/shows", { params: { query: { limit: 100, offset } } }));
  const outcomes = [];
  const scheduled = [];
  for (const demo of DEMO_SHOWS) {
    const fields = {
      slug: demo.slug,
      title: { ...demo.title },
      summary: { ...demo.summary },
      description: { ...demo.description },
      durationMinutes: demo.durationMinutes,
      canonical: demo.canonical,
      sortOrder: demo.sortOrder
    };
    const show2 = existing.find((row) => row.code === demo.code);
    if (!show2) {
      const created = ok(`creating show ${demo.code}`, await client.POST("/api/shows", { body: { code: demo.code, ...fields } }));
      ok(`publishing show ${demo.code}`, await client.POST("/api/shows/{showId}/publish", { params: { path: { showId: created.id } } }));
      outcomes.push("created");
      scheduled.push(demo.code);
      continue;
    }
    if (show2.status === "ARCHIVED") {
      outcomes.push("unchanged");
      continue;
    }
    const changes = {};
    if (show2.slug !== fields.slug) changes.slug = fields.slug;
    for (const field of ["title", "summary", "description"]) {
      if (!sameText(field, fields[field], show2[field], show2.untranslated)) changes[field] = fields[field];
    }
    if (show2.durationMinutes !== fields.durationMinutes) changes.durationMinutes = fields.durationMinutes;
    if (show2.canonical !== fields.canonical) changes.canonical = fields.canonical;
    if (show2.sortOrder !== fields.sortOrder) changes.sortOrder = fields.sortOrder;
    const edit = Object.keys(changes).length > 0;
    if (edit) ok(`updating show ${demo.code}`, await client.PATCH("/api/shows/{showId}", { params: { path: { showId: show2.id } }, body: changes }));
    const publish2 = show2.status !== "PUBLISHED";
    if (publish2) ok(`publishing show ${demo.code}`, await client.POST("/api/shows/{showId}/publish", { params: { path: { showId: show2.id } } }));
    outcomes.push(edit || publish2 ? "updated" : "unchanged");
    scheduled.push(demo.code);
  }
  return { counts: countsOf(outcomes), scheduled };
}
__name(seedShows, "seedShows");
async function seedOffers(client) {
  const offers = DEMO_OFFERS.map((offer) => ({
    code: offer.code,
    showCode: offer.showCode,
    name: { ...offer.name },
    description: { ...offer.description },
    bookingPath: offer.bookingPath,
    experienceType: offer.experienceType,
    pricePerGuestVnd: offer.pricePerGuestVnd,
    minGuests: offer.minGuests,
    maxGuests: offer.maxGuests,
    sortOrder: offer.sortOrder,
    items: offer.items.map((item) => ({ ...item })),
    status: "ACTIVE"
  }));
  return ok("seeding offers", await client.PUT("/api/sudo/offers", { body: { offers } })).counts;
}
__name(seedOffers, "seedOffers");
async function seedTables(client) {
  const existing = await all("listing tables", (offset) => client.GET("/api/tables", { params: { query: { limit: 100, offset } } }));
  const outcomes = [];
  for (const demo of DEMO_TABLES) {
    const table2 = existing.find((row) => row.code === demo.code);
    if (!table2) {
      ok(`creating table ${demo.code}`, await client.POST("/api/tables", { body: demo }));
      outcomes.push("created");
      continue;
    }
    const changes = {};
    if (table2.zone !== demo.zone) changes.zone = demo.zone;
    if (table2.seats !== demo.seats) changes.seats = demo.seats;
    if (table2.sortOrder !== demo.sortOrder) changes.sortOrder = demo.sortOrder;
    if (Object.keys(changes).length === 0) {
      outcomes.push("unchanged");
      continue;
    }
    ok(`updating table ${demo.code}`, await client.PATCH("/api/tables/{tableId}", { params: { path: { tableId: table2.id } }, body: changes }));
    outcomes.push("updated");
  }
  return countsOf(outcomes);
}
__name(seedTables, "seedTables");
async function seedCommercialSetup(client) {
  const current3 = ok("reading the commercial setup", await client.GET("/api/commercial-setup"));
  const changes = {};
  for (const [field, wanted] of Object.entries(DEMO_COMMERCIAL_SETUP)) {
    const have = current3[field];
    const same = Array.isArray(wanted) ? Array.isArray(have) && [...have].sort().join() === [...wanted].sort().join() : have === wanted;
    if (!same) changes[field] = Array.isArray(wanted) ? [...wanted] : wanted;
  }
  if (Object.keys(changes).length === 0) return { created: 0, updated: 0, unchanged: 1 };
  ok("updating the commercial setup", await client.PATCH("/api/commercial-setup", { body: changes }));
  return { created: 0, updated: 1, unchanged: 0 };
}
__name(seedCommercialSetup, "seedCommercialSetup");
function addDays2(date, days) {
  const [year, month, day2] = date.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day2 + days)).toISOString().slice(0, 10);
}
__name(addDays2, "addDays");
async function seedEvents(client, showCodes) {
  const today = ok("reading the venue date", await client.GET("/api/public/show-events", { params: { query: { limit: 1 } } }));
  const from = today.from;
  const to = addDays2(from, DEMO_WEEKS * 7 - 1);
  const counts = zero();
  for (const show2 of DEMO_SHOWS) {
    if (!showCodes.includes(show2.code)) continue;
    const { schedule } = show2;
    const patterns = [schedule];
    if ("extra" in schedule) patterns.push(schedule.extra);
    for (const pattern of patterns) {
      const body = {
        showCode: show2.code,
        from,
        to,
        weekdays: [...pattern.weekdays],
        times: [...pattern.times],
        capacity: schedule.capacity,
        doorsMinutesBefore: schedule.doorsMinutesBefore,
        salesOpen: true
      };
      const result = ok(`scheduling events of ${show2.code}`, await client.POST("/api/sudo/show-events/batch", { body }));
      counts.created += result.created;
      counts.unchanged += result.unchanged;
    }
  }
  return { ...counts, from, to, timeZone: today.timeZone };
}
__name(seedEvents, "seedEvents");
async function catalogHasShows(client) {
  return ok("listing shows", await client.GET("/api/shows", { params: { query: { limit: 1 } } })).total > 0;
}
__name(catalogHasShows, "catalogHasShows");

// seed/knowledge.ts
var setup = DEMO_COMMERCIAL_SETUP;
var privateEvent = DEMO_OFFERS.find((offer) => offer.bookingPath === "PRIVATE_EVENT");
var show = /* @__PURE__ */ __name((code) => DEMO_SHOWS.find((demo) => demo.code === code), "show");
var chronicles = show("SGC");
var lotus = show("LTS");
var jazz = show("JZN");
var cutoffHours = setup.bookingCutoffMinutes / 60;
var vegetarian = DEMO_OFFERS.filter((offer) => offer.items.some((item) => item.code === "MEAL-VEG"));
var doc = /* @__PURE__ */ __name((topic, tags, en, vi) => [
  { topic, locale: "en", tags, ...en },
  { topic, locale: "vi", tags, ...vi }
], "doc");
var DEMO_KNOWLEDGE = [
  ...doc(
    "dress-code",
    ["policy", "dress-code"],
    {
      title: "Dress code",
      body: [
        "Smart casual is the rule for every show: a collared shirt or blouse, trousers, a dress or a skirt.",
        "",
        "- Not allowed in the dining room: beachwear, tank tops for men, flip-flops and sports shorts.",
        "- VIP booths: long trousers and closed shoes for gentlemen.",
        "- The hall is air-conditioned (around 23 \xB0C): bring a light layer."
      ].join("\n")
    },
    {
      title: "Trang ph\u1EE5c",
      body: [
        "T\u1EA5t c\u1EA3 c\xE1c su\u1EA5t di\u1EC5n \xE1p d\u1EE5ng trang ph\u1EE5c l\u1ECBch s\u1EF1, tho\u1EA3i m\xE1i (smart casual): \xE1o c\xF3 c\u1ED5 ho\u1EB7c \xE1o s\u01A1 mi, qu\u1EA7n d\xE0i, v\xE1y ho\u1EB7c \u0111\u1EA7m.",
        "",
        "- Kh\xF4ng m\u1EB7c trong ph\xF2ng \u0103n: \u0111\u1ED3 \u0111i bi\u1EC3n, \xE1o ba l\u1ED7 (nam), d\xE9p t\xF4ng v\xE0 qu\u1EA7n \u0111\xF9i th\u1EC3 thao.",
        "- B\xE0n VIP: qu\xFD \xF4ng vui l\xF2ng m\u1EB7c qu\u1EA7n d\xE0i v\xE0 gi\xE0y k\xEDn m\u0169i.",
        "- Kh\xE1n ph\xF2ng c\xF3 m\xE1y l\u1EA1nh (kho\u1EA3ng 23 \xB0C): n\xEAn mang theo \xE1o kho\xE1c m\u1ECFng."
      ].join("\n")
    }
  ),
  ...doc(
    "children",
    ["policy", "family", "children"],
    {
      title: "Children and families",
      body: [
        `Children are welcome. ${lotus.title.en} is our family show (from four years old); ${chronicles.title.en} suits children from eight; ${jazz.title.en} is for adults only (18+).`,
        "",
        "- Every guest, children included, needs a seat and pays the listed price per guest.",
        "- Children under 12 must sit with an adult of their party.",
        "- The kitchen can prepare a simpler, mild plate for young children: ask for it when you book or contact us.",
        "- Booster seats are available; strollers can be left at the cloakroom."
      ].join("\n")
    },
    {
      title: "Tr\u1EBB em v\xE0 gia \u0111\xECnh",
      body: [
        `Ch\xFAng t\xF4i ch\xE0o \u0111\xF3n tr\u1EBB em. ${lotus.title.vi} l\xE0 ch\u01B0\u01A1ng tr\xECnh d\xE0nh cho gia \u0111\xECnh (t\u1EEB b\u1ED1n tu\u1ED5i); ${chronicles.title.vi} ph\xF9 h\u1EE3p v\u1EDBi tr\u1EBB t\u1EEB t\xE1m tu\u1ED5i; ${jazz.title.vi} ch\u1EC9 d\xE0nh cho ng\u01B0\u1EDDi l\u1EDBn (t\u1EEB 18 tu\u1ED5i).`,
        "",
        "- M\u1ED7i kh\xE1ch, k\u1EC3 c\u1EA3 tr\u1EBB em, c\u1EA7n m\u1ED9t ch\u1ED7 ng\u1ED3i v\xE0 tr\u1EA3 gi\xE1 ni\xEAm y\u1EBFt theo kh\xE1ch.",
        "- Tr\u1EBB d\u01B0\u1EDBi 12 tu\u1ED5i ph\u1EA3i ng\u1ED3i c\xF9ng ng\u01B0\u1EDDi l\u1EDBn trong nh\xF3m.",
        "- B\u1EBFp c\xF3 th\u1EC3 chu\u1EA9n b\u1ECB m\xF3n \u0103n \u0111\u01A1n gi\u1EA3n, \xEDt cay cho tr\u1EBB nh\u1ECF: vui l\xF2ng b\xE1o khi \u0111\u1EB7t ch\u1ED7 ho\u1EB7c li\xEAn h\u1EC7 ch\xFAng t\xF4i.",
        "- C\xF3 gh\u1EBF n\xE2ng cho tr\u1EBB; xe \u0111\u1EA9y c\xF3 th\u1EC3 g\u1EEDi t\u1EA1i qu\u1EA7y gi\u1EEF \u0111\u1ED3."
      ].join("\n")
    }
  ),
  ...doc(
    "dietary-options",
    ["dining", "dietary", "vegetarian", "allergies"],
    {
      title: "Vegetarian, vegan and allergies",
      body: [
        "Our set menus are Vietnamese and contain seafood; the chef\u2019s tasting menu also contains nuts.",
        "",
        `- A vegetarian five-course menu can replace the set menu on every dinner package${vegetarian.length ? ` and is included with ${vegetarian.map((offer) => offer.name.en).join(", ")}` : ""}.`,
        "- Vegan, gluten-free and no-pork dishes can be prepared on request.",
        "- Allergies: tell us when you book (in the notes) or at least 48 hours before the show, so the kitchen can plan. We cannot guarantee a kitchen free of traces of nuts, shellfish or gluten.",
        "- Alcohol-free drinks replace the welcome cocktail or wine on request."
      ].join("\n")
    },
    {
      title: "M\xF3n chay, thu\u1EA7n chay v\xE0 d\u1ECB \u1EE9ng",
      body: [
        "Th\u1EF1c \u0111\u01A1n set c\u1EE7a ch\xFAng t\xF4i l\xE0 m\xF3n Vi\u1EC7t v\xE0 c\xF3 h\u1EA3i s\u1EA3n; th\u1EF1c \u0111\u01A1n n\u1EBFm th\u1EED c\u1EE7a b\u1EBFp tr\u01B0\u1EDFng c\xF2n c\xF3 c\xE1c lo\u1EA1i h\u1EA1t.",
        "",
        `- Th\u1EF1c \u0111\u01A1n chay n\u0103m m\xF3n c\xF3 th\u1EC3 thay th\u1EF1c \u0111\u01A1n set \u1EDF m\u1ECDi g\xF3i \u0103n t\u1ED1i${vegetarian.length ? ` v\xE0 \u0111\xE3 bao g\u1ED3m trong ${vegetarian.map((offer) => offer.name.vi).join(", ")}` : ""}.`,
        "- M\xF3n thu\u1EA7n chay, kh\xF4ng gluten v\xE0 kh\xF4ng th\u1ECBt heo \u0111\u01B0\u1EE3c chu\u1EA9n b\u1ECB theo y\xEAu c\u1EA7u.",
        "- D\u1ECB \u1EE9ng: vui l\xF2ng ghi ch\xFA khi \u0111\u1EB7t ch\u1ED7 ho\u1EB7c b\xE1o tr\u01B0\u1EDBc gi\u1EDD di\u1EC5n \xEDt nh\u1EA5t 48 gi\u1EDD \u0111\u1EC3 b\u1EBFp chu\u1EA9n b\u1ECB. Ch\xFAng t\xF4i kh\xF4ng th\u1EC3 \u0111\u1EA3m b\u1EA3o b\u1EBFp ho\xE0n to\xE0n kh\xF4ng c\xF3 d\u1EA5u v\u1EBFt c\u1EE7a h\u1EA1t, \u0111\u1ED9ng v\u1EADt c\xF3 v\u1ECF ho\u1EB7c gluten.",
        "- C\xF3 \u0111\u1ED3 u\u1ED1ng kh\xF4ng c\u1ED3n thay cho cocktail ch\xE0o m\u1EEBng ho\u1EB7c r\u01B0\u1EE3u vang theo y\xEAu c\u1EA7u."
      ].join("\n")
    }
  ),
  ...doc(
    "arrival-time",
    ["arrival", "doors", "timing"],
    {
      title: "When to arrive",
      body: [
        `Doors open ${chronicles.schedule.doorsMinutesBefore} minutes before ${chronicles.title.en} and ${lotus.schedule.doorsMinutesBefore} minutes before ${lotus.title.en} and ${jazz.title.en}. Dinner is served from the moment doors open, so guests with a dinner package should arrive when doors open.`,
        "",
        "- Show-only guests: arrive at least 15 minutes before showtime.",
        "- Latecomers are seated at a suitable moment so the performance is not interrupted; dinner courses already served cannot be held back.",
        `- Online booking closes ${cutoffHours} hours before showtime; after that, call us and we will do our best.`
      ].join("\n")
    },
    {
      title: "N\xEAn \u0111\u1EBFn l\xFAc n\xE0o",
      body: [
        `C\u1EEDa m\u1EDF ${chronicles.schedule.doorsMinutesBefore} ph\xFAt tr\u01B0\u1EDBc ${chronicles.title.vi} v\xE0 ${lotus.schedule.doorsMinutesBefore} ph\xFAt tr\u01B0\u1EDBc ${lotus.title.vi} v\xE0 ${jazz.title.vi}. B\u1EEFa t\u1ED1i \u0111\u01B0\u1EE3c ph\u1EE5c v\u1EE5 ngay khi m\u1EDF c\u1EEDa, v\xEC v\u1EADy kh\xE1ch \u0111\u1EB7t g\xF3i \u0103n t\u1ED1i n\xEAn \u0111\u1EBFn \u0111\xFAng gi\u1EDD m\u1EDF c\u1EEDa.`,
        "",
        "- Kh\xE1ch ch\u1EC9 xem bi\u1EC3u di\u1EC5n: vui l\xF2ng \u0111\u1EBFn tr\u01B0\u1EDBc gi\u1EDD di\u1EC5n \xEDt nh\u1EA5t 15 ph\xFAt.",
        "- Kh\xE1ch \u0111\u1EBFn mu\u1ED9n s\u1EBD \u0111\u01B0\u1EE3c m\u1EDDi v\xE0o ch\u1ED7 v\xE0o th\u1EDDi \u0111i\u1EC3m ph\xF9 h\u1EE3p \u0111\u1EC3 kh\xF4ng l\xE0m gi\xE1n \u0111o\u1EA1n bu\u1ED5i di\u1EC5n; c\xE1c m\xF3n \u0111\xE3 ph\u1EE5c v\u1EE5 kh\xF4ng th\u1EC3 gi\u1EEF l\u1EA1i.",
        `- \u0110\u1EB7t ch\u1ED7 tr\u1EF1c tuy\u1EBFn \u0111\xF3ng ${cutoffHours} gi\u1EDD tr\u01B0\u1EDBc gi\u1EDD di\u1EC5n; sau \u0111\xF3 vui l\xF2ng g\u1ECDi \u0111i\u1EC7n, ch\xFAng t\xF4i s\u1EBD c\u1ED1 g\u1EAFng h\u1ED7 tr\u1EE3.`
      ].join("\n")
    }
  ),
  ...doc(
    "parking",
    ["location", "parking", "transport"],
    {
      title: "Parking and getting here",
      body: [
        "- Motorbikes: free guarded parking at the main entrance.",
        "- Cars: the public car park of the building next door (paid, open until midnight); our doorman can help with directions.",
        "- Taxi and ride-hailing (Grab, Be, Xanh SM): drop-off and pick-up right at the main entrance.",
        "- We are a ten-minute walk from Nguy\u1EC5n Hu\u1EC7 walking street."
      ].join("\n")
    },
    {
      title: "G\u1EEDi xe v\xE0 \u0111\u01B0\u1EDDng \u0111\u1EBFn",
      body: [
        "- Xe m\xE1y: gi\u1EEF xe mi\u1EC5n ph\xED, c\xF3 b\u1EA3o v\u1EC7, ngay l\u1ED1i v\xE0o ch\xEDnh.",
        "- \xD4 t\xF4: b\xE3i \u0111\u1ED7 xe c\xF4ng c\u1ED9ng c\u1EE7a t\xF2a nh\xE0 b\xEAn c\u1EA1nh (c\xF3 thu ph\xED, m\u1EDF c\u1EEDa \u0111\u1EBFn n\u1EEDa \u0111\xEAm); nh\xE2n vi\xEAn c\u1EEDa s\u1EBD h\u01B0\u1EDBng d\u1EABn.",
        "- Taxi v\xE0 xe c\xF4ng ngh\u1EC7 (Grab, Be, Xanh SM): \u0111\xF3n v\xE0 tr\u1EA3 kh\xE1ch ngay l\u1ED1i v\xE0o ch\xEDnh.",
        "- C\xE1ch ph\u1ED1 \u0111i b\u1ED9 Nguy\u1EC5n Hu\u1EC7 m\u01B0\u1EDDi ph\xFAt \u0111i b\u1ED9."
      ].join("\n")
    }
  ),
  ...doc(
    "cancellation-refund",
    ["policy", "booking", "cancellation", "refund", "payment"],
    {
      title: "Cancellation and refund policy",
      body: [
        `You can cancel a booking free of charge up to ${setup.cancellationWindowHours} hours before showtime, with the link in your confirmation e-mail. A paid booking cancelled in time is refunded in full to the original payment method (VNPay refunds usually arrive within 5\u20137 working days).`,
        "",
        `- Less than ${setup.cancellationWindowHours} hours before showtime, or a no-show: no refund. Contact us and we will try to move you to another date, subject to availability.`,
        "- If we cancel a performance, you are refunded in full automatically, or moved to another date if you prefer.",
        `- An unpaid booking is held for ${setup.holdMinutes} minutes, then released.`,
        `- Prices shown include a ${setup.serviceChargePercent}% service charge and ${setup.vatPercent}% VAT.`
      ].join("\n")
    },
    {
      title: "Ch\xEDnh s\xE1ch h\u1EE7y v\xE0 ho\xE0n ti\u1EC1n",
      body: [
        `Qu\xFD kh\xE1ch c\xF3 th\u1EC3 h\u1EE7y \u0111\u1EB7t ch\u1ED7 mi\u1EC5n ph\xED \u0111\u1EBFn ${setup.cancellationWindowHours} gi\u1EDD tr\u01B0\u1EDBc gi\u1EDD di\u1EC5n b\u1EB1ng \u0111\u01B0\u1EDDng d\u1EABn trong e-mail x\xE1c nh\u1EADn. \u0110\u1EB7t ch\u1ED7 \u0111\xE3 thanh to\xE1n v\xE0 h\u1EE7y \u0111\xFAng h\u1EA1n \u0111\u01B0\u1EE3c ho\xE0n ti\u1EC1n \u0111\u1EA7y \u0111\u1EE7 v\u1EC1 ph\u01B0\u01A1ng th\u1EE9c thanh to\xE1n ban \u0111\u1EA7u (ho\xE0n ti\u1EC1n qua VNPay th\u01B0\u1EDDng m\u1EA5t 5\u20137 ng\xE0y l\xE0m vi\u1EC7c).`,
        "",
        `- H\u1EE7y trong v\xF2ng ${setup.cancellationWindowHours} gi\u1EDD tr\u01B0\u1EDBc gi\u1EDD di\u1EC5n, ho\u1EB7c kh\xF4ng \u0111\u1EBFn: kh\xF4ng ho\xE0n ti\u1EC1n. Vui l\xF2ng li\xEAn h\u1EC7, ch\xFAng t\xF4i s\u1EBD c\u1ED1 g\u1EAFng \u0111\u1ED5i sang ng\xE0y kh\xE1c n\u1EBFu c\xF2n ch\u1ED7.`,
        "- N\u1EBFu ch\xFAng t\xF4i h\u1EE7y su\u1EA5t di\u1EC5n, qu\xFD kh\xE1ch \u0111\u01B0\u1EE3c ho\xE0n ti\u1EC1n \u0111\u1EA7y \u0111\u1EE7 t\u1EF1 \u0111\u1ED9ng, ho\u1EB7c \u0111\u1ED5i sang ng\xE0y kh\xE1c n\u1EBFu mu\u1ED1n.",
        `- \u0110\u1EB7t ch\u1ED7 ch\u01B0a thanh to\xE1n \u0111\u01B0\u1EE3c gi\u1EEF trong ${setup.holdMinutes} ph\xFAt, sau \u0111\xF3 t\u1EF1 \u0111\u1ED9ng h\u1EE7y.`,
        `- Gi\xE1 hi\u1EC3n th\u1ECB \u0111\xE3 bao g\u1ED3m ${setup.serviceChargePercent}% ph\xED ph\u1EE5c v\u1EE5 v\xE0 ${setup.vatPercent}% VAT.`
      ].join("\n")
    }
  ),
  ...doc(
    "private-events",
    ["private-events", "groups", "corporate", "weddings"],
    {
      title: "Private events and groups",
      body: [
        `The whole house can be booked for a company party, a wedding or a celebration, for ${privateEvent.minGuests} to ${privateEvent.maxGuests} guests: dinner, a drinks package and the show of your choice.`,
        "",
        "- Send us a request on the inquiries page with your preferred date, the number of guests and what you have in mind; our events team answers within one working day.",
        `- Groups larger than a regular booking allows (usually more than ${setup.defaultMaxGuests} guests) also book through the inquiries page.`,
        "- Custom menus, branding, speeches and photo sessions can be arranged."
      ].join("\n")
    },
    {
      title: "S\u1EF1 ki\u1EC7n ri\xEAng v\xE0 \u0111o\xE0n kh\xE1ch",
      body: [
        `Qu\xFD kh\xE1ch c\xF3 th\u1EC3 thu\xEA tr\u1ECDn nh\xE0 h\xE1t cho ti\u1EC7c c\xF4ng ty, ti\u1EC7c c\u01B0\u1EDBi ho\u1EB7c l\u1EC5 k\u1EF7 ni\u1EC7m, t\u1EEB ${privateEvent.minGuests} \u0111\u1EBFn ${privateEvent.maxGuests} kh\xE1ch: b\u1EEFa t\u1ED1i, g\xF3i \u0111\u1ED3 u\u1ED1ng v\xE0 ch\u01B0\u01A1ng tr\xECnh bi\u1EC3u di\u1EC5n t\xF9y ch\u1ECDn.`,
        "",
        "- Vui l\xF2ng g\u1EEDi y\xEAu c\u1EA7u t\u1EA1i trang li\xEAn h\u1EC7 \u0111\u1EB7t ti\u1EC7c v\u1EDBi ng\xE0y mong mu\u1ED1n, s\u1ED1 kh\xE1ch v\xE0 \xFD t\u01B0\u1EDFng c\u1EE7a qu\xFD kh\xE1ch; b\u1ED9 ph\u1EADn s\u1EF1 ki\u1EC7n s\u1EBD ph\u1EA3n h\u1ED3i trong v\xF2ng m\u1ED9t ng\xE0y l\xE0m vi\u1EC7c.",
        `- \u0110o\xE0n \u0111\xF4ng h\u01A1n m\u1EE9c m\u1ED9t l\u1EA7n \u0111\u1EB7t ch\u1ED7 th\xF4ng th\u01B0\u1EDDng (th\u01B0\u1EDDng tr\xEAn ${setup.defaultMaxGuests} kh\xE1ch) c\u0169ng \u0111\u1EB7t qua trang li\xEAn h\u1EC7 n\xE0y.`,
        "- C\xF3 th\u1EC3 s\u1EAFp x\u1EBFp th\u1EF1c \u0111\u01A1n ri\xEAng, trang tr\xED th\u01B0\u01A1ng hi\u1EC7u, ph\xE1t bi\u1EC3u v\xE0 ch\u1EE5p \u1EA3nh."
      ].join("\n")
    }
  ),
  ...doc(
    "accessibility",
    ["accessibility", "wheelchair"],
    {
      title: "Accessibility",
      body: [
        "- Step-free entrance from the street and a lift to every floor, including the balcony.",
        "- Wheelchair-accessible tables on the main floor and an accessible restroom.",
        "- Assistance dogs are welcome.",
        "- The shows use live drums and strobe-free stage lighting; ear plugs are available at the cloakroom.",
        "- Tell us about any need when you book (in the notes) so we can prepare the right table."
      ].join("\n")
    },
    {
      title: "H\u1ED7 tr\u1EE3 ng\u01B0\u1EDDi khuy\u1EBFt t\u1EADt",
      body: [
        "- L\u1ED1i v\xE0o kh\xF4ng b\u1EADc th\u1EC1m t\u1EEB m\u1EB7t \u0111\u01B0\u1EDDng v\xE0 thang m\xE1y l\xEAn m\u1ECDi t\u1EA7ng, k\u1EC3 c\u1EA3 ban c\xF4ng.",
        "- B\xE0n cho xe l\u0103n \u1EDF t\u1EA7ng ch\xEDnh v\xE0 nh\xE0 v\u1EC7 sinh d\xE0nh cho ng\u01B0\u1EDDi khuy\u1EBFt t\u1EADt.",
        "- Ch\xE0o \u0111\xF3n ch\xF3 h\u1ED7 tr\u1EE3.",
        "- Bu\u1ED5i di\u1EC5n c\xF3 tr\u1ED1ng bi\u1EC3u di\u1EC5n tr\u1EF1c ti\u1EBFp v\xE0 \xE1nh s\xE1ng s\xE2n kh\u1EA5u kh\xF4ng nh\u1EA5p nh\xE1y; c\xF3 n\xFAt b\u1ECBt tai t\u1EA1i qu\u1EA7y gi\u1EEF \u0111\u1ED3.",
        "- Vui l\xF2ng ghi ch\xFA nhu c\u1EA7u khi \u0111\u1EB7t ch\u1ED7 \u0111\u1EC3 ch\xFAng t\xF4i chu\u1EA9n b\u1ECB b\xE0n ph\xF9 h\u1EE3p."
      ].join("\n")
    }
  ),
  ...doc(
    "contact-location",
    ["contact", "location", "address", "opening-hours"],
    {
      title: "Contact and location",
      body: [
        "Saigon Stage, 12 T\xF4n \u0110\u1EE9c Th\u1EAFng, S\xE0i G\xF2n ward, District 1, Ho Chi Minh City.",
        "",
        "- Phone and Zalo: +84 28 3822 0199 (10:00\u201322:00 every day).",
        "- E-mail: hello@saigonstage.example (answered within one working day).",
        "- Box office at the entrance: open from 16:00 on show days.",
        "- For groups and private events, use the inquiries page."
      ].join("\n")
    },
    {
      title: "Li\xEAn h\u1EC7 v\xE0 \u0111\u1ECBa ch\u1EC9",
      body: [
        "Saigon Stage, 12 T\xF4n \u0110\u1EE9c Th\u1EAFng, ph\u01B0\u1EDDng S\xE0i G\xF2n, Qu\u1EADn 1, TP. H\u1ED3 Ch\xED Minh.",
        "",
        "- \u0110i\u1EC7n tho\u1EA1i v\xE0 Zalo: +84 28 3822 0199 (10:00\u201322:00 h\u1EB1ng ng\xE0y).",
        "- E-mail: hello@saigonstage.example (ph\u1EA3n h\u1ED3i trong v\xF2ng m\u1ED9t ng\xE0y l\xE0m vi\u1EC7c).",
        "- Qu\u1EA7y v\xE9 t\u1EA1i l\u1ED1i v\xE0o: m\u1EDF c\u1EEDa t\u1EEB 16:00 v\xE0o ng\xE0y c\xF3 su\u1EA5t di\u1EC5n.",
        "- \u0110o\xE0n kh\xE1ch v\xE0 s\u1EF1 ki\u1EC7n ri\xEAng: vui l\xF2ng g\u1EEDi y\xEAu c\u1EA7u qua trang li\xEAn h\u1EC7 \u0111\u1EB7t ti\u1EC7c."
      ].join("\n")
    }
  ),
  ...doc(
    "payment-methods",
    ["payment", "booking"],
    {
      title: "Paying for your booking",
      body: [
        `We accept ${setup.paymentGateways.map((gateway) => gateway === "VNPAY" ? "VNPay (Vietnamese bank cards, QR and international cards)" : gateway === "CASH" ? "cash at the box office" : gateway).join(" and ")}. Prices are in Vietnamese \u0111\u1ED3ng (VND) and include a ${setup.serviceChargePercent}% service charge and ${setup.vatPercent}% VAT.`,
        "",
        `- Online bookings are held for ${setup.holdMinutes} minutes while you pay.`,
        "- A VAT invoice (h\xF3a \u0111\u01A1n \u0111\u1ECF) can be issued: give the company details at the box office on the day."
      ].join("\n")
    },
    {
      title: "Thanh to\xE1n \u0111\u1EB7t ch\u1ED7",
      body: [
        `Ch\xFAng t\xF4i nh\u1EADn ${setup.paymentGateways.map((gateway) => gateway === "VNPAY" ? "VNPay (th\u1EBB ng\xE2n h\xE0ng Vi\u1EC7t Nam, QR v\xE0 th\u1EBB qu\u1ED1c t\u1EBF)" : gateway === "CASH" ? "ti\u1EC1n m\u1EB7t t\u1EA1i qu\u1EA7y v\xE9" : gateway).join(" v\xE0 ")}. Gi\xE1 t\xEDnh b\u1EB1ng \u0111\u1ED3ng Vi\u1EC7t Nam (VND), \u0111\xE3 bao g\u1ED3m ${setup.serviceChargePercent}% ph\xED ph\u1EE5c v\u1EE5 v\xE0 ${setup.vatPercent}% VAT.`,
        "",
        `- \u0110\u1EB7t ch\u1ED7 tr\u1EF1c tuy\u1EBFn \u0111\u01B0\u1EE3c gi\u1EEF trong ${setup.holdMinutes} ph\xFAt trong l\xFAc qu\xFD kh\xE1ch thanh to\xE1n.`,
        "- C\xF3 xu\u1EA5t h\xF3a \u0111\u01A1n \u0111\u1ECF (VAT): vui l\xF2ng cung c\u1EA5p th\xF4ng tin c\xF4ng ty t\u1EA1i qu\u1EA7y v\xE9 trong ng\xE0y di\u1EC5n."
      ].join("\n")
    }
  )
];
var sameTags = /* @__PURE__ */ __name((a, b) => a.length === b.length && a.every((tag, i) => tag === b[i]), "sameTags");
async function seedKnowledge(client) {
  const existing = await all("listing knowledge", (offset) => client.GET("/api/ai/knowledge", { params: { query: { limit: 100, offset } } }));
  const outcomes = [];
  for (const demo of DEMO_KNOWLEDGE) {
    const name = `${demo.topic} (${demo.locale})`;
    const matches = existing.filter((row) => row.topic === demo.topic && row.locale === demo.locale);
    const live = matches.find((row) => row.status !== "ARCHIVED");
    if (!live && matches.length) {
      outcomes.push("unchanged");
      continue;
    }
    if (!live) {
      const created = ok(`creating knowledge ${name}`, await client.POST("/api/ai/knowledge", { body: { ...demo, tags: [...demo.tags] } }));
      ok(`publishing knowledge ${name}`, await client.POST("/api/ai/knowledge/{documentId}/publish", { params: { path: { documentId: created.id } } }));
      outcomes.push("created");
      continue;
    }
    const changes = {};
    if (live.title !== demo.title) changes.title = demo.title;
    if (live.body !== demo.body) changes.body = demo.body;
    if (!sameTags(live.tags, demo.tags)) changes.tags = [...demo.tags];
    const edit = Object.keys(changes).length > 0;
    if (edit) ok(`updating knowledge ${name}`, await client.PATCH("/api/ai/knowledge/{documentId}", { params: { path: { documentId: live.id } }, body: changes }));
    const publish2 = live.status !== "PUBLISHED";
    if (publish2) ok(`publishing knowledge ${name}`, await client.POST("/api/ai/knowledge/{documentId}/publish", { params: { path: { documentId: live.id } } }));
    outcomes.push(edit || publish2 ? "updated" : "unchanged");
  }
  return countsOf(outcomes);
}
__name(seedKnowledge, "seedKnowledge");

// seed/referrals.ts
var DEMO_PARTNERS = [
  {
    name: "Riverside Boutique Hotel",
    type: "HOTEL",
    publicSlug: "riverside-hotel",
    contactEmail: "concierge@riverside-hotel.example",
    city: "Ho Chi Minh City",
    description: "A boutique hotel on the Saigon river; the concierge books the show for guests.",
    commissionRule: { kind: "PERCENT", value: 10 },
    code: { code: "RIVERSIDE10", guestDiscountPercent: 10 },
    link: { slug: "riverside-lobby", channel: "QR_STICKER", destination: "/shows", label: "Lobby sticker" }
  },
  {
    name: "Saigon Night Tours",
    type: "TOUR_COMPANY",
    publicSlug: "saigon-night-tours",
    contactEmail: "hello@saigon-night-tours.example",
    city: "Ho Chi Minh City",
    description: "Evening tours of the city that end at the show.",
    commissionRule: { kind: "FIXED_PER_GUEST", value: 1e5 },
    code: { code: "NIGHTTOURS", guestDiscountPercent: 0 },
    link: { slug: "night-tours-bus", channel: "QR_STICKER", destination: "/", label: "Tour bus sticker" }
  }
];
function ok2(what, result) {
  if (result.data === void 0) throw new SeedError(`${what} failed: ${describe3(result.response.status, result.error)}`);
  return result.data;
}
__name(ok2, "ok");
async function seedReferrals(client) {
  const outcomes = [];
  const partners = ok2("listing referral partners", await client.GET("/api/referral-partners/admin", { params: { query: { limit: 100 } } })).items;
  let guest = 0;
  for (const demo of DEMO_PARTNERS) {
    const { code: demoCode, link: demoLink, ...fields } = demo;
    let partner = partners.find((p) => p.publicSlug === demo.publicSlug);
    if (partner) outcomes.push("unchanged");
    else {
      partner = ok2(`creating partner ${demo.publicSlug}`, await client.POST("/api/referral-partners/admin", { body: { ...fields, status: "ACTIVE", commissionRule: { ...fields.commissionRule } } }));
      outcomes.push("created");
    }
    const codes = ok2("listing referral codes", await client.GET("/api/referral-codes", { params: { query: { partnerId: partner.id, limit: 100 } } })).items;
    let code = codes.find((c) => c.code === demoCode.code);
    if (code) outcomes.push("unchanged");
    else {
      code = ok2(`creating code ${demoCode.code}`, await client.POST("/api/referral-codes", { body: { ...demoCode, partnerId: partner.id } }));
      outcomes.push("created");
    }
    const links = ok2("listing referral links", await client.GET("/api/referral-links", { params: { query: { partnerId: partner.id, limit: 100 } } })).items;
    if (links.some((l) => l.slug === demoLink.slug)) outcomes.push("unchanged");
    else {
      ok2(`creating link ${demoLink.slug}`, await client.POST("/api/referral-links", { body: { ...demoLink, partnerId: partner.id, codeId: code.id } }));
      outcomes.push("created");
    }
    const commissions = ok2("listing commissions", await client.GET("/api/referral-commissions", { params: { query: { partnerId: partner.id, limit: 1 } } }));
    if (commissions.total > 0 || partner.status !== "ACTIVE") continue;
    const events = ok2("listing public events", await client.GET("/api/public/show-events", { params: { query: { limit: 20 } } })).items;
    const bookable = events.filter((e) => e.offerCodes.length > 0 && !e.cancelled && e.state !== "CLOSED" && e.state !== "SOLD_OUT");
    for (let n = 0; n < 2 && n < bookable.length; n++) {
      const event2 = bookable[bookable.length - 1 - n];
      guest += 1;
      const resolved = ok2(`resolving ${demoLink.slug}`, await client.POST("/api/referral-links/resolve/{slug}", { params: { path: { slug: demoLink.slug } }, body: {} }));
      const email = `referral-demo-${demo.publicSlug}-${n + 1}@example.com`;
      const held = ok2(
        "booking an attributed reservation",
        await client.POST("/api/public/reservations", {
          body: {
            eventSlug: event2.slug,
            offerCode: event2.offerCodes[0],
            guestCount: 2,
            contact: { name: `Referral Guest ${guest}`, email },
            referral: { code: resolved.attribution.code ?? void 0, linkSlug: resolved.attribution.linkSlug, partnerSlug: resolved.attribution.partnerSlug, attributionToken: resolved.attribution.token }
          }
        })
      );
      const customers = ok2("finding the booking", await client.GET("/api/customers", { params: { query: { q: held.reference } } })).items;
      const detail = ok2("reading the customer", await client.GET("/api/customers/{customerId}", { params: { path: { customerId: customers[0].id } } }));
      const reservation = detail.bookings.find((b) => b.reference === held.reference);
      if (!reservation) throw new SeedError(`the booking ${held.reference} is not in its customer's history`);
      ok2("recording the payment", await client.POST("/api/payments", { body: { reservationId: reservation.id, method: "CASH", note: "Demo referral booking" } }));
      outcomes.push("created");
    }
  }
  return countsOf(outcomes);
}
__name(seedReferrals, "seedReferrals");

// seed/index.ts
var SEED_STEPS = ["accounts", ...CATALOG_STEPS];
var accountCounts = /* @__PURE__ */ __name((accounts) => ({
  created: accounts.filter((row) => row.account === "created").length,
  updated: accounts.filter((row) => row.account === "existing" && row.membership !== "unchanged").length,
  unchanged: accounts.filter((row) => row.account === "existing" && row.membership === "unchanged").length
}), "accountCounts");
async function seed(options) {
  const client = "client" in options ? options.client : createClient2({ baseUrl: options.baseUrl, superuserToken: options.superuserToken });
  const steps = [];
  const step = /* @__PURE__ */ __name(async (resource, run) => {
    options.onProgress?.({ resource, state: "running" });
    const report = { resource, ...await run() };
    steps.push(report);
    options.onProgress?.({ resource, state: "done", report });
  }, "step");
  let accounts = [];
  await step("accounts", async () => {
    accounts = await seedAccounts(client, options);
    return accountCounts(accounts);
  });
  const mode = options.catalog ?? "always";
  const skip = mode === "never" ? "not asked for" : mode === "when-empty" && await catalogHasShows(client) ? "the catalog already has shows" : void 0;
  if (skip) {
    for (const resource of CATALOG_STEPS) await step(resource, async () => ({ created: 0, updated: 0, unchanged: 0, skipped: skip }));
  } else {
    let scheduled = [];
    await step("fulfillment items", () => seedFulfillmentItems(client));
    await step("shows", async () => {
      const shows = await seedShows(client);
      scheduled = shows.scheduled;
      return shows.counts;
    });
    await step("offers", () => seedOffers(client));
    await step("tables", () => seedTables(client));
    await step("commercial setup", () => seedCommercialSetup(client));
    await step("events", async () => {
      const { from, to, timeZone, ...counts } = await seedEvents(client, scheduled);
      return { ...counts, note: `${from} to ${to} (${timeZone})` };
    });
    await step("knowledge", () => seedKnowledge(client));
    await step("referrals", () => seedReferrals(client));
  }
  return { accounts, steps, changed: steps.some((row) => row.created + row.updated > 0) };
}
__name(seed, "seed");
function formatSeedResult(result) {
  const pad = /* @__PURE__ */ __name((text, width) => String(text).padStart(width), "pad");
  const lines = [`${"resource".padEnd(18)}${pad("created", 9)}${pad("updated", 9)}${pad("unchanged", 11)}`];
  for (const row of result.steps) {
    const counts = row.skipped ? `  skipped: ${row.skipped}` : `${pad(row.created, 9)}${pad(row.updated, 9)}${pad(row.unchanged, 11)}`;
    lines.push(`${row.resource.padEnd(18)}${counts}${row.note ? `   ${row.note}` : ""}`);
  }
  lines.push(result.changed ? "Seeded: see the counts above." : "Nothing changed: everything was already seeded.");
  return lines.join("\n");
}
__name(formatSeedResult, "formatSeedResult");

// server/cli/devSecrets.ts
var readStored = /* @__PURE__ */ __name((file) => fs11.existsSync(file) ? JSON.parse(fs11.readFileSync(file, "utf8")) : {}, "readStored");
function writeStored(dataDir, file, stored) {
  fs11.mkdirSync(dataDir, { recursive: true });
  fs11.writeFileSync(file, JSON.stringify(stored, null, 2) + "\n", { mode: 384 });
  fs11.chmodSync(file, 384);
}
__name(writeStored, "writeStored");
function prepareDevelopmentSecrets(config) {
  const fromEnv = Object.fromEntries(Object.entries(config.seedPasswords).filter(([, value]) => value));
  if (config.nodeEnv === "production") {
    return { config, passwords: fromEnv, generatedPasswords: {}, generatedToken: false };
  }
  const file = path13.join(config.dataDir, "dev-credentials.json");
  const stored = readStored(file);
  const generatedPasswords = {};
  const passwords = { ...stored.passwords, ...fromEnv };
  for (const { username } of SEED_ACCOUNTS) {
    if (!passwords[username]) passwords[username] = generatedPasswords[username] = randomToken(12);
  }
  let tokens = config.superuserApiTokens;
  let generatedToken = false;
  if (tokens.length === 0) {
    if (!stored.superuserToken) {
      stored.superuserToken = `dev_${randomToken(32)}`;
      generatedToken = true;
      writeStored(config.dataDir, file, stored);
    }
    tokens = [stored.superuserToken];
  }
  return { config: { ...config, superuserApiTokens: tokens }, passwords, generatedPasswords, generatedToken, file };
}
__name(prepareDevelopmentSecrets, "prepareDevelopmentSecrets");
function recordSeededPassword(dev, username) {
  const password = dev.passwords[username];
  if (!dev.file || !password) return;
  const stored = readStored(dev.file);
  writeStored(dev.config.dataDir, dev.file, { ...stored, passwords: { ...stored.passwords, [username]: password } });
}
__name(recordSeededPassword, "recordSeededPassword");
function printSignInHelp(baseUrl, config, dev, seeded) {
  const lines = [``, `Venue backend listening on ${baseUrl}  (database: ${config.databaseUrl ? "PostgreSQL" : `embedded, ${config.dataDir}`})`];
  lines.push(`Dashboard sign-in: POST ${baseUrl}/api/auth/sign-in {"identifier": "admin" | "marketing" | "staff", "password": \u2026}`);
  const created = (seeded ?? []).filter((row) => row.account === "created").map((row) => row.username);
  if (created.length) {
    lines.push(`Accounts created now${dev.file ? ` (passwords recorded in ${dev.file})` : ""}:`);
    for (const username of created) {
      const generated = dev.generatedPasswords[username];
      lines.push(`  ${username.padEnd(10)} ${generated ?? `password from SEED_${username.toUpperCase()}_PASSWORD or ${dev.file ?? "the environment"}`}`);
    }
    if (created.some((username) => dev.generatedPasswords[username])) lines.push("  (generated passwords are shown this once; set SEED_<NAME>_PASSWORD to choose your own)");
  }
  const existing = (seeded ?? []).filter((row) => row.account === "existing").map((row) => row.username);
  if (existing.length) {
    lines.push(`Existing accounts (${existing.join(", ")}) keep the password set when they were created or changed since${dev.file ? `; ${dev.file} holds the ones the seeder set` : ""}.`);
  }
  if (!seeded) {
    lines.push(
      `Accounts are not seeded on this start (${config.databaseUrl ? "DATABASE_URL is set" : "SEED_ON_START=false"}): \`npm run seed\` creates them and prints, or records${dev.file ? ` in ${dev.file}` : ""}, the passwords it sets.`
    );
  }
  if (config.nodeEnv !== "production" && config.superuserApiTokens[0]) {
    lines.push(`Superuser token for the terminal app (development only): ${config.superuserApiTokens[0]}`);
  }
  console.log(lines.join("\n") + "\n");
}
__name(printSignInHelp, "printSignInHelp");

// server/main.ts
async function main() {
  const timeline = new StartupTimeline();
  let config = loadConfig();
  const logger = createLogger(config.logLevel);
  timeline.attach(logger);
  for (const notice of config.deprecations) logger.warn(notice);
  assertProductionReady(config);
  let shutdown = /* @__PURE__ */ __name((signal) => {
    logger.warn({ signal }, "stopped while starting");
    logger.flush();
    process.exit(128 + os2.constants.signals[signal]);
  }, "shutdown");
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  const dev = prepareDevelopmentSecrets(config);
  config = dev.config;
  timeline.mark("config");
  if (!config.databaseUrl && config.dataDir !== "memory") {
    const pgdata = path14.join(config.dataDir, "pgdata");
    if (!holdsDatabase(pgdata)) {
      const notFrom = await startFromTemplate(pgdata);
      logger.debug({ pgdata, ...notFrom ? { notFromTemplate: notFrom } : {} }, notFrom ? "new embedded database: initdb and migrations" : "new embedded database from the build's template");
      timeline.mark(notFrom ? "new data directory" : "data directory from the template");
    }
  }
  const db = openConfiguredDatabase(config);
  await db.knex.raw("select 1");
  timeline.mark("database open");
  const migrated = await migrateLatestExclusive(db);
  if (migrated.applied.length) logger.info({ applied: migrated.applied }, "migrations applied");
  timeline.mark(migrated.applied.length ? "migrations applied" : "migrations checked");
  const jobs8 = createJobEngine({ config, db, logger, queues: QUEUES });
  const tracing = await loadTracing(config, logger);
  const app = createApp({ config, db, logger, jobs: jobs8, tracing });
  timeline.mark("app (contract, routes)");
  await jobs8.start({ app: app.context });
  timeline.mark("job engine");
  const { koa } = app;
  const role = config.processRole;
  const server = http2.createServer(role === "worker" ? healthOnly(koa.callback()) : koa.callback());
  server.on("clientError", clientErrorHandler(logger));
  server.keepAliveTimeout = 65e3;
  await new Promise((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const baseUrl = `http://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`;
  logger.info({ baseUrl, database: db.kind, role, jobWorkers: jobs8.workers }, "listening");
  let metricsServer;
  if (app.context.metrics && config.metrics.port !== void 0) {
    metricsServer = await startMetricsServer(app.context.metrics, { port: config.metrics.port, host: config.metrics.host, token: config.metrics.token, logger });
  }
  timeline.mark("listen");
  timeline.summary("start-up timeline: listening");
  if (role !== "worker") noteOwnAddress(app.context, socketBaseUrl(config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host, port) ?? baseUrl);
  let closing = false;
  shutdown = /* @__PURE__ */ __name((signal) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      logger.error("in-flight requests did not finish in 10 s; closing anyway");
      server.closeAllConnections();
    }, 1e4);
    force.unref();
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.close(async () => {
      clearInterval(sweep);
      await jobs8.stop();
      await metricsServer?.close();
      await app.close();
      await db.close();
      logger.info("stopped");
      logger.flush();
      process.exit(0);
    });
    server.closeIdleConnections();
  }, "shutdown");
  let seeded;
  if (config.seedOnStart && db.kind === "embedded" && config.superuserApiTokens.length) {
    try {
      seeded = await seed({
        baseUrl,
        superuserToken: config.superuserApiTokens[0],
        passwords: dev.passwords,
        onCreated: /* @__PURE__ */ __name((username) => recordSeededPassword(dev, username), "onCreated"),
        // The demo venue only into a catalog without shows: a restart never undoes what operators changed.
        catalog: "when-empty"
      });
      logger.info({ seeded: seeded.steps }, "seeded");
      timeline.mark("seed");
      timeline.summary("start-up timeline: seeded");
    } catch (err) {
      if (closing) return;
      throw err;
    }
  }
  if (closing) return;
  printSignInHelp(baseUrl, config, dev, seeded?.accounts);
  if (seeded) {
    const see = `See it: curl '${baseUrl}/api/public/show-events?locale=vi'`;
    if (seeded.steps.some((step) => step.resource === "shows" && step.skipped)) {
      console.log(`
The catalog already has shows: left as it is (\`npm run seed\` seeds the demo venue again). ${see}
`);
    } else {
      console.log(`
Demo venue:
${formatSeedResult(seeded)}
${see}
`);
    }
  }
}
__name(main, "main");
main().catch((err) => {
  if (err instanceof ConfigError || err instanceof ContractError) {
    console.error(`Cannot start: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
