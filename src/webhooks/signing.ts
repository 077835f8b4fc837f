import { secretBytes } from "./secrets";

// Standard Webhooks (standardwebhooks.com): the signed content is `{id}.{timestamp}.{body}`,
// HMAC-SHA256 with the secret's bytes, sent as `v1,<base64>`; several signatures (during a
// rotation) are separated by spaces.

async function sign(secret: string, content: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secretBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content)));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

export const USER_AGENT = "JobPostingAPI-Webhooks/1.1";

/** The headers of one delivery attempt of message `id`, signed by every secret given. */
export async function webhookHeaders(id: string, body: string, secrets: string[], now = Date.now()): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(now / 1000));
  const signatures = await Promise.all(secrets.map((secret) => sign(secret, `${id}.${timestamp}.${body}`)));
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures.join(" "),
  };
}
