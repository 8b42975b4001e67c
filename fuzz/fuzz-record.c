/*
 * fuzz-record.c: grundy verify on a record file (verify_text), every
 * family.  Checks that the verdict is one of the three, that it is one
 * line, that a wrong line's number is within the file (or the line after
 * its last), and that verifying again gives the same verdict.  The limits
 * are small so that one input stays fast.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game-limits.h"
#include "record/verify.h"

#define FUZZ_MAX	8192	/* bytes of one input */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verify_limits lim;
	struct buf	 a, b;
	enum verify_verdict v;
	unsigned long	 line, lines = 1;
	size_t		 i;

	if (size > FUZZ_MAX)
		return (0);
	verify_limits_default(&lim);
	lim.max_line = 1024;
	lim.max_file = FUZZ_MAX;
	fuzz_limits(&lim.game);
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	buf_init(&a);
	buf_init(&b);
	v = verify_text("f", (const char *)data, size, &lim, &a);
	assert(v == VERIFY_OK || v == VERIFY_WRONG || v == VERIFY_UNREADABLE);
	assert(a.len > 0 && a.data[a.len - 1] == '\n' &&
	    memchr(a.data, '\n', a.len) == a.data + a.len - 1);
	if (v == VERIFY_WRONG) {
		assert(sscanf(buf_str(&a), "f:%lu: ", &line) == 1);
		assert(line >= 1 && line <= lines);
	} else if (v == VERIFY_OK)
		assert(strncmp(buf_str(&a), "ok ", 3) == 0);
	assert(verify_text("f", (const char *)data, size, &lim, &b) == v);
	assert(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
	buf_free(&a);
	buf_free(&b);
	return (0);
}
