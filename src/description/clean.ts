import { ValidationError } from "../http/problem";
import { safeHref, safeTarget } from "./link";
import { blankRawText, countMarkup, escapeStrayLessThan, MAX_TAGS, overLimit } from "./markup";
import { type AllowedTag, MarkupWriter, type OpenElement } from "./writer";

// DESIGN.md sections 6 and 6a. The rewriter's own output is thrown away: the cleaned description
// is rebuilt from its events (start tag, end tag, text) by a writer that escapes every text and
// decides all nesting, so nothing from the input reaches the output unexamined: not a stray
// `<`, not an unterminated tag at the end, not a comment or doctype.
//
// Cost: each event is a call from the rewriter into JavaScript, by far the largest cost per tag
// (docs/benchmarks.md), so the handlers do as little as they can: one handler per tag name (no
// tagName read), no end-tag handler for `br`, text gathered as one string per text node. The
// number of events is bounded by a count made before the rewriter runs (markup.ts), over the
// input the rewriter reads: stray `<` written as `&lt;` and `<` in raw text (<style>…) as spaces,
// neither of which is a tag, so that they cost no event.
//
// No handler throws: an error thrown inside one leaves the rewriter as a plain Error, whatever
// it was. A handler records what went wrong, and it is reported once the rewriter is done.

const ALLOWED: readonly AllowedTag[] = ["strong", "b", "em", "i", "br", "p", "div", "ul", "ol", "li", "a"];

/** Elements whose content is never text for a reader (raw text, scripts, foreign content): they go with it. */
const DROPPED_WITH_CONTENT = [
  "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "template",
  "noscript", "noembed", "noframes", "xmp", "plaintext", "svg", "math", "head", "title",
  "textarea", "select", "option",
];
/** Void in HTML, but lol-html would wait for its end tag and drop everything after it. */
const VOID_BUT_NOT_TO_LOL_HTML = "frame";

/**
 * Events one pass may hand to JavaScript: one per tag, and one or two per text node (between
 * two tags or comments), plus slack for text split across input chunks. Within the limits of
 * markup.ts a pass stays below it; past it the input had more tags than the count saw, and is
 * refused as the count would have refused it.
 */
const MAX_EVENTS = 4 * MAX_TAGS + 1_000;

/**
 * DESIGN 6b: the most a cleaned description may hold, in UTF-8 bytes. Escaping can make it up to
 * five times its input (`&` is stored as `&amp;`); D1 caps a value at 2 MB and the board repeats
 * the description in its `jsonLd`.
 */
export const MAX_CLEANED_BYTES = 1_000_000;

/** Work done so far in this isolate, for tests and the benchmark to count (never timed). */
export const cleanerWork = { passes: 0, events: 0 };

/**
 * Cleans job description HTML down to the allow-list; the result is well-formed and cleaning
 * it again changes nothing. Throws a ValidationError (field `description`) for HTML over the
 * limits of DESIGN 6a (more than 20 000 tags, or more than 10 000 elements open at once) and for
 * a cleaned form over MAX_CLEANED_BYTES (6b).
 */
export async function cleanDescription(description: string): Promise<string> {
  const cleaned = await cleanWithinLimits(escapeStrayLessThan(description));
  if (isOverBytes(cleaned, MAX_CLEANED_BYTES)) throw new ValidationError([{ field: "description", message: TOO_LARGE }]);
  return cleaned;
}

/** Whether `text` is more than `max` bytes in UTF-8, encoding it only when its length leaves it open. */
function isOverBytes(text: string, max: number): boolean {
  // Each UTF-16 unit is 1 to 3 bytes in UTF-8 (a surrogate pair 4 for its two).
  if (text.length > max) return true;
  if (text.length * 3 <= max) return false;
  return new TextEncoder().encode(text).byteLength > max;
}

async function cleanWithinLimits(input: string): Promise<string> {
  const count = countMarkup(input);
  const refusal = overLimit(count);
  if (refusal !== null) throw new ValidationError([{ field: "description", message: refusal }]);
  const html = blankRawText(input, count.rawText);
  const writer = new MarkupWriter();
  try {
    await rewrite(html, writer);
  } catch (error) {
    if (!isParserError(error)) throw error;
    if (error.message.includes("memory limit")) throw new ValidationError([{ field: "description", message: TOO_MANY_OPEN }]);
    // lol-html refuses to tokenise a raw-text tag (<style>, <textarea>…) inside <select> or after
    // <frameset>, where only a browser's tree builder knows whether it starts raw text (its
    // "ambiguity guard", strict mode). Both go with their content anyway, so the input is read
    // again in the slices between them, each by a fresh tokeniser: the text itself is untouched.
    if (count.ambiguous.length === 0) throw new ValidationError([{ field: "description", message: AMBIGUOUS }]);
    return cleanAround(html, count.ambiguous);
  }
  return writer.finish();
}

/**
 * The rewriting alone, without the limits: only for the benchmark, which compares it with a bare
 * rewriter pass over inputs far past them. Never call it on a client's input.
 */
