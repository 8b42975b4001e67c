/*
 * ptree.c: a player program's process tree (ptree.h): a cgroup of its own
 * where the machine offers one (v1: memory, pids, cpuacct and freezer
 * hierarchies, each where mounted and writable; v2: one directory), else
 * its process group and a walk of /proc; its CPU time, peak memory,
 * freezing, limits and killing, whichever way it is held.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/ptree.h"
#include "lib/buf.h"
#include "lib/clock.h"

#define PT_KILL_MS	5000	/* ptree_kill's wait for the tree to empty */
#define PT_FREEZE_MS	2000	/* a freezer's wait for FROZEN */
#define PT_OPEN_MAX	8	/* counter files kept open */

/* The cgroup v1 hierarchies a tree uses, in this order in dir[]. */
enum { PT_MEM, PT_PIDS, PT_CPU, PT_FRZ, PT_NCTL };
static const char *const pt_ctl[PT_NCTL] = {
	"memory", "pids", "cpuacct", "freezer"
};

/* One process seen in the tree (for the walk of /proc). */
struct pt_proc {
	pid_t		 pid;
	unsigned long long start;	/* its start time: a reused pid differs */
	uint64_t	 cpu_ns;	/* last seen, its own and its reaped children's */
	int		 orphan;	/* its parent was outside the tree */
};

struct ptree {
	int		 v2;		/* dir[0] is a cgroup v2 directory */
	char		*dir[PT_NCTL];	/* v1: per hierarchy, NULL where none */
	int		 v2mem, v2pids;	/* v2: controllers on */
	pid_t		 root;		/* the program (leads its process group) */
	struct ptree_limits lim;
	struct pt_proc	*seen;		/* fallback: every process seen */
	size_t		 nseen, capseen;
	uint64_t	 dead_ns;	/* fallback: CPU of orphans gone */
	uint64_t	 cpu_max, peak;	/* fallback: monotonic readings */
	int		 stopped;	/* fallback: SIGSTOPped */
	/* Counter files kept open (pt_counter): read again at offset 0. */
	struct {
		char	*path;
		const char *dir, *name;	/* as pt_counter was asked */
		int	 fd;
	}		 open[PT_OPEN_MAX];
	size_t		 nopen;
};

/* Reads a whole small file into b (NUL-ended).  Returns 0 or -1. */
static int
pt_read(const char *path, struct buf *b)
{
	char	 tmp[4096];
	ssize_t	 n;
	int	 fd;

	buf_reset(b);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	while ((n = read(fd, tmp, sizeof tmp)) > 0)
		buf_add(b, tmp, (size_t)n);
	close(fd);
	buf_add(b, "", 0);
	return (n < 0 ? -1 : 0);
}

/* Writes s to the file dir/name.  Returns 0 or -1 with errno. */
static int
pt_write(const char *dir, const char *name, const char *s)
{
	char	 path[4096];
	ssize_t	 n;
	int	 fd, e;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return (n == (ssize_t)strlen(s) ? 0 : -1);
}

/*
 * Reads the counter file dir/name into out (cap bytes, NUL-ended), from a
 * descriptor kept open for the tree's life (a cgroup file read again at
 * offset 0 shows its counters anew; an open costs more than the read).
 * One pread: a cgroup file is a seq_file that hands its whole text to a
 * read with room for it (the counters read here are under 1 KiB), so a
 * second read would only see its end, a syscall per counter for nothing
 * (a move's cost reads two or three, BENCHMARKS.md §46).  Returns 0 or
 * -1.
 */
