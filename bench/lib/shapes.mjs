// Hostile description shapes: each unit repeated to a size. Every one of them is
// refused past 20 000 tags (DESIGN 6a), so the API answers the large ones with a 400 decided by
// a count; the cleaner itself is measured over them through the probe, without the limits.
export const HOSTILE_SHAPES = {
  "x<br>": "x<br>",
  "<i>x</i>": "<i>x</i>",
  "<b><i>x</i></b>": "<b><i>x</i></b>",
  "<ul><li>x<li>y</ul>": "<ul><li>x<li>y</ul>",
  comments: "<!-- c -->x",
  "<script>/<style> pairs": "<script>s</script><style>t</style>",
  "attributes on div": '<div class="c" style="color:red" onclick="x()">x</div>',
  "<span> unwrap": "<span>x</span>",
  "unclosed <p>": "<p>x",
  entities: "&amp;&lt;&#x20AC;&eacute;& x<br>",
};

/** Shapes whose 1 MiB form the cleaner can take without lol-html's own limit (16 384 open elements). */
export const CLOSED_SHAPES = Object.keys(HOSTILE_SHAPES).filter((name) => name !== "unclosed <p>");

/** `unit` repeated to at most `bytes` characters. */
export function repeatTo(unit, bytes) {
  return unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
}

/** The heaviest descriptions the API accepts: 20 000 tags of the costliest shapes. */
export const WORST_ACCEPTED = {
  "x<br> × 20 000 (20 000 tags)": "x<br>".repeat(20_000),
  "<b><i>x</i></b> × 5 000 (20 000 tags)": "<b><i>x</i></b>".repeat(5_000),
  "comments × 20 000": "<!-- c -->x".repeat(20_000),
};
