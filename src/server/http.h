/*
 * http.h: grundyd's HTTP side (PROTOCOL.md §14) on the server's event
 * loop: the listeners, limits and routing (http.c), the JSON endpoints and
 * /metrics (http-api.c), and the live feeds (http-feed.c); http-int.h is
 * what they share.  The pages of web/ are compiled in (web/embed.sh makes
 * web-assets.c).
 */
#ifndef HTTP_H
#define HTTP_H

#include <stddef.h>

/* A file of web/, as embedded. */
struct web_asset {
	const char	*path;		/* its name in web/ */
	const char	*type;		/* Content-Type */
	const unsigned char *data;
	size_t		 len;
};
extern const struct web_asset web_assets[];
extern const size_t web_nassets;

struct http;
struct server;

struct http *http_start(struct server *);
void	 http_stop(struct http *);
void	 http_free(struct http *);

#endif /* HTTP_H */
