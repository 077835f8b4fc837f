import { ValidationError } from "../http/problem";
import { safeHref, safeTarget } from "./link";
import { type AllowedTag, MarkupWriter } from "./writer";

// DESIGN.md section 6. The rewriter's own output is thrown away: the cleaned description is
// rebuilt from its events (start tag, end tag, text) by a writer that escapes every text and
// decides all nesting, so nothing from the input reaches the output unexamined: not a stray
// `<`, not an unterminated tag at the end, not a comment or doctype.

const ALLOWED = new Set<string>(["strong", "b", "em", "i", "br", "p", "div", "ul", "ol", "li", "a"]);

/** Elements whose content is never text for a reader (raw text, scripts, foreign content): they go with it. */
const DROPPED_WITH_CONTENT = new Set([
  "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "template",
  "noscript", "noembed", "noframes", "xmp", "plaintext", "svg", "math", "head", "title",
  "textarea", "select", "option",
]);
/** Void in HTML, but lol-html would wait for its end tag and drop everything after it. */
const VOID_BUT_NOT_TO_LOL_HTML = "frame";

/** Every other element is unwrapped, which needs no handler: its tags are simply never written. */
const HANDLED = [...ALLOWED, ...DROPPED_WITH_CONTENT].join(", ");

/**
 * lol-html refuses (throws) to tokenise a raw-text element inside `<select>` or after
 * `<frameset>`, because a browser's tree builder would decide how to read it. Both go with
 * their content anyway, so a retry reads them as `<template>`, which also goes with its content
 * and which the tokeniser parses as plain markup.
 */
const AMBIGUOUS_CONTEXT = /<(\/?)(?:select|frameset)(?=[\t\n\f\r />]|$)/gi;

/**
 * Cleans job description HTML down to the allow-list; the result is well-formed and cleaning
 * it again changes nothing. Throws a ValidationError (field `description`) for HTML that leaves
 * more elements open at once than lol-html can track (16384 in workerd).
 */
export async function cleanDescription(html: string): Promise<string> {
  try {
    return await rebuild(html);
  } catch (error) {
    if (!isParserError(error)) throw error;
    const unambiguous = html.replace(AMBIGUOUS_CONTEXT, "<$1template");
    if (unambiguous !== html) return cleanDescription(unambiguous);
    if (error.message.includes("memory limit")) {
      throw new ValidationError([{ field: "description", message: TOO_MANY_OPEN_ELEMENTS }]);
    }
    throw error;
  }
}

const TOO_MANY_OPEN_ELEMENTS =
  "Description HTML leaves too many elements open at once (thousands of unclosed tags) to be cleaned; close elements such as <p> and <li>.";

/** lol-html reports input it will not tokenise as a TypeError starting "Parser error:". */
function isParserError(error: unknown): error is TypeError {
  return error instanceof TypeError && error.message.startsWith("Parser error:");
}

async function rebuild(html: string): Promise<string> {
  const writer = new MarkupWriter();
  let dropping = false; // inside an element that goes with its content
  let text: string[] = []; // chunks of the current text node: a reference may span two chunks
  const flushText = () => {
    if (text.length > 0) writer.text(text.join(""));
    text = [];
  };

  const rewriter = new HTMLRewriter()
    .on(HANDLED, {
      element(element) {
        if (dropping) return;
        flushText();
        const tag = element.tagName;
        if (DROPPED_WITH_CONTENT.has(tag)) {
          // Void and self-closing ones (`<embed>`, `<svg/>`) have no content to drop.
          dropping = tag !== VOID_BUT_NOT_TO_LOL_HTML && onEndTag(element, () => (dropping = false));
          return;
        }

        let attributes: [string, string][] = [];
        if (tag === "a") {
          const href = safeHref(element.getAttribute("href"));
          if (href === null) return; // an a without a safe link is unwrapped
          const target = safeTarget(element.getAttribute("target"));
          attributes = target === null ? [["href", href]] : [["href", href], ["target", target]];
        }
        const open = writer.start(tag as AllowedTag, attributes);
        if (open === null) return;
        const hasEndTag = onEndTag(element, () => {
          flushText();
          writer.end(open);
        });
        if (!hasEndTag) writer.end(open);
      },
    })
    .onDocument({
      text(chunk) {
        if (dropping) return;
        text.push(chunk.text);
        if (chunk.lastInTextNode) flushText();
      },
      // Comments and doctypes are simply never written, nor is anything else not handled here.
    });

  // Drains the rewriter: its events fill the writer.
  await rewriter.transform(new Response(html)).arrayBuffer();
  flushText();
  return writer.finish();
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
