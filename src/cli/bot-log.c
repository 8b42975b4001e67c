/*
 * bot-log.c: the logs of `grundy bot` (a line cut short, an answer
 * flattened) and its connection's life cycle (one setter,
 * bot_link_set) (bot-int.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/bot-int.h"
#include "lib/log.h"
#include "lib/util.h"

/* Logs a message to stderr with the "bot: " prefix (bot_warn: a warning). */
void __attribute__((format(printf, 1, 2)))
bot_log(const char *fmt, ...)
{
	va_list	 ap;

	fputs("bot: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Changes the connection's life cycle; logs old -> new (debug). */
void
bot_link_set(struct bot *b, enum bot_link l)
{
	static const char *const names[] = {
		[BOT_LINK_UP] = "up",
		[BOT_LINK_LOCKED] = "locked",
		[BOT_LINK_WAIT_LOCK] = "wait-lock",
		[BOT_LINK_DOWN] = "down",
		[BOT_LINK_REDIRECT] = "redirect",
	};

	if (b->link != l)
		log_debug("bot=%s link %s -> %s", b->name,
		    ENUM_NAME(names, b->link, "unknown"),
		    ENUM_NAME(names, l, "unknown"));
	b->link = l;
}

/* Returns 1 if the connection is closed (lost, or waiting out a lock). */
int
bot_down(const struct bot *b)
{
	return (b->link == BOT_LINK_WAIT_LOCK || b->link == BOT_LINK_DOWN);
}

/* Copies at most BOT_LOG_MAX bytes of s for a log line. */
const char *
bot_short(const char *s, char *tmp, size_t len)
{
	size_t	 n = strlen(s);

	if (n < len && n <= BOT_LOG_MAX)
		return (s);
	snprintf(tmp, len, "%.*s...", (int)(len - 4 < BOT_LOG_MAX ?
	    len - 4 : BOT_LOG_MAX), s);
	return (tmp);
}

/* Flattens an answer's body into one log line. */
const char *
bot_flat(const struct proto_answer *a, char *tmp, size_t len)
{
	size_t		 i, n = 0;
	const char	*s = a->body.data != NULL ? a->body.data : "";

	for (i = 0; s[i] != '\0' && n + 3 < len && n < BOT_LOG_MAX; i++) {
		if (s[i] == '\n') {
			tmp[n++] = ',';
			tmp[n++] = ' ';
		} else
			tmp[n++] = s[i];
	}
	tmp[n] = '\0';
	return (tmp);
}
