import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { BadRequestError, NotFoundError, ValidationError } from "../http/problem";
import { publicOrigin } from "../http/paging";
import { validationHook } from "../http/validation";
import { API_PREFIX } from "../http/version";
import { findPublished, listPublished } from "../jobs/published";
import { findLocation } from "../reference/repository";
import { toBoardItem, toBoardJob } from "./representation";
import { getBoardJobRoute, listBoardJobsRoute } from "./routes";
import { decodeCursor, encodeCursor, wordsOf } from "./rules";

const nowSeconds = () => Math.floor(Date.now() / 1000);
const jobUrl = (c: Context<AppEnv>, id: number) => `${publicOrigin(c)}${API_PREFIX}/board/jobs/${id}`;

export const boardApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(listBoardJobsRoute, async (c) => {
    const query = c.req.valid("query");
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !after) throw new BadRequestError("cursor must be a paging.next address's cursor, as given.");
    const filter = {
      words: wordsOf(query.q),
      locationId: query.location === undefined ? undefined : Number(query.location),
      provinceCode: query.province,
      categoryId: query.category === undefined ? undefined : Number(query.category),
      positionTypeId: query.positionType === undefined ? undefined : Number(query.positionType),
    };
    // One more than the page tells whether there is a next page, without counting.
    const rows = await listPublished(c.var.db, filter, after, query.pageSize + 1, nowSeconds());
    // Asked only when nothing matched, so a filter by a public place costs no extra round trip.
    if (!rows.length && filter.locationId !== undefined && (await findLocation(c.var.db, filter.locationId))?.ownerEmployerId !== null) {
      throw new ValidationError([{ field: "location", message: "location must be the id of a public place (GET /api/v1.1/locations)." }]);
    }
    const page = rows.slice(0, query.pageSize);
    let next: string | null = null;
    if (rows.length > query.pageSize) {
      const last = page[page.length - 1];
      const url = new URL(`${publicOrigin(c)}${new URL(c.req.url).pathname}${new URL(c.req.url).search}`);
      url.searchParams.set("cursor", encodeCursor({ publishDate: last.publishDate, id: last.id }));
      next = url.toString();
    }
    return c.json({ data: page.map((row) => toBoardItem(row, jobUrl(c, row.id))), paging: { pageSize: query.pageSize, next } }, 200);
  })
  .openapi(getBoardJobRoute, async (c) => {
    const row = await findPublished(c.var.db, c.req.valid("param").id, nowSeconds());
    if (!row) throw new NotFoundError("No job on the board has this id.");
    return c.json(toBoardJob(row), 200);
  });
