/*
 * cli-engine.h: the engine's own session (`grundy engine`'s command table)
 * inside the terminal programs: `grundy play` plays and analyses through
 * it, `grundy connect` follows a networked game's position with it.
 */
#ifndef CLI_ENGINE_H
#define CLI_ENGINE_H

#include "proto/conf.h"
#include "session/session.h"

struct cli_engine {
	struct conf	 conf;
	struct session	 s;
	struct buf	 line;		/* the command, scratch */
	struct buf	 out;		/* its reply, scratch */
};

void	 cli_engine_init(struct cli_engine *, const struct game_limits *);
void	 cli_engine_free(struct cli_engine *);
int	 cli_engine_run(struct cli_engine *, struct buf *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	 cli_engine_legal(struct cli_engine *, const char *, struct buf *);

#endif /* CLI_ENGINE_H */
