// The floor: what the same runtime costs with no application in the way, measured in the
// same run as the API so that ratios against it cancel out the machine and its noise.
// Floor (e)'s answer: about the size of a board page of 20 (16 KB of JSON).
const BOARD_SIZED = JSON.stringify({ data: Array.from({ length: 20 }, (_, i) => ({ id: i, text: "x".repeat(780) })) });

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    // (a) a route doing nothing.
    if (pathname === "/floor/noop") return new Response("ok");
    // (b) one trivial D1 query, through a session like the API's reads.
    if (pathname === "/floor/d1") {
      const row = await env.DB.withSession("first-unconstrained").prepare("SELECT 1 AS one").first();
      return Response.json(row);
    }
    // (c) the irreducible work of an authenticated, rate-limited read as served locally: one
    // call to the Rate Limiting binding (as the API makes per job request) and one `SELECT 1`.
    if (pathname === "/floor/limited") {
      const { success } = await env.JOB_RATE_LIMITER.limit({ key: "employer:floor" });
      const row = await env.DB.withSession("first-unconstrained").prepare("SELECT 1 AS one").first();
      return Response.json({ ...row, success });
    }
    // (d) floor (c) plus one HTMLRewriter pass over the description of the POST it is set
    // against, a no-op element and text handler on `*` (a text chunk calls the text handler once
    // per element it lies in): near the irreducible work of a POST as served.
    if (pathname === "/floor/rewrite" && request.method === "POST") {
      const { description } = await request.json();
      const bare = { element() {}, text() {} };
      await new HTMLRewriter().on("*", bare).transform(new Response(description)).text();
      const { success } = await env.JOB_RATE_LIMITER.limit({ key: "employer:floor" });
      const row = await env.DB.withSession("first-unconstrained").prepare("SELECT 1 AS one").first();
      return Response.json({ ...row, success });
    }
    // (e) floor (b) plus what a board cache miss asks of the runtime around its query
    // (src/board/cache.ts): the board's limiter and a Cache API lookup (asked together), and the
    // put of a board-sized answer after it. The address must be new each time, so that it misses.
    if (pathname === "/floor/cached") {
      const key = new Request(request.url);
      const [{ success }] = await Promise.all([env.BOARD_RATE_LIMITER.limit({ key: "address:floor" }), caches.default.match(key)]);
      const row = await env.DB.withSession("first-unconstrained").prepare("SELECT 1 AS one").first();
      const body = new TextEncoder().encode(BOARD_SIZED.replace('"id":0', `"id":${row.one}`));
      const headers = { "Content-Type": "application/json", "Cache-Control": "public, max-age=60", ...(success ? {} : { "X-Limited": "1" }) };
      ctx.waitUntil(caches.default.put(key, new Response(body, { headers })));
      return new Response(body, { headers });
    }
    return new Response("not found", { status: 404 });
  },
};
