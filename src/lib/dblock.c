/*
 * dblock.c: one daemon per database.  Two daemons on one SQLite file would
 * both run and hand out the same game ids, so grundyd takes an exclusive
 * flock(2) on the file PATH.lock next to the database before it opens it,
 * keeps it for its lifetime and writes its pid there.  A second daemon
 * fails at once and names the holder.  The lock goes with the process
 * (kill -9 included); the file stays, harmlessly.
 */
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/dblock.h"

/*
 * Locks the database at path for this process.  Returns the lock's file
 * descriptor (keep it open), or -1 with err filled in: "database PATH is
 * in use by grundyd pid N (lock file PATH.lock)".
 */
int
dblock_take(const char *path, char *err, size_t errlen)
{
	char	 lock[4096], pid[32];
	ssize_t	 n;
	int	 fd, len;

	if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock) {
		snprintf(err, errlen, "database path too long");
		return (-1);
	}
	if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		snprintf(err, errlen, "cannot open the lock file %s: %s", lock,
		    strerror(errno));
		return (-1);
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK) {
			snprintf(err, errlen, "cannot lock %s: %s", lock,
			    strerror(errno));
			close(fd);
			return (-1);
		}
		n = pread(fd, pid, sizeof pid - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		snprintf(err, errlen, "database %s is in use by grundyd pid %s "
		    "(lock file %s): one daemon per database", path,
		    pid[0] != '\0' ? pid : "unknown", lock);
		close(fd);
		return (-1);
	}
	len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
		snprintf(err, errlen, "cannot write the lock file %s: %s", lock,
		    strerror(errno));
		close(fd);
		return (-1);
	}
	return (fd);
}
