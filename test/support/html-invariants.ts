import { type DefaultTreeAdapterTypes, defaultTreeAdapter, html, parseFragment } from "parse5";

// What DESIGN.md section 6 promises about a cleaned description, checked the way a browser
// reads it: parse5 parses it as the innerHTML of a <div>.

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.DocumentFragment;

const ALLOWED = new Set(["strong", "b", "em", "i", "br", "p", "div", "ul", "ol", "li", "a"]);
const SCHEMES = new Set(["http:", "https:", "mailto:"]);
const TARGETS = new Set(["_blank", "_self", "_parent", "_top"]);

/** Every broken promise in `output` (empty when it keeps them all). */
export function htmlViolations(output: string): string[] {
  const context = defaultTreeAdapter.createElement("div", html.NS.HTML, []);
  const fragment = parseFragment(context, output, {});
  const problems: string[] = [];
  checkNode(fragment, problems);
  const written = writtenSkeleton(output, problems);
  const built = builtSkeleton(fragment);
  if (written !== null && written !== built) {
    problems.push(`the parser builds ${built} but the tags written are ${written}`);
  }
  return problems;
}

function checkNode(node: Node, problems: string[]): void {
  if (node.nodeName === "#comment") problems.push("a comment");
  if ("tagName" in node) {
    if (node.namespaceURI !== html.NS.HTML || !ALLOWED.has(node.tagName)) {
      problems.push(`element <${node.tagName}> (${node.namespaceURI})`);
    }
    checkAttributes(node.tagName, new Map(node.attrs.map((a) => [a.name, a.value])), problems);
  }
  if ("childNodes" in node) for (const child of node.childNodes) checkNode(child, problems);
}

function checkAttributes(tag: string, attrs: Map<string, string>, problems: string[]): void {
  const allowed = tag === "a" ? ["href", "target"] : [];
  for (const name of attrs.keys()) if (!allowed.includes(name)) problems.push(`attribute ${name} on <${tag}>`);
  if (tag !== "a") return;
  const href = attrs.get("href");
  const url = href === undefined ? null : URL.parse(href);
  if (href === undefined) problems.push("<a> without href");
  else if (url === null || !SCHEMES.has(url.protocol)) problems.push(`href ${JSON.stringify(href)}`);
  else if (url.href !== href) problems.push(`href ${JSON.stringify(href)} is not normalised`);
  const target = attrs.get("target");
  if (target !== undefined && !TARGETS.has(target)) problems.push(`target ${JSON.stringify(target)}`);
}

/** Tags only, as the parser built them: `<p><b></b></p><br>`. */
function builtSkeleton(node: Node): string {
  const inner = "childNodes" in node ? node.childNodes.map(builtSkeleton).join("") : "";
  if (!("tagName" in node)) return inner;
  return node.tagName === "br" ? "<br>" : `<${node.tagName}>${inner}</${node.tagName}>`;
}

// The only markup the cleaner writes: a lowercase tag with double-quoted attributes, or an end tag.
const TOKEN = /<([a-z]+)(?: [a-z]+="[^"<>]*")*>|<\/([a-z]+)>|[^<>]+/y;

/**
 * Tags only, as written: null (and a problem) if the output holds a `<` or `>` that is not such
 * a tag, an end tag that does not close the innermost open element, or an element left open.
 */
function writtenSkeleton(output: string, problems: string[]): string | null {
  const open: string[] = [];
  let skeleton = "";
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < output.length) {
    const at = TOKEN.lastIndex;
    const token = TOKEN.exec(output);
    if (token === null) {
      problems.push(`markup not written by the cleaner at ${at}: ${JSON.stringify(output.slice(at, at + 40))}`);
      return null;
    }
    const [, start, end] = token;
    if (start !== undefined) {
      skeleton += `<${start}>`;
      if (start !== "br") open.push(start);
    } else if (end !== undefined) {
      if (open.pop() !== end) {
        problems.push(`</${end}> does not close the innermost open element`);
        return null;
      }
      skeleton += `</${end}>`;
    }
  }
  if (open.length > 0) {
    problems.push(`left open: ${open.join(" ")}`);
    return null;
  }
  return skeleton;
}
