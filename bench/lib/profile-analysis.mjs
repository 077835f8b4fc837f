// Self time by function and by area in the CPU profiles bench/profile.mjs writes (<op>.cpuprofile,
// summary.json and bundle/index.js with its sourcemap, all in one folder).
//   node bench/lib/profile-analysis.mjs [dir] [op ...] [--compact] [--top=20] [--area=text]
//     [--stacks=label-text] [--incl=label-text[&&label-text]] ...
// dir defaults to PROFILE_OUTPUT_DIR, else bench/results/profile/; ops default to every op of
// summary.json. --compact: two lines per op (top self, areas); --area: top self within the areas
// whose name holds that text; --stacks: the callers of leaves whose label holds that text;
// --incl (repeatable): the share of samples whose stack holds that label text (&&: all of them).
//
// Weights: sample counts. workerd runs all isolates on one thread and V8 drops the API isolate's
// ticks while another isolate (D1, KV, the limiter) or the event loop runs, so a sample's
// timeDelta can span milliseconds of someone else's work; counting samples avoids charging that
// gap to whichever frame came before or after it. µs figures are samples × the median interval.
// The profiler slows the Worker (HTMLRewriter's callbacks above all): read shares, not µs.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** Where bench/profile.mjs writes, and where the analysis reads, unless told otherwise. */
export const defaultProfileDir = () => process.env.PROFILE_OUTPUT_DIR ?? join(root, "bench/results/profile");

/** The analysis's options from command-line arguments (everything but the folder). */
export function parseAnalysisArgs(args) {
  const value = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const known = ["--compact", "--top=", "--area=", "--stacks=", "--incl="];
  const unknown = args.filter((a) => a.startsWith("--") && !known.some((k) => (k.endsWith("=") ? a.startsWith(k) : a === k)));
  if (unknown.length) throw new Error(`unknown option(s) ${unknown.join(" ")}; known: ${known.join(" ")}`);
  return {
    ops: args.filter((a) => !a.startsWith("--")),
    compact: args.includes("--compact"),
    top: Number(value("top") ?? 20),
    area: value("area"),
    stacks: value("stacks"),
    incl: args.filter((a) => a.startsWith("--incl=")).map((a) => a.slice(7)),
  };
}

/**
 * The analysis of `dir`'s profiles as text: per op, the top self time and the time by area (the
 * part of the app or runtime each sample belongs to), then every op's busy µs against the floor's.
 */
