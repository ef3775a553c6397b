import fs from 'node:fs';
import path from 'node:path';
import { secretWeakness } from './auth/secretStrength.ts';
import { secretList } from './auth/secrets.ts';
import { ConfigError, type Config } from './config.ts';

/** The prefix of the superuser token `npm start` generates outside production (server/cli/devSecrets.ts). */
export const DEVELOPMENT_TOKEN_PREFIX = 'dev_';

/** VNPay's test environment: its pay page and API confirm payments nobody made. */
const VNPAY_SANDBOX_HOST = /(^|\.)sandbox\.vnpayment\.vn$/i;

/**
 * What NODE_ENV=production refuses to start with (issue 25 §10), each naming the setting to change:
 *
 * - the payment sandbox: the simulated pay page (VNPAY_SANDBOX, already refused by loadConfig), or VNPay enabled
 *   against VNPay's own sandbox (VNPAY_PAYMENT_URL / VNPAY_API_URL left at their sandbox defaults);
 * - credentialed wildcard CORS: an origin answered with credentials that is not one exact origin (DASHBOARD_ORIGINS;
 *   loadConfig refuses `*` there in every environment, checked here again for production);
 * - generated development secrets: a `dev_…` superuser token, the token `npm start` generated and recorded in
 *   `<DATA_DIR>/dev-credentials.json`, or that file beside the embedded database (its accounts were seeded with the
 *   passwords it records);
 * - no superuser token store: SUPERUSER_API_TOKENS (or SUPERUSER_API_TOKEN) unset, so nothing could run the
 *   superuser operations (backups of settings, user administration) and nothing is generated in production;
 * - a waiting-list offer page on the API's own origin (issue 34 §3): WAITLIST_OFFER_URL on PUBLIC_API_URL's origin
 *   (unless the guest site shares that origin, PUBLIC_SITE_URL), where nothing serves the page the offer e-mail links
 *   to, so an offered seat could not be claimed;
 * - a weak shared secret (issue 32 §2): every superuser token, SVC_LLM_SERVICE_TOKEN, CHAT_WEBHOOK_TOKEN, METRICS_TOKEN,
 *   MESSAGING_VERIFY_TOKEN and MESSAGING_APP_SECRET that is set must be at least 32 characters and not low-entropy (one
 *   repeated character, a run, a repeated word, common words, an example value: auth/secretStrength.ts). Each is
 *   named with its reason, never its value.
 *
 * Returns the refusals (empty outside production); `assertProductionReady` throws them as one ConfigError.
 */
export function productionRefusals(config: Config): string[] {
  if (config.nodeEnv !== 'production') return [];
  const refusals: string[] = [];

  if (config.vnpaySandbox) refusals.push('VNPAY_SANDBOX: the simulated pay page confirms bookings nobody paid for; unset it and set VNPAY_TMN_CODE and VNPAY_HASH_SECRET');
  if (config.vnpayTmnCode) {
    for (const [name, url] of [
      ['VNPAY_PAYMENT_URL', config.vnpayPaymentUrl],
      ['VNPAY_API_URL', config.vnpayApiUrl],
    ] as const) {
      if (VNPAY_SANDBOX_HOST.test(new URL(url).hostname)) refusals.push(`${name}: ${url} is VNPay's sandbox, which takes no real payment; set VNPay's production address`);
    }
  }

  const wildcard = config.dashboardOrigins.filter((origin) => origin.includes('*') || origin === 'null');
  if (wildcard.length) refusals.push(`DASHBOARD_ORIGINS: ${wildcard.join(', ')} would be answered with credentials from any site; list the dashboard's exact origins`);

  if (config.superuserApiTokens.length === 0) {
    refusals.push('SUPERUSER_API_TOKENS: no superuser token is set (nothing is generated in production); set one or more long random tokens, comma-separated');
  }
  if (config.superuserApiTokens.some((token) => token.startsWith(DEVELOPMENT_TOKEN_PREFIX))) {
    refusals.push(`SUPERUSER_API_TOKENS: a token starting with "${DEVELOPMENT_TOKEN_PREFIX}" is a generated development token; set tokens of your own`);
  }

  const offerOrigin = new URL(config.waitlistOfferUrl.split('{locale}').join(config.defaultLocale)).origin;
  if (offerOrigin === new URL(config.publicApiUrl).origin && offerOrigin !== new URL(config.publicSiteUrl).origin) {
    refusals.push(
      `WAITLIST_OFFER_URL: ${config.waitlistOfferUrl} is on the API's own origin (PUBLIC_API_URL), which serves no offer page: the e-mailed link would be a 404; ` +
        'unset it (the default is <PUBLIC_SITE_URL>/{locale}/waitlist-offer) or set the guest site\'s offer page',
    );
  }

  refusals.push(...weakSecrets(config));

  const file = path.join(config.dataDir, 'dev-credentials.json');
  const recorded = readRecorded(file);
  if (recorded) {
    if (recorded.superuserToken && config.superuserApiTokens.includes(recorded.superuserToken)) {
      refusals.push(`SUPERUSER_API_TOKENS: a token is the development token recorded in ${file}; set tokens of your own`);
    }
    if (!config.databaseUrl) {
      refusals.push(
        `DATA_DIR: ${file} holds development secrets generated for this data directory (the accounts it names were seeded with them); ` +
          'change those passwords and delete the file, or use a data directory (or DATABASE_URL) made for production',
      );
    }
  }
  return refusals;
}

/** A comma-separated secret setting (rotation: new,old) as one entry per value, named by position when there are several. */
function listed(variable: string, value: string | undefined): Array<[string, string]> {
  const values = secretList(value);
  return values.map((entry, index): [string, string] => [values.length > 1 ? `${variable} (value ${index + 1} of ${values.length})` : variable, entry]);
}

/** The shared secrets this server compares or signs with, by variable, each checked by `secretWeakness`. */
function weakSecrets(config: Config): string[] {
  const secrets: Array<[string, string | undefined]> = [
    ...config.superuserApiTokens.map((token, index): [string, string] => [
      config.superuserApiTokens.length > 1 ? `SUPERUSER_API_TOKENS (token ${index + 1} of ${config.superuserApiTokens.length})` : 'SUPERUSER_API_TOKENS',
      token,
    ]),
    ...listed('SVC_LLM_SERVICE_TOKEN', config.accessTokens['service-token']),
    ...listed('CHAT_WEBHOOK_TOKEN', config.accessTokens['chat-webhook-token']),
    ...listed('MESSAGING_VERIFY_TOKEN', config.accessTokens['messaging-verify-token']),
    ...listed('METRICS_TOKEN', config.metrics.token),
    ['MESSAGING_APP_SECRET', config.messaging.appSecret],
  ];
  const refusals: string[] = [];
  for (const [variable, value] of secrets) {
    if (value === undefined || value === '') continue;
    const weakness = secretWeakness(value);
    if (weakness) refusals.push(`${variable}: the secret ${weakness}; set a random value of at least 32 characters (openssl rand -hex 32)`);
  }
  return refusals;
}

interface RecordedSecrets {
  superuserToken?: string;
  passwords?: Record<string, string>;
}

function readRecorded(file: string): RecordedSecrets | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as RecordedSecrets;
  } catch {
    return undefined;
  }
}

/** Throws one ConfigError naming every setting to change when `config` is not fit for production (see productionRefusals). */
export function assertProductionReady(config: Config): void {
  const refusals = productionRefusals(config);
  if (refusals.length) throw new ConfigError(`NODE_ENV=production refuses to start:\n  - ${refusals.join('\n  - ')}`);
}
