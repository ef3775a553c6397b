/**
 * The `x-access` levels of the contract, and the configured secrets of the token levels: what the contract
 * reader, the configuration and the access checks (./access.ts, which documents each level) all name. A leaf:
 * it imports nothing.
 */
export const HUMAN_LEVELS = ['session', 'staff', 'admin', 'superuser'] as const;
export const TOKEN_LEVELS = ['service-token', 'chat-webhook-token', 'messaging-verify-token', 'metrics-token'] as const;
export const ACCESS_LEVELS = ['public', ...HUMAN_LEVELS, ...TOKEN_LEVELS, 'disabled'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];
export type TokenLevel = (typeof TOKEN_LEVELS)[number];

/** The configured secrets of the token levels (unset: the level's operations answer 503). */
export type AccessTokens = Partial<Record<TokenLevel, string>>;

export const isTokenLevel = (access: string): access is TokenLevel => (TOKEN_LEVELS as readonly string[]).includes(access);
