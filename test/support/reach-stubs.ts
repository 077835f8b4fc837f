// Reach's search engines in tests (DESIGN 24: "tested without the internet"): the Google token
// endpoint, the Indexing API and IndexNow, served by test/vitest.config.ts's outboundService from
// Node for the hosts under `.reach.test` (every other host still gets the "no network" answer).
// Each test names a run (the first path segment), so runs never see each other's requests:
//   POST http://oauth.reach.test/{run}/token        the token endpoint (JWT-bearer grant)
//   POST http://google.reach.test/{run}/publish     the Indexing API
//   POST http://indexnow.reach.test/{run}/indexnow  IndexNow
//   POST http://control.reach.test/{run}/script     { service, statuses: [429, 500, …] }: the next answers
//   POST http://control.reach.test/{run}/token-lifetime  { seconds }: expires_in of the next tokens
//   GET  http://control.reach.test/{run}/requests   what the run's services received, oldest first
// Plain Request/Response only, so the file type-checks with the Worker's types as well.

export type StubService = "token" | "google" | "indexnow";

export interface StubRequest {
  service: StubService;
  method: string;
  authorization: string | null;
  contentType: string | null;
  body: string;
}

interface Run {
  requests: StubRequest[];
  scripts: Record<StubService, number[]>;
  tokenSeconds: number;
  tokens: number;
}

const runs = new Map<string, Run>();
const runOf = (id: string): Run => {
  let run = runs.get(id);
  if (!run) runs.set(id, (run = { requests: [], scripts: { token: [], google: [], indexnow: [] }, tokenSeconds: 3600, tokens: 0 }));
  return run;
};

const SERVICES: Record<string, StubService> = { "oauth.reach.test": "token", "google.reach.test": "google", "indexnow.reach.test": "indexnow" };
const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });

/** The stub's answer for a `.reach.test` address, or null for any other host. */
export async function reachStub(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  if (!url.hostname.endsWith(".reach.test")) return null;
  const [id, action] = url.pathname.split("/").filter(Boolean);
  const run = runOf(id ?? "");
  if (url.hostname === "control.reach.test") {
    if (action === "requests") return json(run.requests);
    const body = (await request.json()) as { service?: StubService; statuses?: number[]; seconds?: number };
    if (action === "script" && body.service) run.scripts[body.service].push(...(body.statuses ?? []));
    if (action === "token-lifetime" && body.seconds) run.tokenSeconds = body.seconds;
    return json({ ok: true });
  }
  const service = SERVICES[url.hostname];
  if (!service) return new Response("no such stub", { status: 404 });
  run.requests.push({
    service,
    method: request.method,
    authorization: request.headers.get("Authorization"),
    contentType: request.headers.get("Content-Type"),
    body: await request.text(),
  });
  const scripted = run.scripts[service].shift();
  if (scripted !== undefined && scripted !== 200) return json({ error: { code: scripted, message: "scripted by the test" } }, scripted);
  if (service === "token") return json({ access_token: `token-${id}-${++run.tokens}`, expires_in: run.tokenSeconds, token_type: "Bearer" });
  if (service === "google") return json({ urlNotificationMetadata: { url: (JSON.parse(run.requests.at(-1)!.body) as { url: string }).url } });
  return new Response(null, { status: 200 });
}