static int
pt_counter(struct ptree *pt, const char *dir, const char *name, char *out,
    size_t cap)
{
	char	 path[4096];
	ssize_t	 n;
	size_t	 i;
	int	 fd = -1;

	/* dir is one of the tree's own strings: found by its address
	 * (and its text, should the address have been reused). */
	for (i = 0; i < pt->nopen && fd == -1; i++)
		if (pt->open[i].dir == dir && strcmp(pt->open[i].name,
		    name) == 0 && strncmp(pt->open[i].path, dir,
		    strlen(dir)) == 0)
			fd = pt->open[i].fd;
	if (fd == -1) {
		snprintf(path, sizeof path, "%s/%s", dir, name);
		for (i = 0; i < pt->nopen && fd == -1; i++)
			if (strcmp(pt->open[i].path, path) == 0)
				fd = pt->open[i].fd;
	}
	if (fd == -1) {
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			return (-1);
		if (pt->nopen < PT_OPEN_MAX) {
			pt->open[pt->nopen].path = xstrdup(path);
			pt->open[pt->nopen].dir = dir;
			pt->open[pt->nopen].name = name;
			pt->open[pt->nopen++].fd = fd;
		}
	}
	n = pread(fd, out, cap - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	for (i = 0; i < pt->nopen && pt->open[i].fd != fd; i++)
		;
	if (i == pt->nopen)
		close(fd);
	return (n < 0 ? -1 : 0);
}

/* Reads dir/name's first number into *v.  Returns 0 or -1. */
static int
pt_num(struct ptree *pt, const char *dir, const char *name, uint64_t *v)
{
	char	 b[1024];

	if (pt_counter(pt, dir, name, b, sizeof b) != 0 ||
	    !isdigit((unsigned char)b[0]))
		return (-1);
	*v = strtoull(b, NULL, 10);
	return (0);
}

/*
 * Reads the number after "key " in the keyed file dir/name (memory.events,
 * pids.events, cpu.stat, memory.oom_control).  Returns 0 or -1.
 */
static int
pt_key(struct ptree *pt, const char *dir, const char *name, const char *key,
    uint64_t *v)
{
	char		 b[1024];
	const char	*p;
	size_t		 kl = strlen(key);

	if (pt_counter(pt, dir, name, b, sizeof b) != 0)
		return (-1);
	for (p = b; p != NULL && *p != '\0';
	    p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, key, kl) == 0 && p[kl] == ' ') {
			*v = strtoull(p + kl + 1, NULL, 10);
			return (0);
		}
	return (-1);
}

/*
 * Finds where hierarchy ctl (a v1 controller, or NULL for cgroup v2) is
 * mounted and this process's cgroup in it, as a directory path in out.
 * Returns 0 or -1.
 */
static int
pt_own(const char *ctl, char *out, size_t outsz)
{
	struct buf	 mi, cg;
	char		*line, *next, *f[12], *sep, *opts, *own = NULL;
	size_t		 nf, rl;
	int		 rv = -1;

	buf_init(&mi);
	buf_init(&cg);
	if (pt_read("/proc/self/cgroup", &cg) != 0 ||
	    pt_read("/proc/self/mountinfo", &mi) != 0)
		goto out;
	/* "ID:controllers:path": the path in the wanted hierarchy. */
	for (line = cg.data; line != NULL && *line != '\0'; line = next) {
		char *c1, *c2, *tok, *save;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((c1 = strchr(line, ':')) == NULL ||
		    (c2 = strchr(c1 + 1, ':')) == NULL)
			continue;
		*c2 = '\0';
		if (ctl == NULL) {
			if (c1[1] == '\0') {
				own = c2 + 1;
				break;
			}
			continue;
		}
		for (tok = strtok_r(c1 + 1, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save))
			if (strcmp(tok, ctl) == 0)
				own = c2 + 1;
		if (own != NULL)
			break;
	}
	if (own == NULL)
		goto out;
	/* mountinfo: "id parent dev root mountpoint opts ... - type src sopts". */
	for (line = mi.data; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if ((sep = strstr(line, " - ")) == NULL)
			continue;
		*sep = '\0';
		for (nf = 0, f[0] = strtok(line, " "); f[nf] != NULL &&
		    nf < 11; f[++nf] = strtok(NULL, " "))
			;
		if (nf < 5)
			continue;
		f[nf] = NULL;
		{
			char *type = strtok(sep + 3, " ");
			char *src = strtok(NULL, " ");
			char *tok, *save;
			int hit = 0;

			opts = strtok(NULL, " ");
			(void)src;
			if (type == NULL || opts == NULL)
				continue;
			if (ctl == NULL)
				hit = strcmp(type, "cgroup2") == 0;
			else if (strcmp(type, "cgroup") == 0) {
				for (tok = strtok_r(opts, ",", &save);
				    tok != NULL; tok = strtok_r(NULL, ",",
				    &save))
					if (strcmp(tok, ctl) == 0)
						hit = 1;
			}
			if (!hit)
				continue;
		}
		/* The mount shows f[3] of the hierarchy at f[4]. */
		rl = strlen(f[3]);
		if (strcmp(f[3], "/") == 0)
			snprintf(out, outsz, "%s%s", f[4],
			    strcmp(own, "/") == 0 ? "" : own);
		else if (strncmp(own, f[3], rl) == 0 &&
		    (own[rl] == '\0' || own[rl] == '/'))
			snprintf(out, outsz, "%s%s", f[4], own + rl);
		else
			continue;
		rv = 0;
		break;
	}
out:
	buf_free(&mi);
	buf_free(&cg);
	return (rv);
}

