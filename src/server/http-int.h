/*
 * http-int.h: what the HTTP side's files share: replies, parameters and
 * work on the workers, the log's data as JSON, the lobby's live data as
 * JSON, the feeds, the JSON endpoints, and the listeners, limits and
 * routing.  They call each other without a cycle (tests/layers.py checks
 * it).
 */
#ifndef HTTP_INT_H
#define HTTP_INT_H

#include <sys/queue.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>

#include "lib/buf.h"
#include "lib/json.h"

struct evhttp;
struct evhttp_connection;
struct evhttp_request;
struct evkeyvalq;
struct event;
struct server;
struct hstream;

#define HTTP_BUCKETS	1024		/* of the connections' hash */
#define HTTP_NAME_MAX	64		/* bytes of a name in a URL */
#define HTTP_BODY_MAX	1024		/* bytes of a request body */
#define HTTP_PARAMS_MAX	32		/* parameters of a query string */
#define HTTP_PAGE_LIVE	50		/* a tournament page's live games */

/* An HTTP connection: known from its accept, counted from its first
 * request. */
struct hconn {
	LIST_ENTRY(hconn) hash;
	struct http	*h;
	struct evhttp_connection *evcon;
	char		 host[INET6_ADDRSTRLEN];
	int		 trusted;	/* in trusted-networks */
	struct hstream	*stream;	/* the feed it carries, or NULL */
	int		 counted;	/* has sent a request (max-http-conns) */
	struct event	*first;		/* until then: http-timeout to send it */
	size_t		 nexports;	/* its exports in flight (http-results.c) */
	size_t		 inflight;	/* bytes of its big reply in flight */
};
LIST_HEAD(hconns, hconn);

/*
 * A request answered off the loop: work runs on a worker, then done on
 * the loop (NULL: reply status and body as JSON).  hc and req are NULL
 * once the connection closed meanwhile: done is then not called, gone
 * is (if set).
 */
struct hreq {
	TAILQ_ENTRY(hreq) entry;
	struct http	*h;
	struct hconn	*hc;
	struct evhttp_request *req;
	char		 host[INET6_ADDRSTRLEN];
	void		 (*work)(struct hreq *);
	void		 (*done)(struct hreq *);
	void		 (*gone)(struct hreq *);	/* done's stand-in once the
						 * client left, or NULL */
	int		 status;
	struct buf	 body;
	struct json	 j;
	int64_t		 id;		/* a game, or a tournament's id */
	int64_t		 before;
	unsigned int	 limit;
	unsigned long	 since;		/* feeds: the ply to resume after */
	int		 ndjson;
	int		 head;		/* a HEAD request */
	char		 name[HTTP_NAME_MAX + 1];
	char		 tour[HTTP_NAME_MAX + 1];
	int		 has_name, has_tour;
	char		 since_arg[40], until_arg[40];	/* /games: as given */
	struct buf	 extra, extra2;	/* pages: the worker's other parts */
	char		 since_time[32];	/* games: started since, or "" */
	char		 until_time[32];	/* games: started before, or "" */
	char		 result[8];	/* games: "first", "second" or "" */
	struct xwatch_pre *xpre;	/* feeds: another node's game */
	struct xtour_pre *xtour;	/* pages: a follower's tournaments */
	int		 rsync;		/* pages: the ratings synced first */
	int		 html;		/* live: the page, not the JSON */
	size_t		 block;		/* a Swiss tournament's slots per round */
	struct store_elsewhere *xlive;	/* live: the cluster's, read */
	size_t		*xoff;		/* live: each one's part of extra */
	int		 big;		/* counted in nbuilding (http_submit_big) */
	struct hstrm	*strm;		/* a streamed reply's state (http-stream.c) */
	void		 (*cleanup)(struct hreq *);	/* frees it, or NULL */
	size_t		 charged;	/* its bytes in max-http-inflight */
	int		 keep;		/* done keeps it (the next chunk) */
	int		 waiting;	/* a chunk waits for its client */
	struct hcatch	*cu;		/* a feed's catch-up (http-catchup.c) */
	int		 more;		/* its next chunk is still to come */
};
TAILQ_HEAD(hreqs, hreq);

