import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { RelyingParty } from "../../workers/passkeys/src/index";
import type { Env } from "../env";
import { ConflictError, ProblemError } from "../http/problem";
import { createAccountsDatabase } from "./database/client";
import { deletePasskey, findPasskey, passkeysOf, recordChallenge, storePasskey, useChallenge, useWithPasskey, type PasskeyOfPerson } from "./repository";
import { ABSOLUTE_MS, newSession } from "./session";
import { hashToken } from "./tokens";

// DESIGN 25, 25a: passkeys — WebAuthn credentials verified with @simplewebauthn/server. A
// signed-in person adds them; anyone signs in with one, naming no one first (discoverable
// credentials). Each challenge is stored (as its SHA-256) for 5 minutes and used up by the first
// answer that names it, before anything is verified: a replayed answer finds it gone.
// The library runs in the passkeys Worker (workers/passkeys, through the service binding
// PASSKEYS), which only makes options and verifies; what is stored is stored here.

export type { RelyingParty };

export const CHALLENGE_MS = 5 * 60_000;

/** What the console shows of a person's passkey. */
export type PasskeyListing = Pick<PasskeyOfPerson, "id" | "name" | "createdAt" | "lastUsedAt">;

/** A browser's answer that verifies nothing: nothing is stored, no one is signed in. */
class PasskeyNotAcceptedError extends ProblemError {
  constructor(status: 400 | 401, detail: string) {
    super(status, "passkey-not-accepted", "Passkey not accepted.", detail);
  }
}

const TRANSPORTS = ["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"];
const parseTransports = (json: string) => JSON.parse(json) as string[];
/** The browser's transport hints, as far as they are WebAuthn's (they come back in later options). */
const transportsOf = (given: unknown) => (Array.isArray(given) ? given.filter((transport) => TRANSPORTS.includes(transport)) : []);

export async function listPasskeys(env: Env, personId: number): Promise<PasskeyListing[]> {
  const passkeys = await passkeysOf(createAccountsDatabase(env.ACCOUNTS_DB), personId);
  return passkeys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }));
}

/** Removes one of the person's passkeys; false when they have none of that id. */
export async function removePasskey(env: Env, personId: number, id: number): Promise<boolean> {
  return deletePasskey(createAccountsDatabase(env.ACCOUNTS_DB), personId, id);
}

/** The challenge a credential's client data names, hashed as stored; undefined when it names none. */
async function challengeOf(env: Env, clientDataJSON: unknown): Promise<string | undefined> {
  const challenge = await env.PASSKEYS.challengeOf(clientDataJSON);
  return challenge === undefined ? undefined : hashToken(challenge);
}

/** Options for adding a passkey: the person (their id as the user handle), their passkeys excluded. */
export async function registrationOptions(env: Env, person: { personId: number; email: string }, rp: RelyingParty, now = Date.now()): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const db = createAccountsDatabase(env.ACCOUNTS_DB);
  const exclude = (await passkeysOf(db, person.personId)).map((passkey) => ({ id: passkey.credentialId, transports: parseTransports(passkey.transports) }));
  const options = await env.PASSKEYS.registrationOptions({ rp, personId: person.personId, email: person.email, exclude, timeoutMs: CHALLENGE_MS });
  await recordChallenge(db, { hash: await hashToken(options.challenge), purpose: "register", personId: person.personId, now, expiresAt: now + CHALLENGE_MS });
  return options;
}

/** Verifies the browser's new credential against this person's challenge and stores it. */
export async function addPasskey(env: Env, personId: number, rp: RelyingParty, input: { credential: RegistrationResponseJSON; name: string }, now = Date.now()): Promise<void> {
  const db = createAccountsDatabase(env.ACCOUNTS_DB);
  const challenge = await challengeOf(env, input.credential.response?.clientDataJSON);
  if (!challenge || !(await useChallenge(db, { hash: challenge, purpose: "register", personId, now }))) {
    throw new PasskeyNotAcceptedError(400, "The passkey answers no open challenge of yours (each works once, within 5 minutes): ask for new options.");
  }
  const credential = await env.PASSKEYS.verifyRegistration({ credential: input.credential, rp });
  if (!credential) throw new PasskeyNotAcceptedError(400, "The browser's credential does not verify.");
  const stored = await storePasskey(db, {
    personId,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: JSON.stringify(transportsOf(input.credential.response.transports)),
    name: input.name,
    createdAt: now,
  });
  if (!stored) throw new ConflictError("passkey-exists", "This passkey is added already.");
}

/** Options for signing in: no one named, any passkey of this console may answer. */
export async function authenticationOptions(env: Env, rp: RelyingParty, now = Date.now()): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await env.PASSKEYS.authenticationOptions({ rp, timeoutMs: CHALLENGE_MS });
  await recordChallenge(createAccountsDatabase(env.ACCOUNTS_DB), { hash: await hashToken(options.challenge), purpose: "sign-in", personId: null, now, expiresAt: now + CHALLENGE_MS });
  return options;
}

/**
 * Signs in with a passkey: its challenge used up, its signature verified, its counter moved on,
 * and a session started for its person, as the emailed link does. The session's cookie.
 */
export async function signInWithPasskey(env: Env, rp: RelyingParty, credential: AuthenticationResponseJSON, now = Date.now()): Promise<string> {
  const db = createAccountsDatabase(env.ACCOUNTS_DB);
  const challenge = await challengeOf(env, credential.response?.clientDataJSON);
  if (!challenge || !(await useChallenge(db, { hash: challenge, purpose: "sign-in", personId: null, now }))) {
    throw new PasskeyNotAcceptedError(401, "The passkey answers no open sign-in (each works once, within 5 minutes): start again.");
  }
  const refused = new PasskeyNotAcceptedError(401, "This passkey does not sign anyone in here.");
  const passkey = typeof credential.id === "string" ? await findPasskey(db, credential.id) : undefined;
  if (!passkey) throw refused;
  const verified = await env.PASSKEYS.verifyAuthentication({
    credential,
    rp,
    passkey: { id: credential.id, personId: passkey.personId, publicKey: passkey.publicKey, counter: passkey.counter, transports: parseTransports(passkey.transports) },
  });
  if (!verified) throw refused;
  const session = await newSession();
  const started = await useWithPasskey(db, { id: passkey.id, counterWas: passkey.counter, counter: verified.newCounter, now, session: { id: session.id, expiresAt: now + ABSOLUTE_MS } });
  if (!started) throw refused;
  return session.cookie;
}
