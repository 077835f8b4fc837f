import { describe, expect, it } from "vitest";
import { cleanDescription } from "../src/description/clean";
import { ValidationError } from "../src/http/problem";
import { MAX_DEPTH } from "../src/description/writer";
import { htmlViolations } from "./support/html-invariants";

// DESIGN.md section 6 and spec 4.2 (description): each row is input → exact output. Every
// output is also re-parsed with parse5 (allowed elements and attributes only, no comments,
// tags written explicitly) and cleaned again (nothing may change).

type Row = readonly [input: string, expected: string];

async function expectCleaned(input: string, expected: string): Promise<void> {
  const output = await cleanDescription(input);
  expect(output).toBe(expected);
  expect(htmlViolations(output)).toEqual([]);
  expect(await cleanDescription(output)).toBe(output);
}

const table = (rule: string, rows: readonly Row[]) =>
  describe(rule, () => {
    it.each(rows)("%j → %j", expectCleaned);
  });

table("benign rich text survives exactly", [
  ["Plain text, nothing else.", "Plain text, nothing else."],
  ["<p>We are <strong>hiring</strong>!</p>", "<p>We are <strong>hiring</strong>!</p>"],
  ["<p><b>Bold</b>, <i>italic</i>, <em>emphasis</em>, <strong>strong</strong></p>", "<p><b>Bold</b>, <i>italic</i>, <em>emphasis</em>, <strong>strong</strong></p>"],
  ["<ul><li>Rust</li><li>TypeScript</li></ul>", "<ul><li>Rust</li><li>TypeScript</li></ul>"],
  ["<ol><li>Apply</li><li>Interview</li><li>Offer</li></ol>", "<ol><li>Apply</li><li>Interview</li><li>Offer</li></ol>"],
  ["<ul><li>Outer<ul><li>Inner</li></ul></li></ul>", "<ul><li>Outer<ul><li>Inner</li></ul></li></ul>"],
  ["<div><p>One</p><p>Two</p></div>", "<div><p>One</p><p>Two</p></div>"],
  ["Line one<br>Line two<br>Line three", "Line one<br>Line two<br>Line three"],
  ['<p>Apply at <a href="https://jobs.example.com/apply">our site</a>.</p>', '<p>Apply at <a href="https://jobs.example.com/apply">our site</a>.</p>'],
  ['<a href="mailto:jobs@example.com">Email us</a>', '<a href="mailto:jobs@example.com">Email us</a>'],
  ['<a href="https://example.com/" target="_blank">New tab</a>', '<a href="https://example.com/" target="_blank">New tab</a>'],
  ["<p>Salary: 50&nbsp;000 &amp; benefits &lt;3 &#8364; &#x20AC; &eacute;</p>", "<p>Salary: 50&nbsp;000 &amp; benefits &lt;3 &#8364; &#x20AC; &eacute;</p>"],
  ["<p>Café — naïve — 日本語 — 🚀</p>", "<p>Café — naïve — 日本語 — 🚀</p>"],
  ["<div>\n  <p>Indented</p>\n</div>\n", "<div>\n  <p>Indented</p>\n</div>\n"],
  ["<b><i>both</i></b> <strong><em>both</em></strong>", "<b><i>both</i></b> <strong><em>both</em></strong>"],
  ['<ul><li><a href="https://example.com/a">A</a></li><li><b>B</b><br>more</li></ul>', '<ul><li><a href="https://example.com/a">A</a></li><li><b>B</b><br>more</li></ul>'],
  ["<div><ul><li><p>Para in item</p></li></ul></div>", "<div><ul><li><p>Para in item</p></li></ul></div>"],
  ['"Quotes" and \'apostrophes\' stay', '"Quotes" and \'apostrophes\' stay'],
  ["", ""],
]);

