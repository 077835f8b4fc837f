import { OpenAPIHono } from "../http/openapi-hono";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { BadRequestError, NotFoundError, ValidationError } from "../http/problem";
import { publicOrigin } from "../http/paging";
import { validationHook } from "../http/validation";
import { API_PREFIX } from "../http/version";
import { createBoardDatabase } from "./database/client";
import { boardJob } from "./database/reads";
import { boardItemJson, toBoardJob } from "./representation";
import { getBoardJobRoute, listBoardJobsRoute } from "./routes";
import { DEFAULT_RADIUS_KM } from "./schemas";
import { decodeCursor, encodeCursor, ftsQuery, wordsOf } from "./rules";
import { searchBoard } from "./search";

const nowSeconds = () => Math.floor(Date.now() / 1000);
const jobUrl = (c: Context<AppEnv>, id: number) => `${publicOrigin(c)}${API_PREFIX}/board/jobs/${id}`;
const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/**
 * Board reads touch only the board's database (DESIGN 17), on a D1 session that may read the
 * nearest replica: the board is a projection seconds behind the jobs anyway.
 */
const boardOf = (c: Context<AppEnv>) => createBoardDatabase(c.env.BOARD_DB.withSession("first-unconstrained"));

export const boardApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(listBoardJobsRoute, async (c) => {
    const query = c.req.valid("query");
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (query.cursor !== undefined && after === null) throw new BadRequestError("cursor must be a paging.next address's cursor, as given.");
    if (query.radiusKm !== undefined && query.near === undefined) {
      throw new ValidationError([{ field: "near", message: "radiusKm needs near: the id of the place to measure from." }]);
    }
    const words = wordsOf(query.q);
    const search = {
      match: words.length ? ftsQuery(words) : null,
      locationId: optionalNumber(query.location),
      provinceCode: query.province,
      categoryId: optionalNumber(query.category),
      positionTypeId: optionalNumber(query.positionType),
      salaryMin: query.salaryMin,
      near: query.near === undefined ? undefined : { placeId: Number(query.near), radiusKm: query.radiusKm ?? DEFAULT_RADIUS_KM },
    };
    // One more than the page tells whether there is a next page, without counting.
    const rows = await searchBoard(boardOf(c), search, after, query.pageSize + 1, nowSeconds());
    const page = rows.slice(0, query.pageSize);
    let next: string | null = null;
    if (rows.length > query.pageSize) {
      const requested = new URL(c.req.url);
      const url = new URL(`${publicOrigin(c)}${requested.pathname}${requested.search}`);
      url.searchParams.set("cursor", encodeCursor(page[page.length - 1].seq));
      next = url.toString();
    }
    // The items are JSON already (src/board/projection.ts): the page is joined, not serialised again.
    const items = page.map((row) => boardItemJson(row, jobUrl(c, row.jobId)));
    const body = `{"data":[${items.join(",")}],"paging":${JSON.stringify({ pageSize: query.pageSize, next })}}`;
    return c.body(body, 200, { "Content-Type": "application/json" }) as never;
  })
  .openapi(getBoardJobRoute, async (c) => {
    const row = await boardJob(boardOf(c), c.req.valid("param").id, nowSeconds());
    if (!row) throw new NotFoundError("No job on the board has this id.");
    return c.json(toBoardJob(row), 200);
  });
