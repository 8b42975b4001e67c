/*
 * rpager.c: a game's record formatted a chunk at a time, read from the
 * log a page of moves at a time (store_record_page).  See rpager.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "league/rpager.h"

#define RPAGER_PAGE	64		/* moves read at a time */
#define RPAGER_RPAGE	256		/* refused moves read at a time */
#define RPAGER_RINLINE	(1 << 20)	/* refused moves of one page */

static void
rpager_file_head(struct rpager *p, struct buf *out)
{
	record_file_head(out, &p->head.game, p->nmoves, p->tour);
}

static void
rpager_file_moves(struct rpager *p, const struct store_record *r,
    struct buf *out)
{
	record_file_moves(out, &p->head.game, r, &p->clock);
}

static void
rpager_file_tail(struct rpager *p, struct buf *out)
{
	(void)p;
	buf_puts(out, "end\n");
}

const struct rpager_ops rpager_file_ops = {
	rpager_file_head, rpager_file_moves, NULL, NULL, rpager_file_tail, 1
};

static void
rpager_json_head(struct rpager *p, struct buf *out)
{
	(void)out;
	json_obj(&p->j);
	record_json_head(&p->j, &p->head.game, p->tour);
}

static void
rpager_json_moves(struct rpager *p, const struct store_record *r,
    struct buf *out)
{
	(void)out;
	record_json_moves(&p->j, &p->head.game, r, &p->clock);
}

static void
rpager_json_mid(struct rpager *p, struct buf *out)
{
	(void)out;
	json_end_arr(&p->j);
	json_key(&p->j, "refused");
	json_arr(&p->j);
}

static void
rpager_json_refused(struct rpager *p, const struct store_record *r,
    struct buf *out)
{
	(void)out;
	record_json_refused(&p->j, r);
}

static void
rpager_json_tail(struct rpager *p, struct buf *out)
{
	(void)out;
	json_end_arr(&p->j);
}

const struct rpager_ops rpager_json_ops = {
	rpager_json_head, rpager_json_moves, rpager_json_mid,
	rpager_json_refused, rpager_json_tail, 0
};

/*
 * Sets p to format game id of the log st with ops, from the moves after
 * ply since (the moves before are read for their clocks' sake only if
 * ops needs them: never, a record's clocks start at ply 1 and since is 0
 * for a record).
 */
void
rpager_init(struct rpager *p, struct store *st, int64_t id,
    const struct rpager_ops *ops, uint64_t since)
{
	memset(p, 0, sizeof *p);
	p->st = st;
	p->id = id;
	p->ops = ops;
	p->next = since;
}

/* Reads the game and formats its head: 0, or RPAGER_*. */
static int
rpager_head(struct rpager *p, struct buf *out)
{
	int	 rc;

	if ((rc = store_record_head(p->st, p->id, &p->head, &p->nmoves)) <= 0)
		return (rc < 0 ? RPAGER_FAIL : RPAGER_NOGAME);
	if (p->upto > 0 && p->nmoves < p->upto)
		return (RPAGER_SHORT);
	if (p->upto > 0)
		p->nmoves = p->upto;
	if (p->next > p->nmoves)
		return (RPAGER_SINCE);
	p->tour = store_tour_name(p->st, p->head.game.tournament);
	record_clock_init(&p->clock, &p->head.game);
	p->phase = RPAGER_MOVES;
	p->ops->head(p, out);
	return (0);
}

/* All the moves are formatted: the refused ones, or the end. */
static void
rpager_moves_end(struct rpager *p, struct buf *out)
{
	if (p->ops->refused != NULL) {
		if (p->ops->mid != NULL)
			p->ops->mid(p, out);
		p->phase = RPAGER_REFUSED;
		return;
	}
	p->ops->tail(p, out);
	p->phase = RPAGER_END;
}

/* Formats one page of the record: 0, or RPAGER_FAIL. */
static int
rpager_page(struct rpager *p, struct buf *out)
{
	struct store_rpage q;
	struct store_record r;

	memset(&q, 0, sizeof q);
	if (p->phase == RPAGER_MOVES) {
		q.after = p->next;
		q.upto = p->nmoves - p->next > RPAGER_PAGE ?
		    p->next + RPAGER_PAGE : p->nmoves;
		q.max = RPAGER_PAGE;
		if (p->ops->inline_refused) {
			q.rupto = q.upto < p->nmoves ? q.upto : UINT64_MAX;
			q.rmax = RPAGER_RINLINE;
		}
	} else {
		q.rupto = UINT64_MAX;
		q.rmax = RPAGER_RPAGE;
	}
	q.rseq = p->rseq;
	if (store_record_page(p->st, p->id, &q, &r) != 0)
		return (RPAGER_FAIL);
	if (r.nrefused > 0)
		p->rseq = r.refused[r.nrefused - 1].seq;
	if (p->phase == RPAGER_REFUSED) {
		p->ops->refused(p, &r, out);
		if (r.nrefused < RPAGER_RPAGE) {
			p->ops->tail(p, out);
			p->phase = RPAGER_END;
		}
	} else {
		p->ops->moves(p, &r, out);
		p->next = q.upto;
		if (p->next >= p->nmoves)
			rpager_moves_end(p, out);
	}
	store_record_free(&r);
	return (0);
}

/*
 * Appends the next chunk of the record to out, until out holds chunk
 * bytes or so (a page more at most) or the record is all formatted.
 * Returns 1 if more is to come, 0 at its end, or RPAGER_* (RPAGER_FAIL
 * may come after chunks were formatted: the record is then cut).
 */
int
rpager_next(struct rpager *p, struct buf *out, size_t chunk)
{
	int	 rc;

	p->j.b = out;
	if (p->phase == RPAGER_HEAD && (rc = rpager_head(p, out)) != 0)
		return (rc);
	while (p->phase != RPAGER_END && out->len < chunk)
		if ((rc = rpager_page(p, out)) != 0)
			return (rc);
	return (p->phase != RPAGER_END);
}

/* Frees what p read. */
void
rpager_free(struct rpager *p)
{
	store_record_free(&p->head);
	free(p->tour);
	p->tour = NULL;
}
