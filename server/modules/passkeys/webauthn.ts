/**
 * @simplewebauthn/server, loaded on the first passkey ceremony rather than at boot: it and its ASN.1/CBOR
 * dependencies weigh about 200 ms of start-up and 5 MB of heap that a server whose dashboard uses no passkey never
 * needs. Types come from the package as usual (`import type` costs nothing at run time).
 */
type WebAuthnServer = typeof import('@simplewebauthn/server');

let loading: Promise<WebAuthnServer> | undefined;

export function webauthnServer(): Promise<WebAuthnServer> {
  loading ??= import('@simplewebauthn/server');
  return loading;
}