struct hfeed;

#define HTTP_BUILDS	2	/* big replies built on workers at once */

struct http {
	struct server	*srv;
	struct evhttp	*eh;
	struct hconns	 conns[HTTP_BUCKETS];
	size_t		 nconns;
	size_t		 npending;	/* connections without a request yet */
	size_t		 nstreams;
	size_t		 nexports;	/* exports in flight, all connections */
	size_t		 inflight;	/* bytes of big replies in flight
					 * (http_reply_big), all connections */
	size_t		 nbuilding;	/* big replies on workers */
	struct hreqs	 reqs;		/* off the loop, or orphaned */
	struct event	*beat;		/* the feeds' heartbeat */
	struct event	*reap;		/* drops feeds over the cap */
	struct hfeed	*feed;
	int		 stopping;
};

/* http-req.c (calls no other file of the HTTP side) */
void	 http_reply(struct evhttp_request *, int, const char *, const char *,
	    size_t);
void	 http_error(struct evhttp_request *, int, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 http_json(struct evhttp_request *, int, struct buf *);
void	 http_download(struct evhttp_request *, const char *, const char *,
	    const char *, size_t);
void	 http_attachment(struct evhttp_request *, const char *);
int	 http_inflight_admit(struct hconn *, struct evhttp_request *, size_t);
void	 http_inflight_done(struct hconn *, size_t);
struct hreq *http_hreq(struct http *, struct hconn *, struct evhttp_request *);
void	 http_hreq_free(struct hreq *);
int	 http_submit(struct hreq *);
int	 http_submit_big(struct hreq *);
int	 http_param_id(struct evhttp_request *, const char *, const char *,
	    int64_t *);
int	 http_param_uint(struct evhttp_request *, const struct evkeyvalq *,
	    const char *, unsigned long, unsigned long, unsigned long *);
int	 http_param_name(struct evhttp_request *, const struct evkeyvalq *,
	    const char *, char *, int *);
int	 http_segment(struct evhttp_request *, const char *, char *);
void	 http_url_param(struct buf *, const char *, const char *);
size_t	 http_output(struct hconn *);
void	 http_close(struct hconn *);
void	 http_req_orphan(struct evhttp_request *);
int	 http_submit_more(struct hreq *);
void	 http_send_start(struct evhttp_request *, const char *);
void	 http_charge_until_sent(struct hreq *);

/* http-json.c (calls http-req.c) */
struct store;
struct store_history;
struct store_record;
void	 http_games_json(struct store *, struct json *,
	    const struct store_history *, size_t);
void	 http_fail(struct hreq *, int, const char *);
/* http-results.c: the results endpoints. */
void	 http_pairs(struct http *, struct hconn *, struct evhttp_request *,
	    const struct evkeyvalq *);
void	 http_export(struct http *, struct hconn *, struct evhttp_request *,
	    const struct evkeyvalq *);
void	 http_with_record(struct hreq *, void (*)(struct hreq *,
	    const struct store_record *, const char *));
struct rpager_ops;
extern const struct rpager_ops http_feed_ops;	/* a finished game's feed */

/*
 * http-stream.c (calls http-req.c, http-json.c, http-lobby.c): the replies proportional
 * to stored data, streamed in chunks of about HTTP_CHUNK bytes, each made
 * on a worker once the client took the previous one.
 */
#define HTTP_CHUNK	(64 * 1024)
int	 http_stream(struct hreq *, const struct rpager_ops *, const char *);
void	 http_stream_work(struct hreq *);
void	 http_stream_done(struct hreq *);
void	 http_stream_closed(struct hreq *);

/* http-catchup.c: feed events, a feed's catch-up (calls http-req.c) */
struct lobby_feed;
struct hcatch;
void	 http_feed_append(struct buf *, int, const char *, const char *,
	    const char *);
void	 http_feed_event_head(struct json *, struct buf *, const char *,
	    int64_t);
void	 http_feed_move_json(const struct lobby_feed *, struct buf *);
struct hcatch *hcatch_new(struct store *, int64_t, unsigned long,
	    unsigned long, int);
int	 hcatch_next(struct hcatch *, struct buf *);
void	 hcatch_free(struct hcatch *);

/* http-lobby.c (calls no other file of the HTTP side) */
struct league;
struct lobby;
int	 http_live_game(struct lobby *, int64_t, struct json *);
int	 http_live_summary(struct lobby *, int64_t, struct json *);
void	 http_live_games(struct lobby *, const char *, struct json *);
void	 http_tours_json(struct lobby *, struct json *);
int	 http_tour_json(struct lobby *, const char *, struct json *);
void	 http_ratings_json(struct lobby *, size_t, struct json *);
int	 http_rating_history(struct league *, const char *, size_t,
	    struct json *);

/* http-feed.c (calls http-req.c, http-json.c, http-lobby.c,
 * http-catchup.c, http-stream.c) */
struct hfeed *hfeed_new(struct http *);
void	 hfeed_free(struct hfeed *);
void	 hfeed_open(struct http *, struct hconn *, struct evhttp_request *,
	    int64_t, const struct evkeyvalq *);
void	 hfeed_tv(struct http *, struct hconn *, struct evhttp_request *);
void	 hfeed_closed(struct hstream *);
void	 hfeed_beat(struct http *);
void	 hfeed_reap(struct http *);
void	 hfeed_stop(struct http *);

/* http-api.c (calls http-req.c, http-json.c, http-lobby.c, http-feed.c,
 * http-live.c) */
void	 http_api(struct http *, struct hconn *, struct evhttp_request *,
	    const char *, const struct evkeyvalq *);
int	 http_games_args(struct http *, struct evhttp_request *,
	    const struct evkeyvalq *, struct hreq *, int);

/* http-html.c: the pages' HTML (calls no other file of the HTTP side) */
struct league_player;
struct lobby_rating_row;
void	 html_esc(struct buf *, const char *);
void	 html_begin(struct buf *, const char *, const char *);
void	 html_end(struct buf *, const char *const *);
int	 html_template(struct buf *, const char *,
	    void (*)(void *, const char *, struct buf *), void *);
void	 html_error_page(struct buf *, const char *, const char *);
void	 html_live_games(struct lobby *, const char *, size_t, struct buf *);
void	 html_tours(struct lobby *, struct buf *);
void	 html_ratings(struct lobby *, size_t, struct buf *);
void	 html_games(struct store *, const struct store_history *, size_t,
	    size_t, struct buf *);
void	 html_tour_part(struct lobby *, const char *, const char *,
	    struct buf *);
void	 html_player_figures(struct buf *, const struct league_player *,
	    const struct lobby_rating_row *);
void	 html_throws(struct buf *, const struct league_player *);
void	 html_record(struct buf *, const struct store_record *,
	    const char *);
struct store_gameinfo;
void	 html_elsewhere_head(struct buf *);
void	 html_elsewhere(struct buf *, const struct store_gameinfo *,
	    const char *, uint64_t, int64_t);

/* http-live.c (calls http-req.c, http-lobby.c, http-html.c) */
void	 http_live(struct http *, struct hconn *, struct evhttp_request *,
	    int);

/* http-pages.c (calls http-req.c, http-json.c, http-html.c, http-api.c,
 * http-live.c) */
int	 http_pages(struct http *, struct hconn *, struct evhttp_request *,
	    const char *, const struct evkeyvalq *);

/* http.c (the listeners and routing: calls all of them) */

#endif /* HTTP_INT_H */
