/*
 * session-store.h: the game log as a session sees it.  The server points
 * each session at the store's entry points (session_store_calls in
 * server-conn.c); a session without a log (`grundy engine`) has none, so
 * the session and the game commands link without SQLite.
 */
#ifndef SESSION_STORE_H
#define SESSION_STORE_H

#include <stdint.h>

#include "store/store.h"

struct session_store {
	int	 (*failing)(struct store *);
	const char *(*failing_msg)(struct store *);	/* its refusal */
	int64_t	 (*begin)(struct store *, const struct store_game *);
	void	 (*move)(struct store *, int64_t, const struct store_move *);
	void	 (*end)(struct store *, int64_t, enum store_result,
		    const char *, const char *, enum store_status,
		    void (*)(void *, int), void *);	/* with a detail */
	uint64_t (*now_ms)(void);	/* the clock of the moves' times */
};

#endif /* SESSION_STORE_H */