table("tag names are case-insensitive and written in lowercase", [
  ["<P>Upper</P>", "<p>Upper</p>"],
  ["<B>bold</b> <sTrOnG>mixed</StRoNg>", "<b>bold</b> <strong>mixed</strong>"],
  ["<UL><LI>x</LI></UL>", "<ul><li>x</li></ul>"],
  ['<A HREF="https://example.com/">up</A>', '<a href="https://example.com/">up</a>'],
  ["<SCRIPT>alert(1)</SCRIPT>after", "after"],
  ["<ScRiPt>alert(1)</sCrIpT>after", "after"],
  ["<BR><Br/>", "<br><br>"],
]);

table("a disallowed element is unwrapped: its tags go, its text stays", [
  ["<span>kept text</span>", "kept text"],
  ['<font color="red">red</font>', "red"],
  ["<h1>Title</h1><h2>Sub</h2>", "TitleSub"],
  ["<table><tr><td>cell</td></tr></table>", "cell"],
  ["<custom-element>custom</custom-element>", "custom"],
  ["<html><body><p>in body</p></body></html>", "<p>in body</p>"],
  ["<u>under</u><s>strike</s><code>code</code><pre>pre</pre>", "understrikecodepre"],
  ["<blockquote><p>quoted</p></blockquote>", "<p>quoted</p>"],
  ['<img src="x.png" alt="alt text">after', "after"],
  ['<form action="javascript:alert(1)"><button formaction="javascript:x">Go</button></form>', "Go"],
  ["<details open ontoggle=alert(1)><summary>sum</summary>body</details>", "sumbody"],
  ["<marquee onstart=alert(1)>moving</marquee>", "moving"],
  ["<video><source onerror=alert(1)>fallback</video>", "fallback"],
  ["<isindex>x", "x"],
]);

table("these elements go with their content", [
  ["a<script>alert('<b>x</b>')</script>b", "ab"],
  ["a<style>b { color: red } </style>b", "ab"],
  ['a<iframe src="https://evil.example/">frame text <b>x</b></iframe>b', "ab"],
  ["a<frame src=x>b", "ab"],
  ["a<frameset><frame src=x></frameset>b", "ab"],
  ['a<object data="x.swf"><param name=x value=y>text</object>b', "ab"],
  ['a<embed src="x.swf">b', "ab"],
  ['a<applet code="X.class">applet text</applet>b', "ab"],
  ["a<template><b>hidden</b></template>b", "ab"],
  ['a<noscript><p title="</noscript><img src=x onerror=alert(1)>">b', 'a"&gt;b'],
  ["a<noembed><b>x</b></noembed>b", "ab"],
  ["a<noframes><b>x</b></noframes>b", "ab"],
  ["a<xmp><b>not bold</b></xmp>b", "ab"],
  ["a<plaintext><b>everything after is gone</b>", "a"],
  ["a<svg><circle r=1 /><text>svg text</text></svg>b", "ab"],
  ["a<math><mi>x</mi></math>b", "ab"],
  ["a<head><title>t</title></head>b", "ab"],
  ["a<title><b>title</b></title>b", "ab"],
  ["a<textarea><b>typed</b></textarea>b", "ab"],
  ["a<select><option>One</option><option>Two</option></select>b", "ab"],
  ["a<option>lone option</option>b", "ab"],
  ["<script>document.write('<b>')</script><b>real</b>", "<b>real</b>"],
]);

table("raw-text elements hide markup, which must not come alive", [
  ['<textarea></textarea><img src=x onerror=alert(1)></textarea>', ""],
  ['<title><img src=x onerror=alert(1)></title>', ""],
  ['<xmp></xmp><b>after</b>', "<b>after</b>"],
  ['<style></style><img src=x onerror=alert(1)>', ""],
  ['<iframe><iframe/onload=alert(1)></iframe>', ""],
  ['<noembed><img title="</noembed><img src onerror=alert(1)>"></noembed>', '"&gt;'],
  ["<script><!--<script></script>-->after", ""],
  ['<select><style></select><img src=x onerror=alert(1)></style></select>after', "after"],
]);

