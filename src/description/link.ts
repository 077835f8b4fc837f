// The two attributes an `a` may keep. HTMLRewriter hands attribute values over exactly as
// written, so `&#106;avascript:` or `java&Tab;script:` must be decoded before any check:
// the browser decodes them before it ever looks at the URL.

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);
const TARGETS = new Set(["_blank", "_self", "_parent", "_top"]);

// Named references that can spell a URL's punctuation, plus the usual escapes. Names not listed
// stay as written: the value is then checked in a form no more dangerous than the browser's.
const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0",
  Tab: "\t", NewLine: "\n", colon: ":", semi: ";", sol: "/", bsol: "\\", period: ".",
  comma: ",", excl: "!", quest: "?", num: "#", percnt: "%", plus: "+", equals: "=",
  commat: "@", dollar: "$", ast: "*", lpar: "(", rpar: ")", lsqb: "[", rsqb: "]",
  lcub: "{", rcub: "}", lowbar: "_", grave: "`", hat: "^", verbar: "|",
};
// HTML still decodes these without the semicolon (unless a letter, digit or `=` follows).
const LEGACY = new Set(["amp", "lt", "gt", "quot", "nbsp"]);

const REFERENCE = /&(?:#(\d+)|#[xX]([\da-fA-F]+)|([A-Za-z][A-Za-z\d]*))(;?)/g;
const ASCII_CONTROL = /[\u0000-\u001f\u007f]/g;

/** Decodes character references in an attribute value as an HTML parser does. */
function decodeAttribute(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(REFERENCE, (ref, dec: string | undefined, hex: string | undefined, name: string | undefined, semi: string, at: number) => {
    if (name === undefined) return codePoint(dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16));
    const decoded = NAMED[name];
    if (decoded === undefined) return ref;
    if (semi || (LEGACY.has(name) && raw[at + ref.length] !== "=")) return decoded;
    return ref;
  });
}

function codePoint(n: number): string {
  const invalid = !(n > 0 && n <= 0x10ffff) || (n >= 0xd800 && n <= 0xdfff);
  return invalid ? "\ufffd" : String.fromCodePoint(n);
}

/**
 * The href to write, or null when the link must go: only an absolute http, https or mailto URL
 * survives, written back in the URL parser's normalised form.
 */
export function safeHref(raw: string | null): string | null {
  if (raw === null) return null;
  // Browsers skip control characters and surrounding spaces in a URL (`java\tscript:`);
  // URL.parse trims the spaces, the controls go here.
  const url = URL.parse(decodeAttribute(raw).replace(ASCII_CONTROL, ""));
  return url && LINK_SCHEMES.has(url.protocol) ? url.href : null;
}

/** The target to write (browsers compare these keywords case-insensitively), or null to drop it. */
export function safeTarget(raw: string | null): string | null {
  if (raw === null) return null;
  const keyword = decodeAttribute(raw).trim().toLowerCase();
  return TARGETS.has(keyword) ? keyword : null;
}
