/*
 * rpager.h: a game's record formatted a chunk at a time from the log
 * (issue 25 §2): the replies proportional to stored data (GTP `record`,
 * GET /api/games/ID, its record file, a finished game's feed) hold one
 * chunk and this cursor, never the whole record.  Reads the log: call
 * rpager_next off the event loop.
 */
#ifndef RPAGER_H
#define RPAGER_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "lib/json.h"
#include "record/record.h"
#include "store/store.h"

struct rpager;

/*
 * How a record is formatted: head once (the game is read), moves for
 * each page of moves (with the page's refused moves when inline), then
 * mid (or NULL) and refused for each page of refused moves when refused
 * is not NULL, then tail.  Each appends to out (a JSON form writes with
 * p->j, which the pager points at out).
 */
struct rpager_ops {
	void	(*head)(struct rpager *, struct buf *);
	void	(*moves)(struct rpager *, const struct store_record *,
		    struct buf *);
	void	(*mid)(struct rpager *, struct buf *);
	void	(*refused)(struct rpager *, const struct store_record *,
		    struct buf *);
	void	(*tail)(struct rpager *, struct buf *);
	int	 inline_refused;	/* a page's refused moves come with it */
};

enum rpager_phase {
	RPAGER_HEAD,		/* the game is not read yet */
	RPAGER_MOVES,		/* the moves after ply next */
	RPAGER_REFUSED,		/* the refused moves after seq rseq */
	RPAGER_END,		/* all formatted */
};

struct rpager {
	struct store	*st;
	int64_t		 id;
	const struct rpager_ops *ops;
	void		*arg;		/* the caller's */
	int		 ndjson;	/* the caller's */
	enum rpager_phase phase;
	struct store_record head;	/* the game (no moves) */
	char		*tour;		/* its tournament's name, or NULL */
	uint64_t	 nmoves;	/* the ply of its last move, read first */
	uint64_t	 upto;		/* > 0: the moves up to this ply only */
	uint64_t	 next;		/* the moves up to it are formatted */
	int64_t		 rseq;		/* so are the refused ones up to it */
	struct record_clock clock;
	struct json	 j;
};

#define RPAGER_NOGAME	(-1)	/* no such game */
#define RPAGER_FAIL	(-2)	/* the log cannot be read */
#define RPAGER_SINCE	(-3)	/* the first ply is past the last move */
#define RPAGER_SHORT	(-4)	/* the log has not all the moves up to upto */

/* The record file (§12.1) and the JSON record (its object left open). */
extern const struct rpager_ops rpager_file_ops, rpager_json_ops;

void	 rpager_init(struct rpager *, struct store *, int64_t,
	    const struct rpager_ops *, uint64_t);
int	 rpager_next(struct rpager *, struct buf *, size_t);
void	 rpager_free(struct rpager *);

#endif /* RPAGER_H */
