// DESIGN 21: an employer's test space is an employer row of its own (test_of = the employer),
// reached only by jpa_test_ keys (src/auth/api-keys.ts). Everything an employer owns is keyed by
// its employer id, so jobs, webhooks, applications and idempotency records of one space are
// another's 404, exactly as between employers. The key CLI, the console and the tests make it with
// these statements (?1: the employer).

/** Employer ?1's test space, made once, with its name, plan and settings at that moment. */
export const CREATE_TEST_SPACE_SQL = `INSERT INTO employers (name, plan, created_at, ontario_employees, federally_regulated, posting_rules, test_of)
  SELECT name, plan, unixepoch(), ontario_employees, federally_regulated, posting_rules, id FROM employers
  WHERE id = ?1 AND test_of IS NULL AND NOT EXISTS (SELECT 1 FROM employers WHERE test_of = ?1)`;

export const TEST_SPACE_ID_SQL = "SELECT id FROM employers WHERE test_of = ?1";