export function analyzeProfiles(dir, { ops = [], compact = false, top = 20, area: AREA, stacks: STACKS, incl: INCL = [] } = {}) {
  const out = [];
  const print = (line) => out.push(line);
  const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
  const names = ops.length ? ops : Object.keys(summary.ops);
  const missing = names.filter((n) => !summary.ops[n]);
  if (missing.length) throw new Error(`${dir}/summary.json has no ${missing.join(", ")} (profiled: ${Object.keys(summary.ops).join(", ")})`);

  // --- the bundle: sourcemap, and `// path` module markers as a fallback --------------------
  const bundle = resolve(dir, summary.bundle);
  const bundleLines = readFileSync(bundle, "utf8").split("\n");
  const map = existsSync(`${bundle}.map`) ? new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, "utf8"))) : null;
  // The original sources' text (the sourcemap carries it), to tell middleware apart by line.
  const sourceText = new Map();
  (map?.payload.sources ?? []).forEach((s, i) => {
    const text = map.payload.sourcesContent?.[i];
    if (text) sourceText.set(s, text.split("\n"));
  });
  const markers = [];
  bundleLines.forEach((l, i) => {
    const m = /^\/\/ ((?:src|node_modules|bench)\/\S+)$/.exec(l);
    if (m) markers.push([i, m[1]]);
  });
  const norm = (p) => p.replace(/^(\.\.\/)+/, "").replace(/^.*node_modules\//, "node_modules/");
  // The file is the bundle's `// path` marker (libraries' own sourcemaps, drizzle's, name paths
  // such as node_modules/src/sql/sql.ts); the line is the sourcemap's when it names that file.
  function original(line, col) {
    let file = "bundle";
    for (const [at, f] of markers) if (at <= line) file = f; else break;
    const e = map?.findEntry(line, Math.max(0, col));
    if (e && e.originalSource) {
      const mapped = norm(e.originalSource);
      if (mapped === file) return { file, line: e.originalLine + 1, name: e.name, text: sourceText.get(e.originalSource)?.[e.originalLine] ?? "" };
      return { file, line: `${line + 1}b`, via: `${mapped.replace(/^node_modules\//, "")}:${e.originalLine + 1}`, name: e.name };
    }
    return { file, line: `${line + 1}b` };
  }

  // --- what each frame is ------------------------------------------------------------------
  const frameCache = new Map();
  function frame(cf) {
    const key = `${cf.functionName}|${cf.url}|${cf.lineNumber}|${cf.columnNumber}`;
    if (frameCache.has(key)) return frameCache.get(key);
    let label, file = cf.url, fn = cf.functionName;
    if (cf.url && (cf.url === summary.bundleUrl || bundle.endsWith(cf.url))) {
      const o = original(cf.lineNumber, cf.columnNumber);
      file = o.file;
      fn = fn || (o.name ? `${o.name}?` : "(anon)");
      label = `${fn} ${file.replace(/^node_modules\//, "")}:${o.line}${o.via ? ` (${o.via})` : ""}`;
      if (fn === "(anon)") label += `  «${bundleLines[cf.lineNumber].trim().slice(0, 60)}»`;
    } else if (cf.url) label = `${fn || "(anon)"} ${cf.url}:${cf.lineNumber + 1}`;
    else label = fn ? (fn.startsWith("(") ? fn : `${fn} [native]`) : "(anon) [native]";
    const r = { label, ...classify(fn, file, cf), context: contextOf(file, fn) };
    frameCache.set(key, r);
    return r;
  }

  function contextOf(file, fn) {
    // Everything under createDatabase (src/db/client.ts) is building a Drizzle instance.
    if (file === "src/db/client.ts" && /^createDatabase/.test(fn)) return "drizzle: instance per request (createDatabase → drizzle(), relations config)";
    if (/^src\/(board\/(consumer|feed|projection|database\/|reconcile)|stats\/consumer|webhooks\/consumer)/.test(file)) return "queue consumers (board/views; off the request path)";
    if (/^src\/events\//.test(file)) return "events dispatch (waitUntil: queue.sendBatch + mark dispatched)";
    return null;
  }

  // area: where the time goes; transparent: a helper whose time belongs to whoever called it.
  function classify(fn, file, cf) {
    const area = (a) => ({ area: a, transparent: false });
    const through = { area: null, transparent: true };
    if (fn === "(idle)") return area("(idle)");
    if (fn === "(program)" || fn === "(root)") return area("(program): V8/workerd native, no JS frame");
    if (fn === "(garbage collector)") return area("GC");
    if (!file) return through; // native (fetch, Response, Headers, HTMLRewriter, KV get, …)
    if (file.startsWith("cloudflare-internal:d1-api")) return area("D1 binding wrapper (d1-api JS + its fetch)");
    if (file.startsWith("cloudflare-internal:ratelimit")) return area("rate limit (binding)");
    if (file.startsWith("cloudflare-internal:") || file.startsWith("node-internal:")) return through;
    if (file === "bench/floor-worker.js") return area("floor worker code");
    const nm = file.startsWith("node_modules/") ? file.slice(13) : null;
    if (nm) {
      if (nm.startsWith("hono/dist/router")) return area("Hono router");
      if (/^hono\/dist\/(compose|hono-base|hono)\.js/.test(nm)) return area("Hono compose/dispatch");
      if (nm.startsWith("hono/dist/context.js")) {
        const text = bundleLines[cf.lineNumber] ?? "";
        return /^\s*(json|#newResponse|newResponse|body) = |^\s*#newResponse\(/.test(text) ? area("JSON serialisation + Response (c.json/c.body)") : through;
      }
      if (nm.startsWith("hono/dist/middleware/request-id")) return area("mw requestId");
      if (nm.startsWith("hono/dist/middleware/body-limit")) return area("mw bodyLimit");
      if (nm.startsWith("hono/dist/middleware/method-not-allowed") || nm.startsWith("hono/dist/helper/method")) return area("mw methodNotAllowed");
      if (nm.startsWith("hono/dist/middleware/method-override")) return area("mw methodOverride");
      if (nm.startsWith("hono/dist/middleware/cors")) return area("mw cors");
      if (nm.startsWith("hono/dist/validator") || nm.startsWith("@hono/zod") || nm.startsWith("zod/")) return area("zod parsing/validation");
      if (nm.startsWith("hono/")) return through; // request.js, utils/*, helper/route, helper/factory
      if (/^drizzle-orm\/(relations|d1\/driver)/.test(nm)) return area("drizzle: instance per request (createDatabase → drizzle(), relations config)");
      if (/^drizzle-orm\/(d1\/session|sqlite-core\/session|session)/.test(nm) || (nm === "drizzle-orm/utils.js" && /mapResultRow|mapUpdateSet/.test(fn)))
        return area("drizzle: execute + map rows");
      if (nm.startsWith("drizzle-orm/")) return area("drizzle: query building (sql/dialect/builders)");
      return area(`lib ${nm.split("/")[0].startsWith("@") ? nm.split("/").slice(0, 2).join("/") : nm.split("/")[0]}`);
    }
    if (!file.startsWith("src/")) return area(`other (${file})`);
    // The source line a function starts on (a frame names its function's start): which of
    // src/app.ts's inline middleware, or rate-limit.ts's header-after-next one, it is.
    const srcText = original(cf.lineNumber, cf.columnNumber).text ?? "";
    const rules = [
      [/^src\/http\/middleware\/request-log/, "mw requestLog (incl. console.log)"],
      [/^src\/http\/middleware\/rate-limit/, /\brateLimitPolicy\b/.test(srcText) ? "mw rateLimitPolicy (header after next)" : "rate limit (binding)"],
      [/^src\/http\/middleware\/authenticate|^src\/auth\//, "mw authenticate (KV + SHA-256)"],
      [/^src\/http\/middleware\/database|^src\/db\/client/, "mw database (D1 session + drizzle())"],
      [/^src\/http\/middleware\/security-headers/, "mw security headers"],
      [/^src\/http\/middleware\/cors/, "mw cors"],
      [/^src\/http\/middleware\/method-override/, "mw methodOverride"],
      [/^src\/http\/middleware\/json-body|^src\/http\/json-bounds/, "mw requireJsonBody (JSON bounds)"],
      [/^src\/http\/validation|^src\/http\/schemas|^src\/jobs\/schemas|^src\/jobs\/batch\/schemas/, "zod parsing/validation"],
      [/^src\/http\/(problem|errors)/, "errors/problem"],
      [/^src\/jobs\/representation/, "handler: representation"],
      [/^src\/jobs\/repository\//, "handler: repository (src side)"],
      [/^src\/jobs\/(handlers|routes|service|published)/, "handler: jobs handler/service"],
      [/^src\/postingrules\/|^src\/jobs\/(posting-rules|rules|evaluate)/, "handler: posting/job rules"],
      [/^src\/description\//, "description cleaning (HTMLRewriter callbacks)"],
      [/^src\/events\/|subscriber/, "events dispatch (queues)"],
      [/^src\/locations\//, "handler: locations resolve"],
      [/^src\/idempotency\//, "idempotency"],
    ];
    if (file === "src/app.ts") {
      if (/\b(anyBody|applyBody)\)\(c, next\)/.test(srcText)) return area("mw bodyLimit");
      if (/\bdatabase\(c, next\)/.test(srcText)) return area("mw database (D1 session + drizzle())");
      if (/\bwithDispatcher\b/.test(srcText)) return area("mw withDispatcher");
      return area("src/app.ts other");
    }
    for (const [re, a] of rules) if (re.test(file)) return area(a);
    return area(`src other (${file.split("/").slice(1, 3).join("/")})`);
  }

  // --- per profile ---------------------------------------------------------------------------
  const pct = (n, d) => `${((100 * n) / d).toFixed(1)}%`.padStart(6);
  const results = {};
  for (const name of names) {
    const p = JSON.parse(readFileSync(join(dir, `${name}.cpuprofile`), "utf8"));
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const deltas = p.timeDeltas.slice(1).filter((d) => d > 0 && d < 1000).sort((a, b) => a - b);
    const tick = deltas[deltas.length >> 1] ?? summary.intervalUs;
    const self = new Map(), areas = new Map(), stacks = new Map(), inArea = new Map(), incl = new Map();
    let busy = 0, idle = 0;
    const areaOfNode = new Map();
    for (const id of p.samples) {
      const leaf = frame(byId.get(id).callFrame);
      if (leaf.area === "(idle)") { idle++; continue; }
      busy++;
      self.set(leaf.label, (self.get(leaf.label) ?? 0) + 1);
      let a = areaOfNode.get(id);
      if (a === undefined) {
        a = "unattributed (native with no JS caller)";
        for (let at = id; at !== undefined; at = parent.get(at)) {
          const f = frame(byId.get(at).callFrame);
          if (!f.transparent && f.area) { a = f.area; break; }
        }
        // Work after the response, whatever library it is in: the queue consumers running in
        // this isolate, and the events a write hands to queues (waitUntil).
        for (let at = id; at !== undefined; at = parent.get(at)) {
          const f = frame(byId.get(at).callFrame);
          if (f.context) { a = f.context; break; }
        }
        areaOfNode.set(id, a);
      }
      areas.set(a, (areas.get(a) ?? 0) + 1);
      if (AREA && a.includes(AREA)) inArea.set(leaf.label, (inArea.get(leaf.label) ?? 0) + 1);
      if (INCL.length) {
        const labels = [];
        for (let at = id; at !== undefined; at = parent.get(at)) labels.push(frame(byId.get(at).callFrame).label);
        for (const text of INCL) {
          const parts = text.split("&&");
          if (parts.every((part) => labels.some((l) => l.includes(part)))) incl.set(text, (incl.get(text) ?? 0) + 1);
        }
      }
      if (STACKS && leaf.label.includes(STACKS)) {
        const chain = [];
        for (let at = id; at !== undefined && chain.length < 8; at = parent.get(at)) chain.push(frame(byId.get(at).callFrame).label.split("  «")[0]);
        const k = chain.join(" < ");
        stacks.set(k, (stacks.get(k) ?? 0) + 1);
      }
    }
    const reqs = summary.ops[name].requests;
    const usPer = (n) => ((n * tick) / reqs).toFixed(0).padStart(5);
    results[name] = { busy, reqs, tick, areas };
    if (!busy) {
      print(`## ${name} (${reqs} req): no busy samples`);
      continue;
    }
    if (compact) {
      const short = (label) => {
        if (/^\([^)]*\)$/.test(label)) return label; // (program), (garbage collector)
        const snippet = /«(?:var |const )?([\w$#]+)\s*=/.exec(label)?.[1] ?? /«return (\w+)\(/.exec(label)?.[1];
        let [fn, where] = label.split("  «")[0].split(" ");
        if (fn === "(anon)" && snippet) fn = `${snippet}()`;
        if (!where) return fn;
        if (where === "[native]") return `${fn}[native]`;
        where = where.replace(/^cloudflare-internal:/, "").replace(/^.*\/(?=[^/]+\/node\.js)|^.*\//, "").replace(/:\d+b$/, "");
        return `${fn}@${where}`;
      };
      const list = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${((100 * v) / busy).toFixed(1)} ${short(k)}`).join(" · ");
      print(`## ${name} (${reqs} req; ≈${usPer(busy).trim()} µs busy/req; % of busy)\nself: ${list(self, top)}`);
      print(`areas: ${[...areas].sort((a, b) => b[1] - a[1]).filter(([, v]) => v / busy >= 0.01).map(([k, v]) => `${((100 * v) / busy).toFixed(1)} ${(k.startsWith("src other") ? k : k.replace(/ \(.*\)$/, ""))} ${usPer(v).trim()}µs`).join(" · ")}`);
      continue;
    }
    print(`\n=== ${name}: ${reqs} requests, ${busy} busy samples (+${idle} idle), tick ≈ ${tick} µs → ≈ ${usPer(busy).trim()} µs busy/request`);
    print(`-- top ${top} self (share of busy samples, ≈µs/request)`);
    for (const [label, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) print(`${pct(n, busy)} ${usPer(n)}  ${label}`);
    print("-- by area");
    for (const [a, n] of [...areas].sort((a, b) => b[1] - a[1])) print(`${pct(n, busy)} ${usPer(n)}  ${a}`);
    for (const text of INCL) print(`incl ${pct(incl.get(text) ?? 0, busy)} ${usPer(incl.get(text) ?? 0)}  stacks holding "${text}"`);
    if (AREA) {
      print(`-- top self within areas matching "${AREA}"`);
      for (const [label, n] of [...inArea].sort((a, b) => b[1] - a[1]).slice(0, top)) print(`${pct(n, busy)} ${usPer(n)}  ${label}`);
    }
    if (STACKS) for (const [k, n] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) print(`   ${n}  ${k}`);
  }
  if (results.floor?.busy && names.length > 1) {
    const f = results.floor;
    const floorUs = (f.busy * f.tick) / f.reqs;
    print(`\n=== busy µs/request vs floor (/floor/limited ≈ ${floorUs.toFixed(0)} µs)`);
    for (const [name, r] of Object.entries(results)) {
      if (name === "floor") continue;
      const us = (r.busy * r.tick) / r.reqs;
      print(`${name.padEnd(18)} ${us.toFixed(0).padStart(5)} µs  ×${(us / floorUs).toFixed(1)} floor`);
    }
  }
  return out.join("\n");
}

// --- command line: node bench/lib/profile-analysis.mjs [dir] [op ...] [--compact ...] ------------
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  // The first argument is the folder when it holds a summary.json (an op name never does).
  const dir = args[0] && !args[0].startsWith("--") && existsSync(join(args[0], "summary.json")) ? args.shift() : defaultProfileDir();
  if (!existsSync(join(dir, "summary.json"))) {
    console.error(`no ${join(dir, "summary.json")}: run npm run profile first, or name the folder it wrote`);
    process.exit(1);
  }
  try {
    console.log(analyzeProfiles(dir, parseAnalysisArgs(args)));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