table("every attribute on the other allowed tags is dropped", [
  ['<p onclick="alert(1)">p</p>', "<p>p</p>"],
  ['<b onmouseover=alert(1)>b</b>', "<b>b</b>"],
  ['<div style="background:url(javascript:alert(1))">d</div>', "<div>d</div>"],
  ['<i class="x" id="y" title="z" lang="en" dir="rtl">i</i>', "<i>i</i>"],
  ['<ol><li value="3">x</li></ol>', "<ol><li>x</li></ol>"],
  ['<br clear="all" onload=alert(1)>', "<br>"],
  ['<strong data-x="1" aria-label="l" tabindex=1 autofocus onfocus=alert(1)>s</strong>', "<strong>s</strong>"],
  ['<div/onclick=alert(1)>d</div>', "<div>d</div>"],
  ['<p\tonclick=alert(1)>tab</p>', "<p>tab</p>"],
  ['<a href="https://example.com/" onclick="alert(1)" style="x" rel="opener" download ping="https://e/">a</a>', '<a href="https://example.com/">a</a>'],
]);

table("href: javascript: in every encoding unwraps the link", [
  ['<a href="javascript:alert(1)">x</a>', "x"],
  ['<a href="JaVaScRiPt:alert(1)">x</a>', "x"],
  ['<a href="&#106;avascript:alert(1)">x</a>', "x"],
  ['<a href="&#106avascript:alert(1)">x</a>', "x"],
  ['<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>', "x"],
  ['<a href="&#x6A;avascript:alert(1)">x</a>', "x"],
  ['<a href="&#X6a;avascript:alert(1)">x</a>', "x"],
  ['<a href="&#x6Aavascript:alert(1)">x</a>', "x"],
  ['<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">x</a>', "x"],
  ['<a href="java\tscript:alert(1)">x</a>', "x"],
  ['<a href="java\nscript:alert(1)">x</a>', "x"],
  ['<a href="java\rscript:alert(1)">x</a>', "x"],
  ['<a href="java&#x09;script:alert(1)">x</a>', "x"],
  ['<a href="java&#9;script:alert(1)">x</a>', "x"],
  ['<a href="java&Tab;script:alert(1)">x</a>', "x"],
  ['<a href="java&NewLine;script:alert(1)">x</a>', "x"],
  ['<a href="javascript&colon;alert(1)">x</a>', "x"],
  ['<a href="javascript&#58;alert(1)">x</a>', "x"],
  ['<a href="javascript&#x3a;alert(1)">x</a>', "x"],
  ['<a href="  javascript:alert(1)">x</a>', "x"],
  ['<a href="\u0001\u0002javascript:alert(1)">x</a>', "x"],
  ['<a href="&#14;javascript:alert(1)">x</a>', "x"],
  ['<a href="&#x20;javascript:alert(1)">x</a>', "x"],
  ["<a href=javascript:alert(1)>x</a>", "x"],
  ["<a href='javascript:alert(1)'>x</a>", "x"],
  ['<a href="jav&#x0A;ascript:alert(1)">x</a>', "x"],
]);

table("href: other schemes unwrap the link", [
  ['<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', "x"],
  ['<a href="DATA:text/html,<script>alert(1)</script>">x</a>', "x"],
  ['<a href="vbscript:msgbox(1)">x</a>', "x"],
  ['<a href="VBScript&colon;msgbox(1)">x</a>', "x"],
  ['<a href="file:///etc/passwd">x</a>', "x"],
  ['<a href="ftp://example.com/file">x</a>', "x"],
  ['<a href="tel:+15555550100">x</a>', "x"],
  ['<a href="blob:https://example.com/uuid">x</a>', "x"],
]);

