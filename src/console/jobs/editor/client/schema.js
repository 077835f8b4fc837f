// The description editor's document (DESIGN 6, 25): only what the description cleaner keeps
// (src/description/clean.ts) — paragraphs, line breaks, bold, italic, bulleted and numbered
// lists, links. A ProseMirror schema cannot hold anything outside it, so neither typing nor
// pasting can produce markup the server would strip. Its HTML: p, br, strong, em, ul, ol, li,
// and a with an href only; never an attribute on anything else (no `start` on ol).
import { DOMParser as DocumentParser, DOMSerializer, Schema } from "prosemirror-model";

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/** The link to write, normalised, or null: only an absolute http, https or mailto address, as the cleaner keeps. */
export function safeHref(raw) {
  try {
    const url = new URL(String(raw ?? "").trim());
    return LINK_SCHEMES.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

export const schema = new Schema({
  nodes: {
    doc: { content: "block+" },
    paragraph: { group: "block", content: "inline*", parseDOM: [{ tag: "p" }], toDOM: () => ["p", 0] },
    bullet_list: { group: "block", content: "list_item+", parseDOM: [{ tag: "ul" }], toDOM: () => ["ul", 0] },
    ordered_list: { group: "block", content: "list_item+", parseDOM: [{ tag: "ol" }], toDOM: () => ["ol", 0] },
    list_item: { content: "paragraph block*", defining: true, parseDOM: [{ tag: "li" }], toDOM: () => ["li", 0] },
    text: { group: "inline" },
    hard_break: { group: "inline", inline: true, selectable: false, parseDOM: [{ tag: "br" }], toDOM: () => ["br"] },
  },
  marks: {
    link: {
      attrs: { href: { validate: "string" } },
      inclusive: false,
      parseDOM: [{ tag: "a[href]", getAttrs: (dom) => (safeHref(dom.getAttribute("href")) === null ? false : { href: safeHref(dom.getAttribute("href")) }) }],
      toDOM: (mark) => ["a", { href: mark.attrs.href }, 0],
    },
    strong: {
      // Pasted from some word processors, a `b` wraps everything with its weight set back to normal.
      parseDOM: [{ tag: "strong" }, { tag: "b", getAttrs: (dom) => dom.style.fontWeight !== "normal" && null }],
      toDOM: () => ["strong", 0],
    },
    em: { parseDOM: [{ tag: "em" }, { tag: "i" }], toDOM: () => ["em", 0] },
  },
});

/** The document a description's HTML makes; read in an inert document, so nothing in it runs or loads. */
export function docOf(html) {
  const body = new window.DOMParser().parseFromString(html, "text/html").body;
  return DocumentParser.fromSchema(schema).parse(body);
}

/** The description's HTML; empty for an empty document, so an untouched field stays left out. */
export function htmlOf(doc) {
  const only = doc.childCount === 1 ? doc.firstChild : null;
  if (only?.type === schema.nodes.paragraph && only.content.size === 0) return "";
  const holder = document.createElement("div");
  holder.append(DOMSerializer.fromSchema(schema).serializeFragment(doc.content));
  // An item's first paragraph is its own text (`<li>Forklift</li>`), as people write lists; read
  // back, the item's text makes that paragraph again.
  for (const first of holder.querySelectorAll("li > p:first-child")) first.replaceWith(...first.childNodes);
  return holder.innerHTML;
}
