/*
 * sandbox.h: the sandbox of an untrusted player program (grundy match
 * --sandbox, grundy bot --sandbox; issue 27 §1): bubblewrap (bwrap) with
 * new user, PID, IPC, UTS, network and cgroup namespaces, only the
 * system's library and interpreter directories, the program's own
 * directory (read-only) and a private size-limited tmpfs as /tmp; a
 * seccomp filter built with libseccomp (a refused call kills the program
 * with SIGSYS); its process tree's limits (ptree.h); its stderr captured
 * and capped.  chan_spawn (chan.c) starts a program under it when its
 * struct chan_prog asks.
 */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "cli/ptree.h"

/* The defaults of --sandbox-limits. */
#define SANDBOX_DEF_MEM		(512ULL << 20)
#define SANDBOX_DEF_PROCS	64
#define SANDBOX_DEF_FILES	64
#define SANDBOX_DEF_FSIZE	(16ULL << 20)
#define SANDBOX_DEF_SCRATCH	(16ULL << 20)
#define SANDBOX_DEF_STDERR	(1ULL << 20)

/*
 * The users sandboxes run as when grundy runs as root: one of its own
 * each, from a range above the ones systemd and containers hand out, so
 * that RLIMIT_NPROC counts one sandbox's processes and nothing else.
 */
#define SANDBOX_UID_BASE	0x70000000U
#define SANDBOX_UIDS		(1U << 20)

/* How a program is sandboxed. */
struct sandbox_opts {
	struct ptree_limits lim;	/* memory, processes, files, file size */
	uint64_t	 scratch_bytes;	/* the tmpfs at /tmp */
	uint64_t	 stderr_bytes;	/* stderr kept; more is output-limit */
};

void		 sandbox_defaults(struct sandbox_opts *);
int		 sandbox_parse(const char *, struct sandbox_opts *, char *,
		    size_t);
int		 sandbox_filter(void);
char		**sandbox_argv(const struct sandbox_opts *, char *const *,
		    const char *, char *const *, int);
void		 sandbox_argv_free(char **);
uid_t		 sandbox_uid(void);
const char	*sandbox_exit_reason(int);

#endif /* SANDBOX_H */
