// A cheap, linear count of a description's markup before HTMLRewriter sees it (DESIGN.md 6a).
// Each tag costs the cleaner a call from the rewriter into JavaScript, and each comment splits
// the text around it into one more call, so the count bounds the cleaner's work. It reads the
// input the way the HTML tokeniser does where that changes the count (attribute values, comments,
// raw-text elements such as <script>, <plaintext>), and otherwise only approximately (foreign
// content, script escapes): the cleaner keeps its own hard budget of events as a backstop.

/**
 * DESIGN 6a: more start and end tags than this may be refused. Counted as the cleaned description
 * writes them: an element's end tag counts whether written or left implied (`<li>a<li>b` is four
 * tags), so cleaning never turns an accepted description into one over the limit and a client
 * can always send back what it got; and comments count, since each splits the text around it
 * into one more call.
 */
export const MAX_TAGS = 20_000;
/** DESIGN 6a: more elements open at once than this may be refused. */
export const MAX_OPEN_ELEMENTS = 10_000;

export interface MarkupCount {
  /** Start and end tags (implied end tags and `</>` included), comments, doctypes and processing instructions. */
  tags: number;
  /** The deepest stack of elements open at once, closing by end tags only (as lol-html tracks them). */
  maxOpen: number;
  /** `[from, to)` of each `<select>` and `<frameset>` with its content (see clean.ts). */
  ambiguous: [number, number][];
  /** `[from, to)` of the content of each raw-text element, and whether it is a script's (see blankRawText). */
  rawText: [number, number, boolean][];
}

const VOID = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
]);
/** Their content is text up to their own end tag. */
const RAW_TEXT = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title"]);
const FOREIGN = new Set(["svg", "math"]);
/** Start tags that end lol-html's "in select" state (its ambiguity guard) as they end a browser's. */
const ENDS_SELECT = new Set(["select", "textarea", "input", "keygen"]);

const SPACE = "[\\t\\n\\f\\r ]";
const ATTRIBUTES = `(?:[\\t\\n\\f\\r /]+|[^\\t\\n\\f\\r />][^\\t\\n\\f\\r />=]*(?:${SPACE}*=${SPACE}*(?:"[^"]*"?|'[^']*'?|[^\\t\\n\\f\\r >]*))?)*`;
// One token at a time from `lastIndex`; the groups say which kind. Text runs to the next `<`.
const TOKEN = new RegExp(
  [
    "[^<]+", // text
    "<!--(?:-?>|[\\s\\S]*?--!?>|[\\s\\S]*)", // comment
    "<!\\[CDATA\\[[\\s\\S]*?(?:\\]\\]>|$)", // CDATA, a section only in foreign content
    "<[!?][^>]*>?", // doctype, processing instruction, bogus comment
    `<(/?)([A-Za-z][^\\t\\n\\f\\r />]*)${ATTRIBUTES}(>?)`, // start or end tag: groups 1 (`/`), 2 (name), 3 (`>`)
    "</[^A-Za-z>][^>]*>?", // bogus comment
    "</>|<", // an end tag without a name, or a `<` that is text
  ].join("|"),
  "y",
);

// HTML5 tokenising: a `<` followed by anything but a letter, `/`, `!` or `?` starts nothing; it is
// text (`a < b`, `<1`, `<<`, a `<` at the end).
const STRAY_LESS_THAN = /<(?![A-Za-z/!?])/g;

/**
 * The same description with each `<` that starts nothing written as `&lt;`. lol-html hands every
 * such `<` to JavaScript as a text chunk of its own, so 1 MiB of them would cost a million
 * events; as `&lt;` they cost none and the cleaned description is the same: text is written
 * escaped anyway, and an attribute value (where a `<` may also stand) is decoded before use.
 * Where neither applies (a comment, raw text) the content is dropped, and a `<` that starts
 * nothing does not move where it ends.
 */
export function escapeStrayLessThan(html: string): string {
  return html.includes("<") ? html.replace(STRAY_LESS_THAN, "&lt;") : html;
}

/**
 * Counts tags and open elements, stopping early once either limit is passed (the count is then
 * only known to be over it).
 */
