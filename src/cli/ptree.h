/*
 * ptree.h: one player program's process tree, held whole: its members
 * found, its CPU time and peak memory read, its memory and process count
 * limited, frozen and thawed, and killed to the last process, children
 * that changed their process group or session included.
 *
 * Where the machine offers writable cgroups the tree is a cgroup of its
 * own: under cgroup v1 one directory in each of the memory, pids, cpuacct
 * and freezer hierarchies that are mounted and writable; under cgroup v2
 * one directory, with the memory and pids controllers when the parent
 * delegates them.  Without a cgroup (or for what the cgroup lacks) the
 * tree is the program's process group, its descendants found by a walk of
 * /proc, and every process seen in it once; limits are then rlimits
 * (RLIMIT_AS for memory, RLIMIT_NPROC for processes, the latter counting
 * every process of the user).  ptree_mode tells which; the environment
 * variable GRUNDY_PTREE=process-group forces the fallback, and
 * GRUNDY_PTREE=cgroup-v2 cgroup v2 alone where v1 hierarchies exist too
 * (for tests).
 */
#ifndef PTREE_H
#define PTREE_H

#include <sys/types.h>

#include <stdint.h>

/* Limits of one tree; 0 is "no limit" (core dumps are always off). */
struct ptree_limits {
	uint64_t	 mem_bytes;	/* memory of the whole tree */
	unsigned	 procs;		/* processes and threads of the tree */
	unsigned	 files;		/* open files per process */
	uint64_t	 fsize_bytes;	/* largest file a process writes */
};

struct ptree;

struct ptree	*ptree_new(const char *, const struct ptree_limits *);
int		 ptree_enter(struct ptree *, pid_t);
int		 ptree_cpu_ns(struct ptree *, uint64_t *);
int		 ptree_peak_bytes(struct ptree *, uint64_t *);
int		 ptree_freeze(struct ptree *);
int		 ptree_thaw(struct ptree *);
int		 ptree_kill(struct ptree *);
const char	*ptree_violation(struct ptree *);
const char	*ptree_mode(const struct ptree *);
void		 ptree_free(struct ptree *);

#endif /* PTREE_H */
