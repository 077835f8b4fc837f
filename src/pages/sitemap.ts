import { jobPath } from "../ui/paths";

// DESIGN 18: the sitemap (every open board job's English and French page, with lastmod), an index
// of files past 50 000 addresses, and robots.txt naming it.

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function sitemapXml(origin: string, jobs: { jobId: number; title: string; frTitle: string | null; publishDate: number }[]): string {
  const urls = jobs.flatMap((job) =>
    [jobPath("en", job.jobId, job.title), jobPath("fr", job.jobId, job.frTitle ?? job.title)].map(
      (path) => `<url><loc>${escapeXml(origin + path)}</loc><lastmod>${day(job.publishDate)}</lastmod></url>`,
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`;
}

/** An index of sitemap files, each named by the first job id of its range. */
export function sitemapIndexXml(origin: string, fileStarts: number[]): string {
  const entries = fileStarts.map((jobId) => `<sitemap><loc>${escapeXml(`${origin}/sitemap-${jobId}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join("")}</sitemapindex>\n`;
}

export const robotsTxt = (origin: string) => `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /withdraw/\n\nSitemap: ${origin}/sitemap.xml\n`;