export function countMarkup(html: string): MarkupCount {
  const count: MarkupCount = { tags: 0, maxOpen: 0, ambiguous: [], rawText: [] };
  let lower: string | undefined; // for finding the end of raw text, made on first need
  const open: string[] = [];
  const openByName = new Map<string, number>();
  let foreign = 0; // depth of svg/math, where raw-text elements and voids do not exist
  let select = -1; // start of the open <select>, if any
  let frameset = -1;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < html.length) {
    if (count.tags > MAX_TAGS || count.maxOpen > MAX_OPEN_ELEMENTS) return count;
    const at = TOKEN.lastIndex;
    const token = TOKEN.exec(html)!;
    const first = token[0];
    if (first.length === 1 || first[0] !== "<") continue; // text, or `<` as text
    if (first === "</>") {
      // An end tag without a name: HTML drops it, but lol-html splits the text around it.
      count.tags++;
      continue;
    }
    if (token[2] === undefined) {
      // comment, CDATA, doctype, processing instruction
      if (first.startsWith("<![CDATA[") && foreign === 0) {
        const end = html.indexOf(">", at); // outside foreign content, a bogus comment up to the first `>`
        TOKEN.lastIndex = end < 0 ? html.length : end + 1;
      }
      count.tags++;
      continue;
    }
    if (token[3] === "") break; // a tag cut off by the end of the input is no tag
    const name = token[2].toLowerCase();
    if (token[1] === "/") {
      if (name === "select" && select >= 0) {
        count.ambiguous.push([select, TOKEN.lastIndex]);
        select = -1;
      } else if (name === "frameset" && frameset >= 0) {
        count.ambiguous.push([frameset, TOKEN.lastIndex]);
        frameset = -1;
      }
      // An end tag of an open element was counted with its start; a stray one (or one of a
      // raw-text element) counts on its own.
      if ((openByName.get(name) ?? 0) === 0) {
        count.tags++;
        continue;
      }
      for (;;) {
        const closed = open.pop()!;
        openByName.set(closed, openByName.get(closed)! - 1);
        if (FOREIGN.has(closed)) foreign--;
        if (closed === name) break;
      }
      continue;
    }
    if (select >= 0 && ENDS_SELECT.has(name)) {
      count.ambiguous.push([select, at]);
      select = -1;
    }
    if (select < 0 && frameset < 0) {
      if (name === "select") select = at;
      else if (name === "frameset") frameset = at;
    }
    count.tags++;
    if (foreign === 0 && RAW_TEXT.has(name)) {
      lower ??= html.toLowerCase();
      const end = lower.indexOf(`</${name}`, TOKEN.lastIndex);
      const to = end < 0 ? html.length : end;
      count.rawText.push([TOKEN.lastIndex, to, name === "script"]);
      TOKEN.lastIndex = to;
      continue;
    }
    if (foreign === 0 && name === "plaintext") break;
    if (foreign === 0 ? VOID.has(name) : first.endsWith("/>")) continue;
    count.tags++; // its end tag, written or implied
    if (FOREIGN.has(name)) foreign++;
    open.push(name);
    openByName.set(name, (openByName.get(name) ?? 0) + 1);
    if (open.length > count.maxOpen) count.maxOpen = open.length;
  }
  for (const from of [select, frameset]) if (from >= 0) count.ambiguous.push([from, html.length]);
  return count;
}

/** In a script, `<!--` starts an escape within which `<script` changes where it ends: those stay. */
const INERT_IN_SCRIPT = /<(?!!--|script)/gi;

/**
 * `html` with each `<` in the given raw-text contents that cannot change where the content ends
 * written as a space: lol-html hands the text after every `<` there to JavaScript as a chunk of
 * its own (it might start the end tag), and the count does not see them as tags, since they are
 * none. Those contents go with their element, so nothing read changes; positions stay where
 * they were.
 */
export function blankRawText(html: string, spans: readonly [number, number, boolean][]): string {
  const quiet = spans.filter(([from, to]) => html.slice(from, to).includes("<"));
  if (quiet.length === 0) return html;
  const parts: string[] = [];
  let at = 0;
  for (const [from, to, script] of quiet) {
    const content = html.slice(from, to);
    parts.push(html.slice(at, from), script ? content.replace(INERT_IN_SCRIPT, " ") : content.replaceAll("<", " "));
    at = to;
  }
  parts.push(html.slice(at));
  return parts.join("");
}

/** The message for a description over a limit, or null when it is within both. */
export function overLimit({ tags, maxOpen }: MarkupCount): string | null {
  if (maxOpen > MAX_OPEN_ELEMENTS) {
    return `Description HTML leaves more than ${MAX_OPEN_ELEMENTS.toLocaleString("en-US")} elements open at once; close elements such as <p>, <li> and <div>.`;
  }
  if (tags > MAX_TAGS) {
    return `Description HTML has more than ${MAX_TAGS.toLocaleString("en-US")} tags (start and end tags, implied end tags and comments together); send at most ${MAX_TAGS.toLocaleString("en-US")}.`;
  }
  return null;
}