/* Whether the file dir/name exists. */
static int
pt_exists(const char *dir, const char *name)
{
	char	 path[4096];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return (access(path, F_OK) == 0);
}

/*
 * Removes the empty cgroups that earlier runs of grundy left in parent
 * ("grundy-PID-..." of a PID that is gone: killed before it could remove
 * them).  rmdir takes only an empty cgroup, so one in use stays.
 */
static void
pt_sweep(const char *parent)
{
	char		 path[4096];
	struct dirent	*de;
	DIR		*d;
	long		 pid;

	if ((d = opendir(parent)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "grundy-", 7) != 0)
			continue;
		pid = strtol(de->d_name + 7, NULL, 10);
		if (pid <= 0 || pid == (long)getpid() ||
		    (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		snprintf(path, sizeof path, "%s/%s", parent, de->d_name);
		rmdir(path);
	}
	closedir(d);
}

/* Makes the directory parent/name; returns it (xmalloc'd) or NULL. */
static char *
pt_mkdir(const char *parent, const char *name)
{
	char	 path[4096];

	snprintf(path, sizeof path, "%s/%s", parent, name);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return (NULL);
	return (xstrdup(path));
}

/* Removes a cgroup directory, waiting up to a second while it drains. */
static void
pt_rmdir(char *dir)
{
	uint64_t	 end = clock_mono_ms() + 1000;

	if (dir == NULL)
		return;
	while (rmdir(dir) != 0 && errno == EBUSY && clock_mono_ms() < end)
		usleep(1000);
	free(dir);
}

/*
 * Sets up the cgroups of a new tree: v1 hierarchies where this process's
 * cgroup is writable, else one v2 directory.  Leaves pt without a cgroup
 * when there is none.
 */
static void
pt_cgroups(struct ptree *pt, const char *name, int v2only)
{
	static int	 swept;		/* once a process */
	char		 own[4096], lim[64];
	int		 i, any = 0;

	for (i = 0; i < PT_NCTL && !v2only; i++) {
		if (pt_own(pt_ctl[i], own, sizeof own) != 0)
			continue;
		if (!swept)
			pt_sweep(own);
		if ((pt->dir[i] = pt_mkdir(own, name)) != NULL)
			any = 1;
	}
	if (any)
		swept = 1;
	else {
		if (pt_own(NULL, own, sizeof own) != 0)
			return;
		if (!swept)
			pt_sweep(own);
		swept = 1;
		if ((pt->dir[0] = pt_mkdir(own, name)) == NULL)
			return;
		pt->v2 = 1;
		/* Fails (EBUSY) where the parent holds processes itself. */
		pt_write(own, "cgroup.subtree_control", "+memory");
		pt_write(own, "cgroup.subtree_control", "+pids");
		pt_write(own, "cgroup.subtree_control", "+cpu");
		pt->v2mem = pt_exists(pt->dir[0], "memory.max");
		pt->v2pids = pt_exists(pt->dir[0], "pids.max");
	}
	if (pt->lim.mem_bytes != 0) {
		snprintf(lim, sizeof lim, "%llu",
		    (unsigned long long)pt->lim.mem_bytes);
		if (pt->v2) {
			if (pt->v2mem &&
			    pt_write(pt->dir[0], "memory.max", lim) != 0)
				pt->v2mem = 0;
			else if (pt->v2mem)
				/* No swap beyond it, where swap is counted. */
				pt_write(pt->dir[0], "memory.swap.max", "0");
		} else if (pt->dir[PT_MEM] != NULL) {
			if (pt_write(pt->dir[PT_MEM], "memory.limit_in_bytes",
			    lim) != 0) {
				pt_rmdir(pt->dir[PT_MEM]);
				pt->dir[PT_MEM] = NULL;
			} else
				/* No swap beyond it, where swap is counted. */
				pt_write(pt->dir[PT_MEM],
				    "memory.memsw.limit_in_bytes", lim);
		}
	}
	if (pt->lim.procs != 0) {
		snprintf(lim, sizeof lim, "%u", pt->lim.procs);
		if (pt->v2) {
			if (pt->v2pids &&
			    pt_write(pt->dir[0], "pids.max", lim) != 0)
				pt->v2pids = 0;
		} else if (pt->dir[PT_PIDS] != NULL &&
		    pt_write(pt->dir[PT_PIDS], "pids.max", lim) != 0) {
			pt_rmdir(pt->dir[PT_PIDS]);
			pt->dir[PT_PIDS] = NULL;
		}
	}
}

/*
 * Makes a tree for one program, tag naming it (letters, digits, '-' and
 * '_' kept), with limits lim (NULL: none).  Returns it, or NULL with errno.
 */
struct ptree *
ptree_new(const char *tag, const struct ptree_limits *lim)
{
	static unsigned	 seq;
	struct ptree	*pt;
	char		 name[128], clean[33];
	const char	*mode;
	size_t		 i, n = 0;

	if ((pt = calloc(1, sizeof *pt)) == NULL)
		return (NULL);
	if (lim != NULL)
		pt->lim = *lim;
	pt->root = -1;
	for (i = 0; tag != NULL && tag[i] != '\0' && n < sizeof clean - 1; i++)
		if (isalnum((unsigned char)tag[i]) || tag[i] == '-' ||
		    tag[i] == '_')
			clean[n++] = tag[i];
	clean[n] = '\0';
	snprintf(name, sizeof name, "grundy-%ld-%u-%s", (long)getpid(),
	    seq++, clean);
	/* GRUNDY_PTREE=process-group: the fallback, where cgroups exist;
	 * GRUNDY_PTREE=cgroup-v2: v2 alone, where v1 hierarchies exist. */
	if ((mode = getenv("GRUNDY_PTREE")) == NULL ||
	    strcmp(mode, "process-group") != 0)
		pt_cgroups(pt, name, mode != NULL &&
		    strcmp(mode, "cgroup-v2") == 0);
	return (pt);
}

/*
 * Which way the tree is held: "cgroup-v1", "cgroup-v2" or "process-group",
 * then ", rlimit for memory", ", rlimit for processes" or ", rlimits for
 * memory and processes" where no cgroup controller holds them.
 */
const char *
ptree_mode(const struct ptree *pt)
{
	static const char *const modes[3][4] = {
		{ "cgroup-v1", "cgroup-v1, rlimit for memory",
		  "cgroup-v1, rlimit for processes",
		  "cgroup-v1, rlimits for memory and processes" },
		{ "cgroup-v2", "cgroup-v2, rlimit for memory",
		  "cgroup-v2, rlimit for processes",
		  "cgroup-v2, rlimits for memory and processes" },
		{ "process-group", "process-group",
		  "process-group", "process-group, rlimits for memory and "
		  "processes" },
	};
	int	 i, kind = 2, mem, pids;

	if (pt->v2)
		kind = 1;
	for (i = 0; i < PT_NCTL && kind == 2; i++)
		if (pt->dir[i] != NULL)
			kind = 0;
	mem = pt->v2 ? pt->v2mem : pt->dir[PT_MEM] != NULL;
	pids = pt->v2 ? pt->v2pids : pt->dir[PT_PIDS] != NULL;
	return (modes[kind][(mem ? 0 : 1) + (pids ? 0 : 2)]);
}

/* The directory whose cgroup.procs lists the tree, or NULL. */
static const char *
pt_listdir(const struct ptree *pt)
{
	static const int order[] = { PT_FRZ, PT_PIDS, PT_CPU, PT_MEM };
	size_t	 i;

	if (pt->v2)
		return (pt->dir[0]);
	for (i = 0; i < sizeof order / sizeof order[0]; i++)
		if (pt->dir[order[i]] != NULL)
			return (pt->dir[order[i]]);
	return (NULL);
}

/* Sets one rlimit of pid (soft and hard). */
static int
pt_rlimit(pid_t pid, int res, uint64_t v)
{
	struct rlimit	 rl;

	rl.rlim_cur = rl.rlim_max = (rlim_t)v;
	return (prlimit(pid, res, &rl, NULL));
}

/*
 * The tasks (processes and threads) of pid's real user but pid itself:
 * what RLIMIT_NPROC counts besides the tree.  None for root, whom
 * RLIMIT_NPROC does not bind (and a sandbox of root's becomes a user of
 * its own, which has none).
 */
static unsigned
pt_user_tasks(pid_t pid)
{
	char		 path[300];
	struct buf	 b;
	struct dirent	*de;
	DIR		*d;
	const char	*p;
	long		 uid = -1;
	unsigned	 n = 0;

	buf_init(&b);
	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if (pt_read(path, &b) == 0 && (p = strstr(b.data, "\nUid:")) != NULL)
		uid = strtol(p + 5, NULL, 10);
	if (uid > 0 && (d = opendir("/proc")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (!isdigit((unsigned char)de->d_name[0]) ||
			    atol(de->d_name) == (long)pid)
				continue;
			snprintf(path, sizeof path, "/proc/%s/status",
			    de->d_name);
			if (pt_read(path, &b) != 0 ||
			    (p = strstr(b.data, "\nUid:")) == NULL ||
			    strtol(p + 5, NULL, 10) != uid)
				continue;
			if ((p = strstr(b.data, "\nThreads:")) != NULL)
				n += (unsigned)strtoul(p + 9, NULL, 10);
		}
		closedir(d);
	}
	buf_free(&b);
	return (n);
}

/*
 * Puts pid, a child forked but not yet executing its program, in the
 * tree: in its cgroups, and its rlimits set (open files, file size, core
 * dumps off; memory and processes where no cgroup holds them, the latter
 * as RLIMIT_NPROC over the tasks its user has already).  Returns 0, or -1
 * with errno.
 */
int
ptree_enter(struct ptree *pt, pid_t pid)
{
	char	 s[32];
	int	 i;

	pt->root = pid;
	snprintf(s, sizeof s, "%ld", (long)pid);
	for (i = 0; i < PT_NCTL; i++)
		if (pt->dir[i] != NULL &&
		    pt_write(pt->dir[i], "cgroup.procs", s) != 0)
			return (-1);
	if (pt_rlimit(pid, RLIMIT_CORE, 0) != 0)
		return (-1);
	if (pt->lim.files != 0 &&
	    pt_rlimit(pid, RLIMIT_NOFILE, pt->lim.files) != 0)
		return (-1);
	if (pt->lim.fsize_bytes != 0 &&
	    pt_rlimit(pid, RLIMIT_FSIZE, pt->lim.fsize_bytes) != 0)
		return (-1);
	if (pt->lim.mem_bytes != 0 && !(pt->v2 ? pt->v2mem :
	    pt->dir[PT_MEM] != NULL) &&
	    pt_rlimit(pid, RLIMIT_AS, pt->lim.mem_bytes) != 0)
		return (-1);
	if (pt->lim.procs != 0 && !(pt->v2 ? pt->v2pids :
	    pt->dir[PT_PIDS] != NULL) &&
	    pt_rlimit(pid, RLIMIT_NPROC, pt->lim.procs + pt_user_tasks(pid)) !=
	    0)
		return (-1);
	return (0);
}

/* One process's line of /proc/PID/stat, the fields the walk uses. */
struct pt_stat {
	pid_t		 pid, ppid, pgrp, sid;
	char		 state;
	unsigned long long start;
	uint64_t	 cpu_ns;	/* utime+stime+cutime+cstime */
};

/* Reads /proc/PID/stat.  Returns 0 or -1 (gone). */
static int
pt_stat(pid_t pid, struct pt_stat *st)
{
	char			 path[64];
	struct buf		 b;
	char			*p;
	unsigned long long	 ut, stt, cut, cst;
	static long		 hz;
	int			 rv = -1;

	if (hz == 0)
		hz = sysconf(_SC_CLK_TCK);
	buf_init(&b);
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if (pt_read(path, &b) == 0 && (p = strrchr(b.data, ')')) != NULL) {
		int ppid, pgrp, sid;

		/* state ppid pgrp session tty tpgid flags minflt cminflt
		 * majflt cmajflt utime stime cutime cstime priority nice
		 * threads itrealvalue starttime */
		if (sscanf(p + 2, "%c %d %d %d %*d %*d %*u %*u %*u %*u %*u "
		    "%llu %llu %llu %llu %*d %*d %*d %*d %llu", &st->state,
		    &ppid, &pgrp, &sid, &ut, &stt, &cut, &cst,
		    &st->start) == 9) {
			st->pid = pid;
			st->ppid = ppid;
			st->pgrp = pgrp;
			st->sid = sid;
			st->cpu_ns = (ut + stt + cut + cst) *
			    (1000000000ULL / (unsigned long long)hz);
			rv = 0;
		}
	}
	buf_free(&b);
	return (rv);
}

/* The entry of pid in pt->seen, or NULL. */
static struct pt_proc *
pt_seen(struct ptree *pt, pid_t pid)
{
	size_t	 i;

	for (i = 0; i < pt->nseen; i++)
		if (pt->seen[i].pid == pid)
			return (&pt->seen[i]);
	return (NULL);
}

/*
 * The tree's live members into *out (xmalloc'd, *n of them): from the
 * cgroup where there is one, else by a walk of /proc (the root's process
 * group, its descendants and every process seen before with its start
 * time unchanged), which also updates the fallback's CPU reckoning.
 * Zombies are not members.  Returns 0 or -1.
 */
static int
pt_members(struct ptree *pt, pid_t **out, size_t *n)
{
	const char	*dir = pt_listdir(pt);
	struct pt_stat	*all = NULL, st;
	size_t		 nall = 0, cap = 0, i, j;
	struct dirent	*de;
	DIR		*d;
	pid_t		*m = NULL;
	size_t		 nm = 0, capm = 0;
	int		 grew;

	*out = NULL;
	*n = 0;
	if (dir != NULL) {
		char		 path[4096];
		struct buf	 b;
		char		*p, *e;

		buf_init(&b);
		snprintf(path, sizeof path, "%s/cgroup.procs", dir);
		if (pt_read(path, &b) != 0) {
			buf_free(&b);
			return (-1);
		}
		for (p = b.data; *p != '\0'; p = e) {
			long v = strtol(p, &e, 10);

			if (e == p)
				break;
			if (pt_stat((pid_t)v, &st) == 0 && st.state != 'Z') {
				if (nm == capm)
					m = xreallocarray(m, capm = capm * 2 +
					    16, sizeof *m);
				m[nm++] = (pid_t)v;
			}
		}
		buf_free(&b);
		*out = m;
		*n = nm;
		return (0);
	}
	if ((d = opendir("/proc")) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (pt_stat((pid_t)atol(de->d_name), &st) != 0)
			continue;
		if (nall == cap)
			all = xreallocarray(all, cap = cap * 2 + 64,
			    sizeof *all);
		all[nall++] = st;
	}
	closedir(d);
	/* Members: the group, seen ones, then their descendants. */
	{
		char *in = xcalloc(nall + 1, 1);

		for (i = 0; i < nall; i++) {
			struct pt_proc *s = pt_seen(pt, all[i].pid);

			if (all[i].pid == pt->root || (pt->root > 0 &&
			    all[i].pgrp == pt->root) ||
			    (s != NULL && s->start == all[i].start))
				in[i] = 1;
		}
		do {
			grew = 0;
			for (i = 0; i < nall; i++) {
				if (in[i])
					continue;
				for (j = 0; j < nall; j++)
					if (in[j] && all[j].pid ==
					    all[i].ppid)
						break;
				if (j < nall) {
					in[i] = 1;
					grew = 1;
				}
			}
		} while (grew);
		/* Seen ones gone: an orphan's CPU is nobody else's. */
		for (j = 0; j < pt->nseen; j++) {
			for (i = 0; i < nall; i++)
				if (in[i] && all[i].pid == pt->seen[j].pid &&
				    all[i].start == pt->seen[j].start)
					break;
			if (i == nall) {
				if (pt->seen[j].orphan)
					pt->dead_ns += pt->seen[j].cpu_ns;
				pt->seen[j] = pt->seen[--pt->nseen];
				j--;
			}
		}
		for (i = 0; i < nall; i++) {
			struct pt_proc *s;

			if (!in[i])
				continue;
			if ((s = pt_seen(pt, all[i].pid)) == NULL) {
				if (pt->nseen == pt->capseen)
					pt->seen = xreallocarray(pt->seen,
					    pt->capseen = pt->capseen * 2 + 16,
					    sizeof *pt->seen);
				s = &pt->seen[pt->nseen++];
				s->pid = all[i].pid;
			}
			s->start = all[i].start;
			s->cpu_ns = all[i].cpu_ns;
			for (j = 0; j < nall; j++)
				if (in[j] && all[j].pid == all[i].ppid)
					break;
			s->orphan = j == nall && all[i].pid != pt->root;
			if (all[i].state == 'Z')
				continue;
			if (nm == capm)
				m = xreallocarray(m, capm = capm * 2 + 16,
				    sizeof *m);
			m[nm++] = all[i].pid;
		}
		free(in);
	}
	free(all);
	*out = m;
	*n = nm;
	return (0);
}

/*
 * The tree's CPU time so far, user and system, in nanoseconds: the
 * cgroup's counter, else the sum over the walk of /proc (each member's own
 * and its reaped children's, plus orphans gone; a process that ended
 * between two readings without a parent in the tree is missed).  Never
 * decreases.  Returns 0 or -1.
 */
int
ptree_cpu_ns(struct ptree *pt, uint64_t *ns)
{
	pid_t		*m;
	size_t		 n, i;
	uint64_t	 v, sum;

	if (pt->v2 && pt_key(pt, pt->dir[0], "cpu.stat", "usage_usec", &v) == 0) {
		*ns = v * 1000;
		return (0);
	}
	if (!pt->v2 && pt->dir[PT_CPU] != NULL &&
	    pt_num(pt, pt->dir[PT_CPU], "cpuacct.usage", &v) == 0) {
		*ns = v;
		return (0);
	}
	if (pt_listdir(pt) != NULL) {
		/* A cgroup without a CPU counter: sum its members. */
		struct pt_stat st;

		if (pt_members(pt, &m, &n) != 0)
			return (-1);
		for (sum = 0, i = 0; i < n; i++)
			if (pt_stat(m[i], &st) == 0)
				sum += st.cpu_ns;
		free(m);
	} else {
		if (pt_members(pt, &m, &n) != 0)
			return (-1);
		free(m);
		for (sum = pt->dead_ns, i = 0; i < pt->nseen; i++)
			sum += pt->seen[i].cpu_ns;
	}
	if (sum > pt->cpu_max)
		pt->cpu_max = sum;
	*ns = pt->cpu_max;
	return (0);
}

/*
 * The tree's peak memory in bytes: the cgroup's high-water mark, else the
 * largest sum of its members' resident high-water marks (VmHWM) seen at a
 * reading.  Returns 0 or -1.
 */
int
ptree_peak_bytes(struct ptree *pt, uint64_t *bytes)
{
	char		 path[64];
	struct buf	 b;
	pid_t		*m;
	size_t		 n, i;
	uint64_t	 v, sum = 0;
	const char	*p;

	if (pt->v2 && pt->v2mem &&
	    pt_num(pt, pt->dir[0], "memory.peak", &v) == 0) {
		*bytes = v;
		return (0);
	}
	if (!pt->v2 && pt->dir[PT_MEM] != NULL &&
	    pt_num(pt, pt->dir[PT_MEM], "memory.max_usage_in_bytes", &v) == 0) {
		*bytes = v;
		return (0);
	}
	if (pt_members(pt, &m, &n) != 0)
		return (-1);
	buf_init(&b);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "/proc/%ld/status", (long)m[i]);
		if (pt_read(path, &b) == 0 &&
		    (p = strstr(b.data, "VmHWM:")) != NULL)
			sum += strtoull(p + 6, NULL, 10) * 1024;
	}
	buf_free(&b);
	free(m);
	if (sum > pt->peak)
		pt->peak = sum;
	*bytes = pt->peak;
	return (0);
}

