/*
 * fuzz-session.c: whole-session command execution with the store off.
 * Each input line is one request to session_execute, as grundyd's workers
 * and `grundy engine` run them.  Checks that every request that is not
 * blank gets exactly one reply, that a reply is framed as PROTOCOL.md §6
 * says, and that a session ends clean.  Small limits keep one input fast.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/conf.h"
#include "session/session.h"

#define FUZZ_MAX	4096	/* bytes of one input */
#define FUZZ_LINES	32	/* requests per input */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Returns the number of replies in out: each ends with an empty line. */
static size_t
fuzz_replies(const struct buf *out)
{
	size_t	 i, n = 0;

	for (i = 0; i + 1 < out->len; i++)
		if (out->data[i] == '\n' && out->data[i + 1] == '\n') {
			n++;
			i++;
		}
	return (n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conf	 c;
	struct session	 s;
	struct buf	 out;
	char		*text, *line, *next;
	size_t		 len, n = 0;
	int		 blank, quit = 0;

	if (size > FUZZ_MAX)
		return (0);
	conf_default(&c);
	c.sc.lim.max_digits = 40;
	c.sc.lim.max_piles = 12;
	c.sc.lim.max_components = 4;
	c.sc.lim.max_nodes = 48;
	c.sc.lim.max_edges = 128;
	c.sc.lim.max_set = 6;
	c.sc.lim.max_set_value = 48;
	c.sc.lim.max_table = 4096;
	c.sc.lim.max_wythoff = 24;
	c.sc.lim.max_moves = 256;
	c.sc.max_undo = 16;
	c.sc.max_winning = 64;
	session_init(&s, 1, &c.sc, cmd_table);
	buf_init(&out);
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = text; line != NULL && !quit && n < FUZZ_LINES;
	    line = next, n++) {
		if ((next = memchr(line, '\n', size - (size_t)(line - text)))
		    != NULL)
			*next++ = '\0';
		len = next != NULL ? (size_t)(next - 1 - line) :
		    size - (size_t)(line - text);
		blank = proto_blank(line, len);
		buf_reset(&out);
		quit = session_execute(&s, line, len, &out);
		assert(fuzz_replies(&out) == (blank ? 0 : 1));
		if (!blank) {
			assert(out.data[0] == '=' || out.data[0] == '?');
			assert(out.data[out.len - 1] == '\n' &&
			    out.data[out.len - 2] == '\n');
			assert(s.last_cmd != NULL || out.data[0] == '?');
		}
	}
	buf_free(&out);
	session_free(&s);
	conf_free(&c);
	free(text);
	return (0);
}
