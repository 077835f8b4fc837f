import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanDescription } from "../src/description/clean";
import { htmlViolations } from "./support/html-invariants";

// Random tag soup, cleaned, re-parsed by parse5 as a browser would: DESIGN.md section 6.

const withRandomCase = (word: string) =>
  fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(""));

const tagName = fc.constantFrom(
  "strong", "b", "em", "i", "br", "p", "div", "ul", "ol", "li", "a", // allowed
  "span", "font", "table", "td", "img", "input", "button", "form", "body", "html", "x-y", "image",
  "script", "style", "iframe", "frame", "frameset", "object", "embed", "template", "noscript",
  "noembed", "noframes", "xmp", "plaintext", "svg", "math", "title", "textarea", "select",
  "option", "foreignobject", "desc", "mi", "annotation-xml", "head", "listing", "pre",
).chain(withRandomCase);

const hostileValue = fc.oneof(
  fc.constantFrom(
    "javascript:alert(1)", "&#106;avascript:alert(1)", "&#x6A;avascript:alert(1)", "&#0000106avascript:x",
    "java&#x09;script:x", "java\tscript:x", "javascript&colon;x", "JaVaScRiPt:x", " \u0001javascript:x",
    "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "http://ok.example/", "HTTPS://OK.example",
    "https://ok.example/a?b=1&amp;c=2", "mailto:someone@example.com", "//evil.example", "/relative", "#top",
    "_blank", "_BLANK", "_top", "_new", "\" onmouseover=\"x", "x' onload='y", "><img src=x onerror=alert(1)>",
    "&", "&amp;", "&quot;", "</a>", "<!--", "mailto:<x>\"y\"",
  ),
  fc.string({ maxLength: 12 }),
  // Enough of a URL to parse sometimes, to test normalisation and re-cleaning.
  fc.tuple(
    fc.constantFrom("http://", "https://", "HTTPS://", "mailto:", " mailto:", "http:", "https://[::1]", "http://bücher.example", "javascript:"),
    fc.string({ unit: fc.constantFrom("/", "?", "#", " ", "%", "%2", '"', "<", ">", "&", "&amp;", ".", "..", ":", "@", "\\", "\t", "x", "é", "\u00a0", "[", "]"), maxLength: 10 }),
  ).map(([scheme, rest]) => scheme + rest),
);

const attributeName = fc.constantFrom(
  "href", "target", "onclick", "onerror", "style", "src", "class", "xlink:href", "formaction", "id", "title",
).chain(withRandomCase);

const attribute = fc
  .tuple(attributeName, hostileValue, fc.constantFrom('"', "'", ""))
  .map(([name, value, quote]) => (quote === "" ? ` ${name}=${value.replace(/[\s>]/g, "")}` : ` ${name}=${quote}${value}${quote}`));

const startTag = fc
  .tuple(tagName, fc.array(attribute, { maxLength: 3 }), fc.boolean())
  .map(([name, attrs, selfClosing]) => `<${name}${attrs.join("")}${selfClosing ? "/" : ""}>`);

const endTag = tagName.map((name) => `</${name}>`);

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    "<", ">", "&", "&amp;", "&#60;", "&lt", "&#x3C", "&foo;", "\"", "'", "=", "\u0000", "\t", "\r\n", "\u00a0",
    "<!--", "-->", "<!-- x -->", "<![CDATA[<b>]]>", "<?xml x?>", "<!DOCTYPE html>", "</", "<a", "< b>", "</ x>",
  ),
);

const node = fc.oneof({ weight: 3, arbitrary: startTag }, { weight: 2, arbitrary: endTag }, { weight: 3, arbitrary: text });

const unterminatedEnding = fc.constantFrom("", "", "<", "<b", "<a href=\"http://x", "</", "</p", "<!--", "&", "&#", "<script>", "<a href='");

const tagSoup = fc
  .tuple(fc.array(node, { maxLength: 30 }), unterminatedEnding)
  .map(([nodes, ending]) => nodes.join("") + ending);

/** Anything made of the characters that matter to a tokeniser. */
const characterSoup = fc.string({
  unit: fc.constantFrom("<", ">", "/", "!", "-", "?", "=", '"', "'", "&", "#", ";", " ", "\n", "a", "b", "p", "l", "i", "s", "c", "r", "t", "x", ":"),
  maxLength: 40,
});

async function expectCleanAndStable(input: string): Promise<void> {
  const output = await cleanDescription(input);
  expect(htmlViolations(output), JSON.stringify({ input, output })).toEqual([]);
  expect(await cleanDescription(output), JSON.stringify({ input, output })).toBe(output);
}

describe("description cleaning, properties (DESIGN.md section 6)", () => {
  it("random tag soup re-parses to allowed elements, allowed attributes, http/https/mailto hrefs, no comments, with every tag written explicitly; cleaning again changes nothing", async () => {
    await fc.assert(fc.asyncProperty(tagSoup, expectCleanAndStable), { numRuns: 1000 });
  });

  it("random strings of markup characters: the same promises", async () => {
    await fc.assert(fc.asyncProperty(characterSoup, expectCleanAndStable), { numRuns: 1000 });
  });
});