table("href: a relative, empty or missing href unwraps the link", [
  ['<a href="/jobs/1">x</a>', "x"],
  ['<a href="jobs.html">x</a>', "x"],
  ['<a href="//evil.example/">x</a>', "x"],
  ['<a href="#apply">x</a>', "x"],
  ['<a href="?page=2">x</a>', "x"],
  ['<a href="">x</a>', "x"],
  ['<a href="   ">x</a>', "x"],
  ["<a href>x</a>", "x"],
  ['<a name="anchor">x</a>', "x"],
  ["<a>x</a>", "x"],
  ['<a target="_blank">x</a>', "x"],
  ['<a href="https:">x</a>', "x"],
]);

table("href: an allowed link is written back normalised", [
  ['<a href="HTTPS://Example.COM">x</a>', '<a href="https://example.com/">x</a>'],
  ['<a href="  https://example.com/a  ">x</a>', '<a href="https://example.com/a">x</a>'],
  ['<a href="https://example.com/search?q=a&amp;page=2">x</a>', '<a href="https://example.com/search?q=a&amp;page=2">x</a>'],
  ['<a href="https://example.com/a b">x</a>', '<a href="https://example.com/a%20b">x</a>'],
  ['<a href=\'https://example.com/"><script>alert(1)</script>\'>x</a>', '<a href="https://example.com/%22%3E%3Cscript%3Ealert(1)%3C/script%3E">x</a>'],
  ['<a href="&#104;ttps://example.com/">x</a>', '<a href="https://example.com/">x</a>'],
  ['<a href="ht\ttps://example.com/">x</a>', '<a href="https://example.com/">x</a>'],
  ['<a href="http://example.com:80/a/../b">x</a>', '<a href="http://example.com/b">x</a>'],
  ['<a href="MAILTO:jobs@example.com?subject=Hello World">x</a>', '<a href="mailto:jobs@example.com?subject=Hello%20World">x</a>'],
  ['<a href="mailto:&quot;a&quot;@example.com">x</a>', '<a href="mailto:&quot;a&quot;@example.com">x</a>'],
  ['<a href="https://bücher.example/">x</a>', '<a href="https://xn--bcher-kva.example/">x</a>'],
]);

table("target: kept only when it is _blank, _self, _parent or _top", [
  ['<a href="https://e.example/" target="_blank">x</a>', '<a href="https://e.example/" target="_blank">x</a>'],
  ['<a href="https://e.example/" target="_self">x</a>', '<a href="https://e.example/" target="_self">x</a>'],
  ['<a href="https://e.example/" target="_parent">x</a>', '<a href="https://e.example/" target="_parent">x</a>'],
  ['<a href="https://e.example/" target="_top">x</a>', '<a href="https://e.example/" target="_top">x</a>'],
  ['<a href="https://e.example/" target="_BLANK">x</a>', '<a href="https://e.example/" target="_blank">x</a>'],
  ['<a href="https://e.example/" target="_new">x</a>', '<a href="https://e.example/">x</a>'],
  ['<a href="https://e.example/" target="myframe">x</a>', '<a href="https://e.example/">x</a>'],
  ['<a href="https://e.example/" target="">x</a>', '<a href="https://e.example/">x</a>'],
  ['<a href="https://e.example/" target="_blank onclick=alert(1)">x</a>', '<a href="https://e.example/">x</a>'],
  ['<a href="https://e.example/" target="&#95;top">x</a>', '<a href="https://e.example/" target="_top">x</a>'],
  ['<a target="_blank" href="https://e.example/">x</a>', '<a href="https://e.example/" target="_blank">x</a>'],
]);

table("duplicate attributes: the first one counts, as in browsers", [
  ['<a href="https://ok.example/" href="javascript:alert(1)">x</a>', '<a href="https://ok.example/">x</a>'],
  ['<a href="javascript:alert(1)" href="https://ok.example/">x</a>', "x"],
  ['<a href="https://ok.example/" target="_blank" target="evil">x</a>', '<a href="https://ok.example/" target="_blank">x</a>'],
  ['<a href="https://ok.example/" HREF="https://other.example/">x</a>', '<a href="https://ok.example/">x</a>'],
]);

