/*
 * dblock.c: one daemon per database, by the file's identity, not by its
 * path (issue 25 §6).  Two daemons on one SQLite file would both run, hand
 * out the same game ids and mark each other's live games abandoned, so
 * grundyd takes an exclusive flock(2) on the database file itself before
 * SQLite opens it, and keeps it for its lifetime.  A flock belongs to the
 * open file, that is to the inode: a second daemon reaching the same file
 * by any path (a symlink, a hard link, a bind mount, "./x/../db") meets
 * it and fails at once, naming the holder's pid (from /proc/locks).  The
 * lock goes with the process (kill -9 included).  On Linux flock(2) and
 * SQLite's own POSIX (fcntl) locks are independent, so the two never
 * conflict; the descriptor is never closed while the daemon runs, as
 * closing any descriptor of the file would drop SQLite's POSIX locks.
 */
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/dblock.h"

/*
 * Returns the pid holding a flock on the file of st (from /proc/locks:
 * "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INO START END"), or 0 if unknown.
 */
static long
dblock_holder(const struct stat *st)
{
	FILE		*f;
	char		 line[256], kind[16];
	unsigned int	 maj, min;
	unsigned long long ino;
	long		 pid, found = 0;

	if ((f = fopen("/proc/locks", "r")) == NULL)
		return (0);
	while (found == 0 && fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "%*[^:]: %15s %*s %*s %ld %x:%x:%llu", kind,
		    &pid, &maj, &min, &ino) == 5 && strcmp(kind, "FLOCK") == 0 &&
		    ino == (unsigned long long)st->st_ino &&
		    makedev(maj, min) == st->st_dev && pid != (long)getpid())
			found = pid;
	fclose(f);
	return (found);
}

/*
 * Locks the database file at path for this process (created empty if it
 * does not exist: SQLite takes an empty file for a new database).  Returns
 * the lock's file descriptor (keep it open), or -1 with err filled in:
 * "database PATH is in use by grundyd pid N (device D inode I): one
 * daemon per database".  An in-memory database (":memory:") or a "file:"
 * URI is not locked: returns -2.
 */
int
dblock_take(const char *path, char *err, size_t errlen)
{
	struct stat	 st;
	long		 pid;
	int		 fd;

	if (strcmp(path, ":memory:") == 0 || strncmp(path, "file:", 5) == 0)
		return (-2);
	/* A file that cannot be written is still locked (flock needs no
	 * write access): SQLite then says what it can do with it. */
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY,
	    0644)) == -1 && (errno == EACCES || errno == EPERM ||
	    errno == EROFS))
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd == -1) {
		snprintf(err, errlen, "cannot open the database %s to lock "
		    "it: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "database %s is not a regular file",
		    path);
		close(fd);
		return (-1);
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return (fd);
	if (errno != EWOULDBLOCK) {
		snprintf(err, errlen, "cannot lock the database %s: %s", path,
		    strerror(errno));
		close(fd);
		return (-1);
	}
	pid = dblock_holder(&st);
	if (pid > 0)
		snprintf(err, errlen, "database %s is in use by grundyd pid "
		    "%ld (device %u:%u inode %llu, by any path to it): one "
		    "daemon per database", path, pid, major(st.st_dev),
		    minor(st.st_dev), (unsigned long long)st.st_ino);
	else
		snprintf(err, errlen, "database %s is in use by grundyd pid "
		    "unknown (device %u:%u inode %llu, by any path to it): one "
		    "daemon per database", path, major(st.st_dev),
		    minor(st.st_dev), (unsigned long long)st.st_ino);
	close(fd);
	return (-1);
}
