import type { AlertRow } from "./repository";
import type { AlertSearch, JobCard } from "./rules";

// DESIGN 23: an alert's private Atom feed (RFC 4287) of its newest matches, for people who prefer
// a reader to email. Pure.

const xml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function atomFeed(input: {
  alert: AlertRow;
  self: string;
  search: string;
  searchRow: AlertSearch;
  matches: { jobId: number; matchedAt: number; card: string }[];
  jobLink: (card: JobCard) => string;
}): string {
  const { alert, matches } = input;
  const updated = new Date(matches[0]?.matchedAt ?? alert.confirmedAt ?? alert.createdAt).toISOString();
  const title = alert.language === "fr" ? `Alerte emploi : ${input.search}` : `Job alert: ${input.search}`;
  const entries = matches.map((match) => {
    const card = JSON.parse(match.card) as JobCard;
    const link = input.jobLink(card);
    const summary = [card.employer ?? (alert.language === "fr" ? "Employeur confidentiel" : "Confidential employer"), card.locations.map((l) => l.description).join("; ")].join(" — ");
    return `  <entry>
    <id>${xml(link)}</id>
    <title>${xml(card.title ?? "")}</title>
    <link rel="alternate" type="text/html" href="${xml(link)}"/>
    <updated>${new Date(match.matchedAt).toISOString()}</updated>
    <published>${xml(card.publishDate)}</published>
    <summary>${xml(summary)}</summary>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${alert.language}">
  <id>${xml(input.self)}</id>
  <title>${xml(title)}</title>
  <link rel="self" type="application/atom+xml" href="${xml(input.self)}"/>
  <updated>${updated}</updated>
  <author><name>${xml(alert.language === "fr" ? "Alertes emploi" : "Job alerts")}</name></author>
${entries.join("\n")}
</feed>
`;
}
