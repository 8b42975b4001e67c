/*
 * record.h: a game's record as a file anyone can check (PROTOCOL.md
 * §12.1, `record ID format=file`, `grundy verify`) and as JSON (`record
 * ID format=json`, GET /api/games/ID).  Pure: it renders a struct
 * store_record (store.h), however it was filled (the game log, or
 * `grundy match`, which has no log); no I/O, no globals.
 *
 * The file, one item per line, fields separated by one blank:
 *
 *	grundy-record 1
 *	game ID
 *	family FAMILY
 *	start CANONICAL-START
 *	player1 NAME			(moved first)
 *	player2 NAME
 *	rated 0|1
 *	tc BASE_MS+INC_MS[ clock=cpu]|-
 *	tournament NAME SLOT|-
 *	started TIME|-
 *	ended TIME|-
 *	result first|second|- REASON|- [DETAIL]
 *	status live|finished|abandoned
 *	moves N
 *	move PLY PLAYER MARK TIME_US CLOCK_US MOVE	(N lines, by ply)
 *	cost PLY WALL_US CPU_US|- PEAK_BYTES|-	(after its move, if known)
 *	refused PLY PLAYER TIME_MS DELAY_US "MOVE" REASON (before its ply)
 *	end
 *
 * CLOCK_US is the mover's clock after the move (with its increment), "-"
 * for a game without a time control and for the engine's moves (its
 * clock is never charged).  MOVE is the rest of the line.
 */
#ifndef RECORD_H
#define RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "lib/json.h"
#include "store/store.h"

#define RECORD_FORMAT		"grundy-record"
#define RECORD_VERSION		1

/* The tc header's mark of a CPU-time clock (tc BASE+INC clock=cpu). */
#define RECORD_CLOCK_CPU	"clock=cpu"

/* The name of the player that never charges its clock. */
#define RECORD_ENGINE		"engine"

/* The output formats of `record ID format=...`. */
enum record_format {
	RECORD_TEXT = 0,	/* today's record text (§12) */
	RECORD_FILE,		/* the file above (§12.1) */
	RECORD_JSON,		/* one line of JSON (§14.3's record) */
};

/*
 * A record written in pieces (a page of moves at a time, store_record_page):
 * the players' clocks carried from page to page (record_clock_init, then
 * each page in order).  record_file is record_file_head, record_file_moves
 * of each page (which writes the page's refused moves among its moves,
 * those after its last move at its end), then "end\n".  record_json_members
 * is record_json_head (up to the open "moves" array), record_json_moves of
 * each page, "]", "refused": [record_json_refused of each page].
 */
struct record_clock {
	uint64_t	 left[2];	/* µs, after the moves written */
};
void	 record_clock_init(struct record_clock *,
	    const struct store_gameinfo *);
void	 record_file_head(struct buf *, const struct store_gameinfo *,
	    uint64_t, const char *);
void	 record_file_moves(struct buf *, const struct store_gameinfo *,
	    const struct store_record *, struct record_clock *);
void	 record_json_head(struct json *, const struct store_gameinfo *,
	    const char *);
void	 record_json_moves(struct json *, const struct store_gameinfo *,
	    const struct store_record *, struct record_clock *);
void	 record_json_refused(struct json *, const struct store_record *);


/* Appends r as a record file; tour is its tournament's name or NULL. */
void	 record_file(struct buf *, const struct store_record *,
	    const char *);
/*
 * Writes r's members "game", "moves", "refused" into an object that the
 * caller opened (and closes): what GET /api/games/ID shows.
 */
void	 record_json_members(struct json *, const struct store_record *,
	    const char *);
/* Appends r as one line of JSON, an object with those members. */
void	 record_json(struct buf *, const struct store_record *, const char *);
/* Writes a game summary object (§14.2). */
void	 record_summary_json(struct json *, const struct store_gameinfo *,
	    const char *);
/* Opens move i's object (the caller closes it); writes the refused. */
void	 record_move_json(struct json *, const struct store_record *, size_t);

#endif /* RECORD_H */