export async function rewriteUnbounded(html: string): Promise<string> {
  const writer = new MarkupWriter();
  await rewrite(escapeStrayLessThan(html), writer, Infinity);
  return writer.finish();
}

const TOO_MANY_OPEN = "Description HTML leaves too many elements open at once to be cleaned; close elements such as <p>, <li> and <div>.";
const AMBIGUOUS = "Description HTML has a raw-text element such as <style> where it cannot be read unambiguously; remove it.";
const TOO_LARGE = `Description is more than ${MAX_CLEANED_BYTES.toLocaleString("en-US")} bytes once cleaned (UTF-8, with &, < and > in text stored as &amp;, &lt; and &gt;); shorten it.`;

async function cleanAround(html: string, skipped: readonly [number, number][]): Promise<string> {
  const writer = new MarkupWriter();
  let from = 0;
  for (const [start, end] of skipped) {
    if (start > from) await rewriteOrRefuse(html.slice(from, start), writer);
    from = Math.max(from, end);
  }
  if (from < html.length) await rewriteOrRefuse(html.slice(from), writer);
  return writer.finish();
}

async function rewriteOrRefuse(html: string, writer: MarkupWriter): Promise<void> {
  try {
    await rewrite(html, writer);
  } catch (error) {
    if (isParserError(error)) throw new ValidationError([{ field: "description", message: AMBIGUOUS }]);
    throw error;
  }
}

/** lol-html reports input it will not tokenise as a TypeError starting "Parser error:". */
function isParserError(error: unknown): error is TypeError {
  return error instanceof TypeError && error.message.startsWith("Parser error:");
}

/** One rewriter pass over `html`, its events written into `writer`. */
async function rewrite(html: string, writer: MarkupWriter, maxEvents = MAX_EVENTS): Promise<void> {
  cleanerWork.passes++;
  let events = 0;
  // Past the budget every handler returns at once: the rewriter still reads to the end, but
  // hands nothing more to the writer.
  const counted = () => ++events <= maxEvents;
  let dropping = false; // inside an element that goes with its content
  // Text since the last tag written, flushed at the next one: reading each chunk's
  // lastInTextNode would cost a call into the runtime per chunk. (Text on both sides of a
  // comment or of an unwrapped tag is then escaped as one: harmless, `<` and `>` are always
  // escaped, so no markup can form.)
  let text = "";
  const flushText = () => {
    if (text !== "") writer.text(text);
    text = "";
  };
  const closer = (open: OpenElement) => () => {
    if (!counted()) return;
    flushText();
    writer.end(open);
  };

  const keep = (tag: AllowedTag): HTMLRewriterElementContentHandlers => ({
    element(element) {
      if (!counted() || dropping) return;
      flushText();
      let attributes: [string, string][] | undefined;
      if (tag === "a") {
        const href = safeHref(element.getAttribute("href"));
        if (href === null) return; // an a without a safe link is unwrapped
        const target = safeTarget(element.getAttribute("target"));
        attributes = target === null ? [["href", href]] : [["href", href], ["target", target]];
      }
      const open = writer.start(tag, attributes); // null for `br`: no end tag to wait for
      // `<b/>` still has an end tag in HTML, and lol-html agrees.
      if (open !== null && !onEndTag(element, closer(open))) writer.end(open);
    },
  });
  const drop = (tag: string): HTMLRewriterElementContentHandlers => ({
    element(element) {
      if (!counted() || dropping) return;
      flushText();
      // Void and self-closing ones (`<embed>`, `<svg/>`) have no content to drop.
      dropping = tag !== VOID_BUT_NOT_TO_LOL_HTML && onEndTag(element, () => {
        if (counted()) dropping = false;
      });
    },
  });

  // Every other element is unwrapped, which needs no handler: its tags are simply never written.
  let rewriter = new HTMLRewriter();
  for (const tag of ALLOWED) rewriter = rewriter.on(tag, keep(tag));
  for (const tag of DROPPED_WITH_CONTENT) rewriter = rewriter.on(tag, drop(tag));
  rewriter = rewriter.onDocument({
    text(chunk) {
      if (!counted() || dropping) return;
      text += chunk.text;
    },
    // Comments and doctypes are simply never written, nor is anything else not handled here.
  });

  try {
    // Drains the rewriter: its events fill the writer.
    await rewriter.transform(new Response(html)).arrayBuffer();
  } finally {
    cleanerWork.events += events;
  }
  if (events > maxEvents) {
    throw new ValidationError([{ field: "description", message: overLimit({ tags: MAX_TAGS + 1, maxOpen: 0, ambiguous: [], rawText: [] })! }]);
  }
  flushText();
}

/** Registers `handler` for the element's end tag; false if the element cannot have one (void or self-closing). */
function onEndTag(element: Element, handler: () => void): boolean {
  try {
    element.onEndTag(handler);
    return true;
  } catch {
    return false;
  }
}
