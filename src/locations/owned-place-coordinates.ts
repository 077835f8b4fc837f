// Shared by the Worker (a place an employer creates) and the seed generator (places employers
// created before the gazetteer had coordinates), so both decide "matches a gazetteer entry" alike.

/**
 * DESIGN 17: the public place whose coordinates an employer's own place takes: the same name
 * key and province, with coordinates, the most populous if several. SQL text of a scalar
 * subquery yielding its id (or null), over the two given SQL expressions.
 */
export const gazetteerMatchId = (nameKey: string, provinceCode: string) => `(
    SELECT b.id FROM locations b
    WHERE b.owner_employer_id IS NULL AND b.name_key = ${nameKey} AND b.province_code = ${provinceCode}
      AND b.latitude IS NOT NULL
    ORDER BY coalesce(b.population_rank, 2147483647), b.id LIMIT 1)`;

/** Owned places still without coordinates take their match's; a place without one is not written. */
export const SET_OWNED_PLACE_COORDINATES = `UPDATE locations AS l SET latitude = g.latitude, longitude = g.longitude
FROM locations AS g
WHERE g.id = ${gazetteerMatchId("l.name_key", "l.province_code")}
  AND l.owner_employer_id IS NOT NULL AND l.latitude IS NULL`;
