/*
 * fuzz-proto.c: the framing (proto.c).  Preprocesses and parses one raw
 * line, checks that preprocessing leaves no comment or control character,
 * that proto_blank agrees with the parser, that a parsed command is made
 * of the line's own tokens, and that a reply ends with exactly one empty
 * line.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

#define FUZZ_MAX	8192	/* bytes of one input: a line stays cheap */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_cmd cmd;
	struct buf	 out;
	const char	*why = NULL;
	char		*line;
	size_t		 len, i;
	int		 rv, blank;

	if (size > FUZZ_MAX)
		return (0);
	line = xmalloc(size + 1);
	memcpy(line, data, size);
	line[size] = '\0';
	blank = proto_blank(line, size);
	len = proto_preprocess(line, size);
	assert(len <= size && line[len] == '\0');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		assert(c != '#' && c != '\t' && c != 127 &&
		    (c >= 32 || c == '\n'));
	}
	rv = proto_parse(line, &cmd, &why);
	/* A blank line is exactly one the parser ignores. */
	assert((rv == 0) == (blank != 0));
	assert(rv != -1 || (why != NULL && cmd.has_id && cmd.name == NULL));
	if (rv == 1) {
		assert(cmd.name != NULL && cmd.name[0] != '\0');
		assert(cmd.name >= line && cmd.name < line + len);
		for (i = 0; i < (size_t)cmd.argc; i++) {
			assert(cmd.argv[i][0] != '\0');
			assert(strchr(cmd.argv[i], ' ') == NULL);
			assert(strchr(cmd.argv[i], '\n') == NULL);
		}
	}
	/* The reply repeats the id and ends with one empty line, only. */
	buf_init(&out);
	proto_reply(&out, rv == 1, &cmd, (const char *)line);
	assert(out.len >= 3 && out.data[0] == (rv == 1 ? '=' : '?'));
	assert(out.data[out.len - 1] == '\n' && out.data[out.len - 2] == '\n');
	for (i = 0; i + 2 < out.len; i++)
		assert(out.data[i] != '\n' || out.data[i + 1] != '\n');
	buf_free(&out);
	proto_cmd_free(&cmd);
	free(line);
	return (0);
}