table("text is escaped, so a stray < never fuses with a neighbour into a tag", [
  ["<<script></script>img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"],
  ["<<b>img src=x onerror=alert(1)>", "&lt;<b>img src=x onerror=alert(1)&gt;</b>"],
  ["<<style></style>script>alert(1)<</style>/script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
  ["<</p>img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"],
  ["1 < 2 > 0", "1 &lt; 2 &gt; 0"],
  ["a <3 b", "a &lt;3 b"],
  ["<<<>>>", "&lt;&lt;&lt;&gt;&gt;&gt;"],
  ["< script>alert(1)< /script>", "&lt; script&gt;alert(1)&lt; /script&gt;"],
  ["&<script></script>lt;img src=x onerror=alert(1)&<b></b>gt;", "&amp;lt;img src=x onerror=alert(1)&amp;<b></b>gt;"],
]);

table("text: & is escaped unless it starts a character reference; NUL goes", [
  ["Fish & Chips", "Fish &amp; Chips"],
  ["AT&T", "AT&amp;T"],
  ["&amp; &lt; &gt; &quot; &#39; &#x27;", "&amp; &lt; &gt; &quot; &#39; &#x27;"],
  ["&#60;script&#62;", "&#60;script&#62;"],
  ["&unknown; stays a reference", "&unknown; stays a reference"],
  ["&# and &#x and &;", "&amp;# and &amp;#x and &amp;;"],
  ["a\u0000b", "ab"],
]);

table("an unterminated tag at the very end does not pass through", [
  ["text<b", "text"],
  ['text<a href="https://e.example/', "text"],
  ["text<a href='javascript:alert(1)' onclick=x", "text"],
  ["text<", "text&lt;"],
  ["text</", "text&lt;/"],
  ["text</b", "text"],
  ["<b>bold<i", "<b>bold</b>"],
  ["text<img src=x onerror=alert(1)", "text"],
  ["text<!--", "text"],
  ["text<script>alert(1)", "text"],
  ["text<svg><b>", "text"],
]);

table("comments, CDATA, processing instructions and doctypes go", [
  ["a<!-- comment -->b", "ab"],
  ["a<!--<script>alert(1)</script>-->b", "ab"],
  ["a<!--[if IE]><script>alert(1)</script><![endif]-->b", "ab"],
  ["a<!--->b<!---->c", "abc"],
  ["a<!-- x --!>b", "ab"],
  ["a<![CDATA[<img src=x onerror=alert(1)>]]>b", "a]]&gt;b"],
  ["a<?xml version=\"1.0\"?>b", "ab"],
  ["<!DOCTYPE html>a<!doctype x>b", "ab"],
  ["a<!ELEMENT x>b", "ab"],
  ["a<!-- <!-- nested --> -->b", "a --&gt;b"],
  ["<p>a<!-- in p -->b</p>", "<p>ab</p>"],
]);

table("svg and math go with their content, namespace tricks included", [
  ['<svg onload=alert(1)>', ""],
  ['<svg><script>alert(1)</script></svg>ok', "ok"],
  ['<svg><a xlink:href="javascript:alert(1)"><text>click</text></a></svg>ok', "ok"],
  ['<svg><style><img src=x onerror=alert(1)></style></svg>ok', "ok"],
  ['<svg/><b>after</b>', "<b>after</b>"],
  ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>ok', "ok"],
  ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>ok', "ok"],
  ['<svg><foreignObject><p>inside</p></foreignObject></svg>ok', "ok"],
  ['<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">', ""],
  ['<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>', ""],
]);

table("nesting: every kept element is closed explicitly, in order", [
  ["<ul><li>a<li>b</ul>", "<ul><li>a</li><li>b</li></ul>"],
  ["<ol><li>a<li>b<li>c", "<ol><li>a</li><li>b</li><li>c</li></ol>"],
  ["<ul><li><b>a<li>b</ul>", "<ul><li><b>a</b></li><li>b</li></ul>"],
  ["<ul><li>a<ul><li>b</ul><li>c</ul>", "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"],
  ["<ul><li><div>a<li>b</ul>", "<ul><li><div>a</div></li><li>b</li></ul>"],
  ["<p>a<p>b", "<p>a</p><p>b</p>"],
  ["<p>a<div>b</div>c</p>", "<p>a</p><div>b</div>c"],
  ["<p><b>a<ul><li>b</li></ul>", "<p><b>a</b></p><ul><li>b</li></ul>"],
  ["<p>a<li>b</li>", "<p>a</p>b"],
  ["<b><p>a</b>b</p>", "<b><p>a</p></b>b"],
  ["<b><i>a</b>b</i>", "<b><i>a</i></b>b"],
  ["<div><b>unclosed", "<div><b>unclosed</b></div>"],
  ["</b></p></div></ul>text</li></a>", "text"],
  ["<div>a</span>b</div>", "<div>ab</div>"],
  ["<p>x</div>y</p>", "<p>xy</p>"],
  ["<br></br><br/>", "<br><br>"],
  ["<b/>self-closing is ignored</b>", "<b>self-closing is ignored</b>"],
]);

table("li only inside ul or ol; elsewhere it is unwrapped", [
  ["<li>loose</li>", "loose"],
  ["<div><li>in div</li></div>", "<div>in div</div>"],
  ["<ul><b><li>in b</li></b></ul>", "<ul><b>in b</b></ul>"],
  ["<li><ul><li>inner</li></ul></li>", "<ul><li>inner</li></ul>"],
]);

table("a inside a closes the outer link, as a browser would", [
  ['<a href="https://a.example/">1<a href="https://b.example/">2</a>3</a>', '<a href="https://a.example/">1</a><a href="https://b.example/">2</a>3'],
  ['<a href="https://a.example/"><b>1<a href="https://b.example/">2</a></b></a>', '<a href="https://a.example/"><b>1</b></a><a href="https://b.example/">2</a>'],
  ['<a href="https://a.example/">1<a href="/relative">2</a>3</a>', '<a href="https://a.example/">123</a>'],
  ['<a href="https://a.example/"><div>block in link</div></a>', '<a href="https://a.example/"><div>block in link</div></a>'],
]);

table("lol-html ambiguity: raw-text tags in select or after frameset still clean", [
  ["<select><style>x</style></select><b>after</b>", "<b>after</b>"],
  ["<select><script>alert(1)</script></select>after", "after"],
  ["<frameset></frameset><script>alert(1)</script><p>after</p>", "<p>after</p>"],
  ["<SELECT><template><style>x</style></template></SELECT>after", "after"],
  ["<p>keep</p><select><textarea></select><img src=x onerror=alert(1)></textarea>", "<p>keep</p>"],
]);

describe("limits", () => {
  it(`nesting deeper than ${MAX_DEPTH} kept elements is unwrapped`, async () => {
    const input = "<div>".repeat(MAX_DEPTH + 5) + "deep";
    const expected = "<div>".repeat(MAX_DEPTH) + "deep" + "</div>".repeat(MAX_DEPTH);
    await expectCleaned(input, expected);
  });

  it("HTML leaving more than 10 000 elements open at once is a validation error on description (DESIGN 6a)", async () => {
    const error = await cleanDescription("<p>x".repeat(20_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).extra.errors).toEqual([{ field: "description", message: expect.stringContaining("<p>") }]);
  });

  it("10 000 elements, each closed (20 000 tags), clean fine", async () => {
    const input = "<p>x</p>".repeat(10_000);
    expect(await cleanDescription(input)).toBe(input);
  });

  it("a 100 KB description cleans without losing its text", async () => {
    const unit = '<p>We are <b>hiring</b>. <a href="https://example.com/jobs?id=1">Apply</a> &amp; more<br></p><ul><li>Rust</li></ul>';
    const input = unit.repeat(Math.ceil(100_000 / unit.length));
    await expectCleaned(input, input);
  });
});
