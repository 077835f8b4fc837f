// Shared by the Worker (a place an employer creates) and the seed generator (places employers
// created before the gazetteer had coordinates), so both decide "matches a gazetteer entry" alike.

/**
 * DESIGN 17: an employer's own place has the coordinates of the public place of the same name
 * key and province (the most populous if several), else null. The caller may append
 * `AND <condition on l>` to choose which owned places.
 */
export const SET_OWNED_PLACE_COORDINATES = `UPDATE locations AS l SET (latitude, longitude) = (
  SELECT g.latitude, g.longitude FROM locations g
  WHERE g.owner_employer_id IS NULL AND g.name_key = l.name_key AND g.province_code = l.province_code
    AND g.latitude IS NOT NULL
  ORDER BY coalesce(g.population_rank, 2147483647), g.id LIMIT 1)
WHERE l.owner_employer_id IS NOT NULL AND l.latitude IS NULL`;
