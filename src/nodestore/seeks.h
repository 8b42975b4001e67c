/*
 * seeks.h: table seeks, the published seeks of the nodes sharing one
 * database (issue 15 §2, PROTOCOL.md §13.3, doc/NODES.md), for the seek
 * path of the lobby across nodes (lobby-xseek.c, lobby-xhold.c): bound
 * statements on a connection the caller owns (one thread at a time).
 *
 * A row's created_ms is its publication's time; 0: held by a preparation
 * (it was published: seeks_open gives it back its time); -1: a seek's own
 * row, written by its preparation, not opened yet.  No claim takes a row
 * held so.  owner_id is the node that claimed the row, game_id the game
 * it started for it.  Times are the caller's (ms since the Unix epoch).
 *
 * Functions return -1 when the database failed (sqldb_errmsg tells; a
 * transaction they began is rolled back, keeping that error).
 */
#ifndef SEEKS_H
#define SEEKS_H

#include <stddef.h>
#include <stdint.h>

#define SEEKS_NAME_MAX	32	/* bytes of a player's name (LEAGUE_NAME_MAX) */
#define SEEKS_LIST_MAX	64	/* rows listed at most per call */

struct sqldb;

/* A seek's terms: its game's line, and its options. */
struct seek_terms {
	const char	*spec;
	int		 random;
	int		 rated;
	uint64_t	 base_ms;
	uint64_t	 inc_ms;
};

/* A row: id, owner_id, game_id (0: NULL), node_id, player. */
struct seek_row {
	int64_t		 id, owner, game, node;
	char		 player[SEEKS_NAME_MAX + 1];
};

/* What a preparation holds: a partner's row (0: none) and its
 * created_ms, or else its own row. */
struct seek_hold {
	int64_t		 partner;
	int64_t		 partner_ms;
	int64_t		 row;
};

int	 seeks_publish(struct sqldb *, int64_t, const char *,
	    const struct seek_terms *, int64_t, int64_t *);
int	 seeks_claim(struct sqldb *, int64_t, const char *,
	    const struct seek_terms *, int64_t, struct seek_row *, int *);
int	 seeks_claim_end(struct sqldb *, int64_t, int64_t, int64_t, int, int);
int	 seeks_unpublish(struct sqldb *, int64_t);
int	 seeks_release(struct sqldb *, int64_t);
int	 seeks_set_game(struct sqldb *, int64_t, int64_t);
int	 seeks_notify(struct sqldb *, const char *, int64_t);
size_t	 seeks_paired_ids(struct sqldb *, int64_t, int64_t *);
int	 seeks_paired_read(struct sqldb *, int64_t, int64_t,
	    struct seek_row *);
int	 seeks_delete(struct sqldb *, int64_t);
int	 seeks_open(struct sqldb *, int64_t, const struct seek_terms *,
	    int64_t);
int	 seeks_hold(struct sqldb *, int64_t, const char *,
	    const struct seek_terms *, struct seek_hold *);
int	 seeks_commit(struct sqldb *);
int	 seeks_held(struct sqldb *, int64_t, int64_t *, size_t, size_t *);
int	 seeks_drop_held(struct sqldb *, int64_t);

#endif /* SEEKS_H */
