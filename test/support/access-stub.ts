// Cloudflare Access's key sets in tests (DESIGN 26): each test names a team of its own, whose keys
// the Worker fetches from https://{team}.access.test/cdn-cgi/access/certs, served by
// test/vitest.config.ts's outboundService from Node (every other host still gets "no network"):
//   POST http://control.access.test/{team}/keys      a JWKS: what the team's certs address answers from now on
//   GET  http://control.access.test/{team}/fetches   { fetches }: how often the Worker fetched the team's keys
// Plain Request/Response only, so the file type-checks with the Worker's types as well.

const teams = new Map<string, { keys: unknown; fetches: number }>();
const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });

/** The stub's answer for an `.access.test` address, or null for any other host. */
export async function accessStub(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  if (!url.hostname.endsWith(".access.test")) return null;
  if (url.hostname === "control.access.test") {
    const [team, action] = url.pathname.split("/").filter(Boolean);
    const entry = teams.get(team ?? "") ?? { keys: null, fetches: 0 };
    teams.set(team ?? "", entry);
    if (action === "keys" && request.method === "POST") entry.keys = await request.json();
    return json({ fetches: entry.fetches });
  }
  const entry = teams.get(url.hostname.slice(0, -".access.test".length));
  if (!entry?.keys || url.pathname !== "/cdn-cgi/access/certs") return new Response("no such team", { status: 404 });
  entry.fetches++;
  return json(entry.keys);
}
