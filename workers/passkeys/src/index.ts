import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { WorkerEntrypoint } from "cloudflare:workers";

// DESIGN 25: the console's WebAuthn ceremonies, verified with @simplewebauthn/server in a Worker of
// their own. The library's attestation-certificate code (ASN.1, X.509: about 100 KiB gzip) would
// otherwise be a third of the main Worker's bundle, for requests that are a sliver of its traffic.
// Nothing is kept here: the main Worker stores the challenges, passkeys and sessions
// (src/accounts/passkeys.ts) and calls these methods through its service binding PASSKEYS, with
// and for plain JSON values.

/** The console as WebAuthn names it: the relying party's id (the host name), its name, and the origins its pages are served from. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** A stored passkey as verifying a sign-in needs it: its public key (COSE, base64url), counter and transports. */
export interface StoredCredential {
  id: string;
  personId: number;
  publicKey: string;
  counter: number;
  transports: string[];
}

/**
 * WebAuthn's options as the browser takes them. The only extension they carry is credProps (the
 * library's type also names binary inputs, which RPC cannot promise to carry as they are).
 */
type OptionsJSON<T> = Omit<T, "extensions"> & { extensions?: { credProps?: boolean } };

/** The device checks that it is its person (fingerprint, face, PIN) where it can; a security key that cannot still works. */
const USER_VERIFICATION = "preferred";


export default class PasskeysVerifier extends WorkerEntrypoint {
  /** Options for adding a passkey: the person (their id as the user handle), their passkeys excluded. */
  async registrationOptions(input: { rp: RelyingParty; personId: number; email: string; exclude: { id: string; transports: string[] }[]; timeoutMs: number }): Promise<OptionsJSON<PublicKeyCredentialCreationOptionsJSON>> {
    const options = await generateRegistrationOptions({
      rpName: input.rp.name,
      rpID: input.rp.id,
      userID: isoUint8Array.fromUTF8String(String(input.personId)), // the person's id, as the user handle
      userName: input.email,
      userDisplayName: input.email,
      attestationType: "none",
      timeout: input.timeoutMs,
      excludeCredentials: input.exclude.map(({ id, transports }) => ({ id, transports })),
      // Discoverable: signing in then names no one first.
      authenticatorSelection: { residentKey: "required", userVerification: USER_VERIFICATION },
    });
    return options as OptionsJSON<PublicKeyCredentialCreationOptionsJSON>;
  }

  /** Options for signing in: no one named, any passkey of this console may answer. */
  async authenticationOptions(input: { rp: RelyingParty; timeoutMs: number }): Promise<OptionsJSON<PublicKeyCredentialRequestOptionsJSON>> {
    const options = await generateAuthenticationOptions({ rpID: input.rp.id, userVerification: USER_VERIFICATION, timeout: input.timeoutMs });
    return options as OptionsJSON<PublicKeyCredentialRequestOptionsJSON>;
  }

  /** The challenge a credential's client data names; undefined when it names none. */
  challengeOf(clientDataJSON: unknown): string | undefined {
    if (typeof clientDataJSON !== "string") return undefined;
    try {
      const { challenge } = decodeClientDataJSON(clientDataJSON);
      return typeof challenge === "string" ? challenge : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A new credential verified (its challenge is the caller's to have checked and used up): its id,
   * public key (base64url) and counter; undefined when it does not verify.
   */
  async verifyRegistration(input: { credential: RegistrationResponseJSON; rp: RelyingParty }): Promise<{ id: string; publicKey: string; counter: number } | undefined> {
    try {
      const { verified, registrationInfo } = await verifyRegistrationResponse({
        response: input.credential,
        expectedChallenge: () => true, // used up by the caller, once
        expectedOrigin: input.rp.origins,
        expectedRPID: input.rp.id,
        requireUserVerification: false,
      });
      if (!verified || !registrationInfo) return undefined;
      const { credential } = registrationInfo;
      return { id: credential.id, publicKey: isoBase64URL.fromBuffer(credential.publicKey), counter: credential.counter };
    } catch {
      return undefined;
    }
  }

  /**
   * A sign-in's assertion verified against the stored passkey (its challenge is the caller's to
   * have checked and used up): the authenticator's new counter; undefined when it does not verify.
   */
  async verifyAuthentication(input: { credential: AuthenticationResponseJSON; rp: RelyingParty; passkey: StoredCredential }): Promise<{ newCounter: number } | undefined> {
    const { credential, rp, passkey } = input;
    // The user handle, when the authenticator gives it, is the person the passkey was made for.
    const handle = credential.response?.userHandle;
    if (handle && handle !== isoBase64URL.fromUTF8String(String(passkey.personId))) return undefined;
    try {
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: () => true, // used up by the caller, once
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: { id: passkey.id, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
        requireUserVerification: false,
      });
      return verified ? { newCounter: authenticationInfo.newCounter } : undefined;
    } catch {
      return undefined;
    }
  }
}