/* Sends sig to every member until a walk finds none new.  Returns 0/-1. */
static int
pt_signal_all(struct ptree *pt, int sig)
{
	pid_t	*m, *prev = NULL;
	size_t	 n, nprev = 0, i, j, fresh;
	int	 rounds = 0;

	do {
		if (pt_members(pt, &m, &n) != 0) {
			free(prev);
			return (-1);
		}
		for (fresh = 0, i = 0; i < n; i++) {
			for (j = 0; j < nprev; j++)
				if (prev[j] == m[i])
					break;
			if (j == nprev) {
				kill(m[i], sig);
				fresh++;
			}
		}
		free(prev);
		prev = m;
		nprev = n;
	} while (fresh > 0 && ++rounds < 100);
	free(prev);
	return (0);
}

/* Writes a v1 freezer state or v2 cgroup.freeze and waits for it. */
static int
pt_freezer(struct ptree *pt, int on)
{
	uint64_t	 end = clock_mono_ms() + PT_FREEZE_MS, v;
	char		 path[4096];
	struct buf	 b;
	int		 done = 0;

	if (pt->v2) {
		if (pt_write(pt->dir[0], "cgroup.freeze", on ? "1" : "0") != 0)
			return (-1);
		while (clock_mono_ms() < end) {
			if (pt_key(pt, pt->dir[0], "cgroup.events", "frozen",
			    &v) == 0 && (int)v == on)
				return (0);
			usleep(500);
		}
		errno = ETIMEDOUT;
		return (-1);
	}
	if (pt_write(pt->dir[PT_FRZ], "freezer.state",
	    on ? "FROZEN" : "THAWED") != 0)
		return (-1);
	if (!on)
		return (0);
	buf_init(&b);
	snprintf(path, sizeof path, "%s/freezer.state", pt->dir[PT_FRZ]);
	while (!done && clock_mono_ms() < end) {
		if (pt_read(path, &b) == 0 && strncmp(b.data, "FROZEN", 6) == 0)
			done = 1;
		else
			usleep(500);
	}
	buf_free(&b);
	if (!done)
		errno = ETIMEDOUT;
	return (done ? 0 : -1);
}

