import type { Context } from "hono";
import type { AppEnv } from "../env";

export interface Paging {
  total: number;
  page: number;
  pages: number;
  pageSize: number;
  previous: string | null;
  next: string | null;
}

/** The address clients should use: BASE_URL when configured, else the request's own origin. */
export function publicOrigin(c: Context<AppEnv>): string {
  const configured = c.env.BASE_URL?.replace(/\/+$/, "");
  return configured || new URL(c.req.url).origin;
}

/** Spec 2.8: links carry the same query parameters plus `page`, as absolute addresses. */
export function buildPaging(c: Context<AppEnv>, total: number, page: number, pageSize: number): Paging {
  const pages = Math.ceil(total / pageSize);
  const link = (target: number) => {
    const url = new URL(c.req.path, publicOrigin(c));
    url.search = new URL(c.req.url).search;
    url.searchParams.set("page", String(target));
    return url.toString();
  };
  return {
    total,
    page,
    pages,
    pageSize,
    previous: page > 1 ? link(Math.min(page - 1, Math.max(pages, 1))) : null,
    next: page < pages ? link(page + 1) : null,
  };
}
