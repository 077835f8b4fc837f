// Writes the cleaned description from start/end/text events. It decides the nesting itself,
// so that what it writes is exactly the tree an HTML5 parser builds from it: every element is
// closed explicitly, and no start tag is written where the parser would close an open element
// on its own (a block in `<p>`, `<a>` in `<a>`, `<li>` in `<li>`).

export type AllowedTag = "strong" | "b" | "em" | "i" | "br" | "p" | "div" | "ul" | "ol" | "li" | "a";

export interface OpenElement {
  readonly tag: AllowedTag;
  /** Position on the stack while open; -1 once closed. */
  index: number;
  /** Stack position of the nearest enclosing-or-self ul, ol or li; -1 if none. */
  readonly listIndex: number;
}

/** Start tags of these close an open `<p>` in an HTML parser. */
const CLOSES_P = new Set<AllowedTag>(["p", "div", "ul", "ol", "li"]);
/** Deeper elements are unwrapped: no description needs it, and Chromium's parser flattens trees past 512. */
export const MAX_DEPTH = 100;

const TEXT_UNSAFE = /[<>\0]|&(?!#\d|#[xX][\da-fA-F]|[A-Za-z][A-Za-z\d]*;)/g;
const ATTRIBUTE_UNSAFE = /[&"<>]/g;
const ESCAPES: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "\0": "" };
const escape = (c: string) => ESCAPES[c];

/**
 * `<` and `>` always, so no text can fuse with a neighbour into a tag; `&` unless it starts a
 * character reference, which stays as written (decoding all of HTML's named references would
 * need their whole table). Escaped output escapes to itself, which keeps cleaning idempotent.
 */
function escapeText(text: string): string {
  return text.replace(TEXT_UNSAFE, escape);
}

export class MarkupWriter {
  private readonly parts: string[] = [];
  private readonly stack: OpenElement[] = [];
  private openP = 0;
  private openA = 0;

  text(raw: string): void {
    if (raw) this.parts.push(escapeText(raw));
  }

  /**
   * Writes a start tag (attributes already checked) after closing what it would close in a
   * browser. Returns the element its end tag must close, or null when nothing stays open:
   * `br`, an `li` outside a list, and elements past MAX_DEPTH are not opened.
   */
  start(tag: AllowedTag, attributes: readonly (readonly [string, string])[] = []): OpenElement | null {
    if (CLOSES_P.has(tag) && this.openP > 0) this.closeNearest("p");
    if (tag === "a" && this.openA > 0) this.closeNearest("a");
    if (tag === "li") {
      const list = this.top()?.listIndex ?? -1;
      if (list >= 0 && this.stack[list].tag === "li") this.closeFrom(list);
      const parent = this.top()?.tag;
      if (parent !== "ul" && parent !== "ol") return null;
    }
    if (tag !== "br" && this.stack.length >= MAX_DEPTH) return null;

    let markup = `<${tag}`;
    for (const [name, value] of attributes) markup += ` ${name}="${value.replace(ATTRIBUTE_UNSAFE, escape)}"`;
    this.parts.push(markup + ">");
    if (tag === "br") return null;

    const index = this.stack.length;
    const isList = tag === "ul" || tag === "ol" || tag === "li";
    const element: OpenElement = { tag, index, listIndex: isList ? index : (this.top()?.listIndex ?? -1) };
    this.stack.push(element);
    if (tag === "p") this.openP++;
    if (tag === "a") this.openA++;
    return element;
  }

  /** Closes `element` and whatever is still open inside it; nothing if it is already closed. */
  end(element: OpenElement): void {
    if (element.index >= 0) this.closeFrom(element.index);
  }

  /** The cleaned markup, with every element still open closed. */
  finish(): string {
    this.closeFrom(0);
    return this.parts.join("");
  }

  private top(): OpenElement | undefined {
    return this.stack[this.stack.length - 1];
  }

  private closeNearest(tag: AllowedTag): void {
    // Only reached while such an element is open; each step pops, so the walk costs nothing extra.
    let i = this.stack.length - 1;
    while (this.stack[i].tag !== tag) i--;
    this.closeFrom(i);
  }

  private closeFrom(index: number): void {
    while (this.stack.length > index) {
      const element = this.stack.pop()!;
      element.index = -1;
      if (element.tag === "p") this.openP--;
      if (element.tag === "a") this.openA--;
      this.parts.push(`</${element.tag}>`);
    }
  }
}