/* Whether the tree has a freezer (v2 always, v1 its hierarchy). */
static int
pt_has_freezer(const struct ptree *pt)
{
	return (pt->v2 || pt->dir[PT_FRZ] != NULL);
}

/*
 * Stops every process of the tree: the cgroup freezer, else SIGSTOP to
 * each member until a walk finds none new.  Returns 0 or -1.
 */
int
ptree_freeze(struct ptree *pt)
{
	if (pt_has_freezer(pt))
		return (pt_freezer(pt, 1));
	pt->stopped = 1;
	return (pt_signal_all(pt, SIGSTOP));
}

/* Resumes a frozen tree.  Returns 0 or -1. */
int
ptree_thaw(struct ptree *pt)
{
	if (pt_has_freezer(pt))
		return (pt_freezer(pt, 0));
	pt->stopped = 0;
	return (pt_signal_all(pt, SIGCONT));
}

/*
 * Kills every process of the tree with SIGKILL, whatever its process
 * group or session, and waits (up to PT_KILL_MS) until none is left but
 * zombies: v2's cgroup.kill where there is one, else the tree frozen (so
 * nothing forks meanwhile), every member killed, thawed, and again until
 * empty.  Returns 0, or -1 (ETIMEDOUT when some process outlived it).
 */
int
ptree_kill(struct ptree *pt)
{
	uint64_t	 end = clock_mono_ms() + PT_KILL_MS;
	pid_t		*m;
	size_t		 n, i;
	int		 frz = pt_has_freezer(pt);

	if (pt->root <= 0)
		return (0);
	if (pt->v2)
		pt_write(pt->dir[0], "cgroup.kill", "1");
	for (;;) {
		if (frz)
			pt_freezer(pt, 1);
		else
			pt_signal_all(pt, SIGSTOP);
		if (pt_members(pt, &m, &n) != 0)
			return (-1);
		for (i = 0; i < n; i++)
			kill(m[i], SIGKILL);
		if (pt->root > 0 && !frz)
			kill(-pt->root, SIGKILL);
		free(m);
		if (frz)
			pt_freezer(pt, 0);
		if (n == 0)
			return (0);
		if (clock_mono_ms() >= end) {
			errno = ETIMEDOUT;
			return (-1);
		}
		usleep(1000);
	}
}

