// Shared by the Worker (a place an employer creates) and the seed generator (places employers
// created before the gazetteer had coordinates), so both decide "matches a gazetteer entry" alike.

/**
 * DESIGN 17: an employer's own place has the coordinates of the public place of the same name
 * key and province (the most populous if several), else null. Only a place that has a match is
 * written (none: no row written). The caller may append `AND <condition on l>` to choose which
 * owned places.
 */
export const SET_OWNED_PLACE_COORDINATES = `UPDATE locations AS l SET latitude = g.latitude, longitude = g.longitude
FROM locations AS g
WHERE g.id = (
    SELECT b.id FROM locations b
    WHERE b.owner_employer_id IS NULL AND b.name_key = l.name_key AND b.province_code = l.province_code
      AND b.latitude IS NOT NULL
    ORDER BY coalesce(b.population_rank, 2147483647), b.id LIMIT 1)
  AND l.owner_employer_id IS NOT NULL AND l.latitude IS NULL`;
