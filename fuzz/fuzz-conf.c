/*
 * fuzz-conf.c: the configuration file parser (conf.c), read from memory.
 * Checks that a refused file says where and why, that the listen addresses
 * of an accepted one either parse or are refused cleanly, and that a
 * reload (conf_copy_runtime) of the result into defaults is sound.
 */
#include <sys/socket.h>

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "proto/conf.h"

#define FUZZ_MAX	16384	/* bytes of one input */

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_storage ss;
	struct conf	 c, run;
	char		 err[512] = "";
	FILE		*f;
	int		 i, len;

	if (size > FUZZ_MAX || size == 0)
		return (0);
	if ((f = fmemopen((void *)(uintptr_t)data, size, "r")) == NULL)
		return (0);
	conf_default(&c);
	if (conf_read(&c, f, "fuzz.conf", err, sizeof err) != 0)
		assert(strncmp(err, "fuzz.conf:", 10) == 0 &&
		    strlen(err) > 12);
	else {
		assert(c.nlisten <= CONF_MAX_LISTEN);
		for (i = 0; i < c.nlisten; i++)
			(void)conf_parse_addr(c.listen[i], &ss, &len);
	}
	fclose(f);
	/* A reload takes what may change at run time. */
	conf_default(&run);
	conf_copy_runtime(&run, &c);
	assert(run.sc.admins == run.admins);
	assert((run.admins == NULL) == (c.admins == NULL));
	conf_free(&run);
	conf_free(&c);
	return (0);
}
