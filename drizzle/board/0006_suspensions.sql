-- DESIGN 26: the employers the operator suspended, as their events told the board (src/board/database/tables.ts).
CREATE TABLE `board_suspensions` (
	`employer_id` integer PRIMARY KEY NOT NULL,
	`suspended` integer NOT NULL,
	`changed_at` integer NOT NULL
);
