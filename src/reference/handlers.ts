import { OpenAPIHono } from "../http/openapi-hono";
import type { AppEnv } from "../env";
import { callerOf } from "../http/middleware/authenticate";
import { buildPaging } from "../http/paging";
import { NotFoundError } from "../http/problem";
import { validationHook } from "../http/validation";
import { findLocation, loadReferenceData, searchLocations } from "./repository";
import {
  getLocationRoute,
  listApplicantRoutingTypes,
  listJobCategories,
  listPositionTypes,
  listSalaryTypes,
  searchLocationsRoute,
} from "./routes";

// Reference data is public and changes only with a deploy; locations may gain places.
const STATIC_CACHE = "public, max-age=3600";
const LOCATIONS_CACHE = "public, max-age=300";
const NO_LOCATION = "No location has this id.";

export const referenceApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  .openapi(listPositionTypes, async (c) => {
    c.header("Cache-Control", STATIC_CACHE);
    return c.json({ data: (await loadReferenceData(c.var.db)).positionTypes }, 200);
  })
  .openapi(listJobCategories, async (c) => {
    c.header("Cache-Control", STATIC_CACHE);
    return c.json({ data: (await loadReferenceData(c.var.db)).categories }, 200);
  })
  .openapi(listSalaryTypes, async (c) => {
    c.header("Cache-Control", STATIC_CACHE);
    return c.json({ data: (await loadReferenceData(c.var.db)).salaryTypes }, 200);
  })
  .openapi(listApplicantRoutingTypes, async (c) => {
    c.header("Cache-Control", STATIC_CACHE);
    return c.json({ data: (await loadReferenceData(c.var.db)).applicantRoutingTypes }, 200);
  })
  .openapi(searchLocationsRoute, async (c) => {
    const { q, page, pageSize } = c.req.valid("query");
    const { rows, total } = await searchLocations(c.var.db, q, page, pageSize);
    c.header("Cache-Control", LOCATIONS_CACHE);
    return c.json({ data: rows, paging: buildPaging(c, total, page, pageSize) }, 200);
  })
  .openapi(getLocationRoute, async (c) => {
    const found = await findLocation(c.var.db, c.req.valid("param").id);
    if (!found) throw new NotFoundError(NO_LOCATION);
    const { ownerEmployerId, ...location } = found;
    if (ownerEmployerId === null) {
      c.header("Cache-Control", LOCATIONS_CACHE);
      return c.json(location, 200);
    }
    // DESIGN 3: a place an employer created is answered to that employer's key only.
    const caller = await callerOf(c);
    if (caller?.employerId !== ownerEmployerId) throw new NotFoundError(NO_LOCATION);
    c.header("Cache-Control", "private, no-store");
    return c.json(location, 200);
  });
