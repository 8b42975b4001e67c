/*
 * replay.c: feeds every file of a seed corpus to one harness's
 * LLVMFuzzerTestOneInput, so that `make check` replays the corpora with a
 * plain build (no clang, no libFuzzer).  The corpus is
 * $top_srcdir/fuzz/corpus/NAME, NAME set at build time; arguments, if any,
 * are files or directories to replay instead.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Replays one file; returns 0, or -1 if it cannot be read. */
static int
replay_file(const char *path)
{
	struct buf	 b;
	char		 chunk[8192];
	size_t		 n;
	FILE		*f;

	if ((f = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "replay: %s: cannot open\n", path);
		return (-1);
	}
	buf_init(&b);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	LLVMFuzzerTestOneInput((const uint8_t *)(b.data != NULL ? b.data :
	    ""), b.len);
	buf_free(&b);
	return (0);
}

/* Replays a file, or every file of a directory; returns the count. */
static long
replay_path(const char *path)
{
	struct dirent	*de;
	struct stat	 sb;
	char		 sub[4096];
	DIR		*d;
	long		 n = 0;

	if (stat(path, &sb) != 0) {
		fprintf(stderr, "replay: %s: not found\n", path);
		return (-1);
	}
	if (!S_ISDIR(sb.st_mode))
		return (replay_file(path) == 0 ? 1 : -1);
	if ((d = opendir(path)) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
		if (replay_file(sub) != 0) {
			n = -1;
			break;
		}
		n++;
	}
	closedir(d);
	return (n);
}

int
main(int argc, char **argv)
{
	const char	*top = getenv("top_srcdir");
	char		 dir[4096];
	long		 n, total = 0;
	int		 a;

	if (argc > 1) {
		for (a = 1; a < argc; a++) {
			if ((n = replay_path(argv[a])) < 0)
				return (1);
			total += n;
		}
	} else {
		snprintf(dir, sizeof dir, "%s/fuzz/corpus/%s",
		    top != NULL ? top : ".", FUZZ_NAME);
		if ((total = replay_path(dir)) <= 0) {
			fprintf(stderr, "replay: %s: no seed inputs\n", dir);
			return (1);
		}
	}
	printf("replay %s: %ld inputs, no failure\n", FUZZ_NAME, total);
	return (0);
}
