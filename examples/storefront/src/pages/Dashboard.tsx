import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { useState, type FormEvent } from 'react';
import { messageFor } from '@venue/sdk';
import { dashboardApi, vnd, type Schemas } from '../api.ts';

/**
 * A minimal staff door page: sign in (the session cookie is the browser's, sent with `credentials: 'include'`;
 * the API must list this origin in DASHBOARD_ORIGINS), look a guest up by the check-in token of their QR, check
 * them in. On an origin the API does not list, the browser refuses the credentialed answer: shown as such.
 */
export function Dashboard() {
  const [me, setMe] = useState<Schemas['Principal']>();
  const [lookup, setLookup] = useState<Schemas['CheckInLookup']>();
  const [outcome, setOutcome] = useState<Schemas['CheckInOutcome']>();
  const [error, setError] = useState<string>();
  const [token, setToken] = useState('');
  const [passkeyNote, setPasskeyNote] = useState<string>();

  /** A refused CORS answer is a fetch TypeError, not a problem document. */
  async function attempt<T>(call: () => Promise<{ data?: T; error?: unknown }>): Promise<T | undefined> {
    setError(undefined);
    try {
      const { data, error } = await call();
      if (!data) setError(messageFor(error, 'en'));
      return data;
    } catch (err) {
      setError(`The API refused this page's credentials (is this origin in DASHBOARD_ORIGINS?): ${String(err)}`);
      return undefined;
    }
  }

  async function signIn(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const signedIn = await attempt(() => dashboardApi.POST('/api/auth/sign-in', { body: { identifier: form.identifier, password: form.password } }));
    if (!signedIn) return;
    // The cookie is proven by the next call, which sends nothing but it.
    const principal = await attempt(() => dashboardApi.GET('/api/auth/me'));
    if (principal) setMe(principal);
  }

  /** Sign in with a passkey: the API's options (a single-use challenge) → the authenticator → the API opens a session. */
  async function signInWithPasskey() {
    const options = await attempt(() => dashboardApi.POST('/api/auth/passkey-sign-in/options'));
    if (!options) return;
    let credential;
    try {
      credential = await startAuthentication({ optionsJSON: options });
    } catch (err) {
      setError(`No passkey was used: ${String(err)}`);
      return;
    }
    const signedIn = await attempt(() => dashboardApi.POST('/api/auth/passkey-sign-in', { body: { credential: { ...credential, clientExtensionResults: { ...credential.clientExtensionResults } } } }));
    if (!signedIn) return;
    const principal = await attempt(() => dashboardApi.GET('/api/auth/me'));
    if (principal) setMe(principal);
  }

  /** While signed in: register a passkey on this device for the next sign-in. */
  async function addPasskey() {
    setPasskeyNote(undefined);
    const options = await attempt(() => dashboardApi.POST('/api/auth/passkeys/registration-options'));
    if (!options) return;
    let credential;
    try {
      credential = await startRegistration({ optionsJSON: options });
    } catch (err) {
      setError(`No passkey was made: ${String(err)}`);
      return;
    }
    const saved = await attempt(() => dashboardApi.POST('/api/auth/passkeys', { body: { credential: { ...credential, clientExtensionResults: { ...credential.clientExtensionResults } }, label: 'Door device' } }));
    if (saved) setPasskeyNote(`Passkey added: ${saved.label}`);
  }

  async function signOut() {
    await attempt(() => dashboardApi.POST('/api/auth/sign-out'));
    setMe(undefined);
    setLookup(undefined);
    setOutcome(undefined);
  }

  async function find(e: FormEvent) {
    e.preventDefault();
    setOutcome(undefined);
    setLookup(await attempt(() => dashboardApi.GET('/api/check-ins/{id}', { params: { path: { id: 'lookup' }, query: { token } } })));
  }

  async function checkIn() {
    const done = await attempt(() => dashboardApi.POST('/api/check-ins', { body: { token, type: 'ENTRY', nonce: crypto.randomUUID() } }));
    if (done) setOutcome(done);
  }

  if (!me || me.authSource !== 'session') {
    return (
      <section>
        <h1>Door</h1>
        <form onSubmit={signIn} className="sign-in">
          <label>
            Account <input name="identifier" required autoComplete="username" />
          </label>
          <label>
            Password <input name="password" type="password" required autoComplete="current-password" />
          </label>
          <button type="submit">Sign in</button>
        </form>
        {browserSupportsWebAuthn() && (
          <div id="passkey-sign-in">
            <button type="button" className="passkey-sign-in" onClick={signInWithPasskey}>
              Sign in with a passkey
            </button>
          </div>
        )}
        {error && <p role="alert">{error}</p>}
      </section>
    );
  }
  const r = lookup?.reservation;
  return (
    <section>
      <h1>Door</h1>
      <p className="signed-in">
        Signed in as {me.account?.name} ({me.role})
      </p>
      <p>
        {browserSupportsWebAuthn() && (
          <button type="button" className="passkey-add" onClick={addPasskey}>
            Add a passkey
          </button>
        )}{' '}
        <button type="button" className="sign-out" onClick={signOut}>
          Sign out
        </button>
      </p>
      {passkeyNote && <p className="passkey-note">{passkeyNote}</p>}
      <form onSubmit={find}>
        <label>
          Check-in token <input name="token" value={token} onChange={(e) => setToken(e.target.value)} required />
        </label>
        <button type="submit">Look up</button>
      </form>
      {r && (
        <div className="guest">
          <p>
            <strong className="guest-name">{r.guestName}</strong> × {r.partySize} · {r.event.showTitle} · {r.offer.name} · <span className="guest-status">{r.status}</span>
          </p>
          <p>{r.payment.paid ? 'Paid' : `Due ${vnd(r.payment.dueVnd, 'en')}`}</p>
          {lookup.entry.ok ? <button onClick={checkIn}>Check in</button> : <p>Entry refused: {lookup.entry.reason}</p>}
        </div>
      )}
      {outcome && (
        <p className="check-in-result" data-result={outcome.checkIn.result}>
          {outcome.checkIn.result === 'ok' ? `Checked in: ${outcome.reservation?.status}` : `Refused: ${outcome.checkIn.reason}`}
        </p>
      )}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
