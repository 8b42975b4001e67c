/*
 * server-job.c: a connection's jobs coming back to the event loop.
 *
 * A request that server-conn.c sends to the worker pool (server-pool.c)
 * runs there (conn_job_run) and comes back here (conn_job_back): its
 * reply is written and the connection goes on.  A command that ended a
 * match holds its reply until the game log has the result on disk
 * (server-conn.c's conn_end_game); the replies behind it wait in
 * c->after and follow it out in order (conn_held_back).  This file calls
 * into server-conn.c, never the reverse.
 */
#include <sys/types.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <event2/util.h>

#include "lobby/lobby.h"
#include "lib/log.h"
#include "server/server-int.h"

static void	 conn_held_back(struct conn *, struct job *);
static void	 conn_more_back(struct conn *, struct job *);

/*
 * Runs a connection's job on a worker (the pool's run): prepares a seek
 * or challenge, or executes the line.  Returns 1 if the reply waits for
 * the game log (conn_job_hold), else 0.
 */
int
conn_job_run(struct job *j)
{
	int	 rv = SESSION_NEXT;

	if (j->prep)
		cmd_prep_run(&j->conn->sess, j->line, j->len);
	else if (j->more)
		rv = session_more(&j->conn->sess, &j->out);
	else
		rv = session_execute(&j->conn->sess, j->line, j->len,
		    &j->out);
	j->close = rv == SESSION_CLOSE;
	j->streaming = rv == SESSION_MORE;
	return (rv == SESSION_WAIT);
}

/* Logs the end of the match a job's command ended (the pool's hold). */
void
conn_job_hold(struct job *j)
{
	conn_end_game(j->conn, j);
}

/* Tells the lobby about a login that ran on a worker. */
static void
conn_login_changed(struct conn *c)
{
	if (!c->sess.login_changed)
		return;
	c->sess.login_changed = 0;
	conn_budget_class(c);
	lobby_login(c->sess.lc, c->sess.account, c->sess.admin);
	log_info("conn=%llu event=login account=%s admin=%d",
	    (unsigned long long)c->id, c->sess.account, c->sess.admin);
}

/*
 * Takes a finished job back on the loop (the pool's back): writes its
 * reply and resumes the connection, or runs a prepared line now.
 */
void
conn_job_back(struct job *j)
{
	struct conn	*c = j->conn;

	if (j->ahead) {
		conn_held_back(c, j);
		return;
	}
	c->busy = 0;
	if (c->state == CONN_DEAD) {
		conn_free(c, "closed");
		job_free(j);
		return;
	}
	if (j->prep) {
		/* Prepared: the loop runs the line now, in order. */
		c->prepped = j->line;
		c->prepped_len = j->len;
		j->line = NULL;
		conn_process(c);
		job_free(j);
		return;
	}
	if (j->streaming || j->more) {
		conn_more_back(c, j);
		return;
	}
	conn_log_cmd(c);
	conn_login_changed(c);
	if (conn_write(c, j->out.data, j->out.len) == 0) {
		if (j->close)
			conn_enter(c, CONN_CLOSING, NULL);
		/* After a login's reply: its live games. */
		if (c->sess.login_live && c->sess.lc != NULL)
			lobby_login_live(c->sess.lc);
		c->sess.login_live = 0;
		conn_process(c);
	}
	job_free(j);
}

/*
 * A part of a streamed reply is back: it goes out; the next is made once
 * the socket took it (conn_write_cb).  What the lobby sends the client
 * meanwhile is held until the reply's end, then follows it.
 */
static void
conn_more_back(struct conn *c, struct job *j)
{
	struct buf	 ev;

	if (!j->more) {			/* the first part */
		conn_log_cmd(c);
		conn_login_changed(c);
		if (c->sess.lc != NULL)
			lobby_hold(c->sess.lc);
	}
	if (conn_write(c, j->out.data, j->out.len) != 0) {
		job_free(j);
		return;
	}
	if (j->streaming) {
		c->busy = 1;		/* no other command meanwhile */
		c->more_wait = 1;
		if (out_unsent(c) == 0)
			(void)conn_more(c);
		job_free(j);
		return;
	}
	c->busy = 0;
	buf_init(&ev);
	if (c->sess.lc != NULL)
		lobby_release(c->sess.lc, &ev);
	if (conn_write(c, ev.data, ev.len) == 0) {
		if (j->close)
			conn_enter(c, CONN_CLOSING, NULL);
		conn_process(c);
	}
	buf_free(&ev);
	job_free(j);
}

/*
 * A held result is on disk (or failed): it goes out, then the replies
 * that waited behind it, and the connection goes on.
 */
static void
conn_held_back(struct conn *c, struct job *j)
{
	c->held = 0;
	if (c->state == CONN_DEAD) {
		if (!c->busy)
			conn_free(c, "closed");
		job_free(j);
		return;
	}
	if (conn_write(c, j->out.data, j->out.len) == 0 &&
	    conn_write(c, c->after.data, c->after.len) == 0) {
		buf_reset(&c->after);
		if (!c->busy)
			conn_process(c);
	}
	job_free(j);
}
