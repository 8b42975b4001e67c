/*
 * server-budget.c: a connection's budget (lib/budget.h, PROTOCOL.md
 * §9.1): its class, from its address and its login, and the one charge
 * that every path of the GTP port makes before it does the work.
 */
#include <sys/time.h>

#include <event2/event.h>

#include "server/server-int.h"

/* Returns the loop's cached time in milliseconds. */
uint64_t
server_now_ms(struct server *srv)
{
	struct timeval	 tv;

	event_base_gettimeofday_cached(srv->base, &tv);
	return ((uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000);
}

/*
 * Sets a connection's budget class (lib/budget.h) from its address and
 * its login: at the connection, and after each login.
 */
void
conn_budget_class(struct conn *c)
{
	c->sess.bud.cls = budget_class_of(c->trusted,
	    c->sess.account[0] != '\0', c->sess.admin);
}

/*
 * Charges n of kind to the connection's budget (budget_charge) at the
 * loop's time.  Returns 0, or -1 with the refusal in msg (if not NULL).
 */
int
conn_charge(struct conn *c, enum budget_kind kind, uint64_t n,
    struct buf *msg)
{
	return (budget_charge(&c->sess.bud, c->srv->conf->sc.budget, kind, n,
	    server_now_ms(c->srv) * 1000000, msg));
}

/* The bytes of replies the connection's class may hold. */
size_t
conn_output_max(struct conn *c)
{
	return (c->srv->conf->sc.budget[c->sess.bud.cls].output);
}