/*
 * Which limit the tree ran into, from the cgroup's counters: "memory-limit"
 * (an OOM kill in it, or memory.events' oom), "process-limit" (a fork or
 * clone refused at pids.max), or NULL (none, or no cgroup to tell).
 */
const char *
ptree_violation(struct ptree *pt)
{
	uint64_t	 v;

	if (pt->v2) {
		if (pt->v2mem && ((pt_key(pt, pt->dir[0], "memory.events",
		    "oom_kill", &v) == 0 && v > 0) ||
		    (pt_key(pt, pt->dir[0], "memory.events", "oom", &v) == 0 &&
		    v > 0)))
			return ("memory-limit");
		if (pt->v2pids && pt_key(pt, pt->dir[0], "pids.events", "max",
		    &v) == 0 && v > 0)
			return ("process-limit");
		return (NULL);
	}
	if (pt->dir[PT_MEM] != NULL) {
		if (pt_key(pt, pt->dir[PT_MEM], "memory.oom_control", "oom_kill",
		    &v) == 0) {
			if (v > 0)
				return ("memory-limit");
		} else if (pt_num(pt, pt->dir[PT_MEM], "memory.failcnt", &v) == 0 &&
		    v > 0)
			return ("memory-limit");
	}
	if (pt->dir[PT_PIDS] != NULL && pt_key(pt, pt->dir[PT_PIDS],
	    "pids.events", "max", &v) == 0 && v > 0)
		return ("process-limit");
	return (NULL);
}

/* Kills what is left of the tree, removes its cgroups and frees it. */
void
ptree_free(struct ptree *pt)
{
	size_t	 j;
	int	 i;

	if (pt == NULL)
		return;
	ptree_kill(pt);
	for (j = 0; j < pt->nopen; j++) {
		close(pt->open[j].fd);
		free(pt->open[j].path);
	}
	for (i = 0; i < PT_NCTL; i++)
		pt_rmdir(pt->dir[i]);
	free(pt->seen);
	free(pt);
}
