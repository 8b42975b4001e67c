/*
 * sandbox.c: the sandbox of an untrusted player program (sandbox.h): its
 * limits as --sandbox-limits gives them, its seccomp filter (libseccomp,
 * exported as BPF for bwrap --seccomp), the bwrap command line that runs
 * it, and the reason a sandboxed program's exit status tells.
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sandbox.h"
#include "lib/buf.h"
#include "lib/util.h"

/*
 * The calls a game engine never needs, refused by killing the program
 * (SIGSYS: the referee's forbidden-syscall): debugging and reading other
 * processes, mounts and namespaces, keys, kernel modules and images,
 * BPF and perf, swap, reboot, clocks, raw I/O ports, handles.
 */
static const char *const sandbox_kill[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
	"pidfd_getfd", "mount", "umount", "umount2", "pivot_root", "chroot",
	"move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
	"mount_setattr", "unshare", "setns", "keyctl", "add_key",
	"request_key", "perf_event_open", "bpf", "userfaultfd", "kexec_load",
	"kexec_file_load", "init_module", "finit_module", "delete_module",
	"reboot", "swapon", "swapoff", "acct", "settimeofday",
	"clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm",
	"open_by_handle_at", "name_to_handle_at", "quotactl", "syslog",
	"lookup_dcookie", "vhangup", "fanotify_init",
};

/* The namespace flags of clone(2), refused too. */
static const unsigned long sandbox_clone_ns[] = {
	CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC,
	CLONE_NEWUTS, CLONE_NEWCGROUP,
};

/* Sets the default limits. */
void
sandbox_defaults(struct sandbox_opts *o)
{
	memset(o, 0, sizeof *o);
	o->lim.mem_bytes = SANDBOX_DEF_MEM;
	o->lim.procs = SANDBOX_DEF_PROCS;
	o->lim.files = SANDBOX_DEF_FILES;
	o->lim.fsize_bytes = SANDBOX_DEF_FSIZE;
	o->scratch_bytes = SANDBOX_DEF_SCRATCH;
	o->stderr_bytes = SANDBOX_DEF_STDERR;
}

/* Parses a size: digits with an optional K, M or G.  Returns 0 or -1. */
static int
sandbox_size(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char			*end;
	unsigned long long	 n;
	unsigned		 shift = 0;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0)
		return (-1);
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift != 0)
		end++;
	if (*end != '\0' || n > (hi >> shift) || (n << shift) < lo)
		return (-1);
	*v = n << shift;
	return (0);
}

/*
 * Parses --sandbox-limits KEY=VALUE,...: mem=, scratch=, fsize=, stderr=
 * (bytes, with K, M or G), procs=, files= (counts), over o's values.
 * Returns 0, or -1 with why set.
 */
int
sandbox_parse(const char *spec, struct sandbox_opts *o, char *why,
    size_t len)
{
	char		*copy = xstrdup(spec), *tok, *save, *eq;
	uint64_t	 v;
	int		 rv = 0;

	for (tok = strtok_r(copy, ",", &save); tok != NULL && rv == 0;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL) {
			snprintf(why, len, "'%s': not KEY=VALUE", tok);
			rv = -1;
			break;
		}
		*eq++ = '\0';
		if (strcmp(tok, "procs") == 0 || strcmp(tok, "files") == 0) {
			if (sandbox_size(eq, 1, 65536, &v) != 0 ||
			    strpbrk(eq, "KkMmGg") != NULL) {
				snprintf(why, len, "%s=%s: not a count from 1 "
				    "to 65536", tok, eq);
				rv = -1;
			} else if (tok[0] == 'p')
				o->lim.procs = (unsigned)v;
			else
				o->lim.files = (unsigned)v;
			continue;
		}
		if (strcmp(tok, "mem") != 0 && strcmp(tok, "scratch") != 0 &&
		    strcmp(tok, "fsize") != 0 && strcmp(tok, "stderr") != 0) {
			snprintf(why, len, "'%s': not mem=, procs=, files=, "
			    "fsize=, scratch= or stderr=", tok);
			rv = -1;
		} else if (sandbox_size(eq, 4096, 1ULL << 40, &v) != 0) {
			snprintf(why, len, "%s=%s: not a size from 4K to "
			    "1024G (a number with K, M or G)", tok, eq);
			rv = -1;
		} else if (tok[0] == 'm')
			o->lim.mem_bytes = v;
		else if (tok[0] == 's' && tok[1] == 'c')
			o->scratch_bytes = v;
		else if (tok[0] == 'f')
			o->lim.fsize_bytes = v;
		else
			o->stderr_bytes = v;
	}
	free(copy);
	return (rv);
}

/*
 * Builds the seccomp filter and returns a descriptor (a memfd, at offset
 * 0, close-on-exec) holding it as BPF for bwrap --seccomp, or -1.
 */
int
sandbox_filter(void)
{
	scmp_filter_ctx	 ctx;
	size_t		 i;
	int		 nr, fd = -1, ok = 1;

	if ((ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL)
		return (-1);
	for (i = 0; i < nitems(sandbox_kill) && ok; i++) {
		nr = seccomp_syscall_resolve_name(sandbox_kill[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;	/* not on this architecture */
		ok = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, nr, 0) == 0;
	}
	/* Sockets: AF_UNIX only (the network namespace has none anyway). */
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS,
	    SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX)) == 0;
	ok = ok && seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS,
	    SCMP_SYS(socketpair), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX)) == 0;
	/* New namespaces by clone; clone3's flags cannot be seen: ENOSYS,
	 * and the C library falls back on clone. */
	for (i = 0; i < nitems(sandbox_clone_ns) && ok; i++)
		ok = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS,
		    SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ,
		    sandbox_clone_ns[i], sandbox_clone_ns[i])) == 0;
	nr = seccomp_syscall_resolve_name("clone3");
	if (ok && nr != __NR_SCMP_ERROR)
		ok = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) == 0;
	if (ok && (fd = memfd_create("grundy-seccomp", MFD_CLOEXEC)) != -1 &&
	    (seccomp_export_bpf(ctx, fd) != 0 ||
	    lseek(fd, 0, SEEK_SET) != 0)) {
		close(fd);
		fd = -1;
	}
	seccomp_release(ctx);
	return (fd);
}

/* Appends words to a NULL-ended vector of n. */
static void
sandbox_add(char ***v, size_t *n, const char *a, const char *b,
    const char *c)
{
	const char	*w[3] = { a, b, c };
	size_t		 i;

	for (i = 0; i < 3; i++)
		if (w[i] != NULL) {
			*v = xreallocarray(*v, *n + 2, sizeof **v);
			(*v)[(*n)++] = xstrdup(w[i]);
			(*v)[*n] = NULL;
		}
}

/* Binds a directory of the system read-only, or remakes its symlink. */
static void
sandbox_system(char ***v, size_t *n, const char *path)
{
	struct stat	 st;
	char		 to[PATH_MAX];
	ssize_t		 k;

	if (lstat(path, &st) != 0)
		return;
	if (S_ISLNK(st.st_mode)) {
		if ((k = readlink(path, to, sizeof to - 1)) <= 0)
			return;
		to[k] = '\0';
		sandbox_add(v, n, "--symlink", to, path);
	} else if (S_ISDIR(st.st_mode))
		sandbox_add(v, n, "--ro-bind", path, path);
}

/*
 * The bwrap command line that runs argv (in dir, with the "NAME=VALUE"
 * options env added to a clean environment) sandboxed as o says, the
 * seccomp filter read from descriptor fd.  Visible: /usr and the /bin,
 * /sbin and /lib* links or directories, the few /etc files a dynamic
 * program or interpreter reads, a private /proc and minimal /dev, a tmpfs
 * /tmp of o->scratch_bytes, and read-only the program's directory (dir,
 * and the directory of argv[0] when it is a path).  Free it with
 * sandbox_argv_free.
 */
char **
sandbox_argv(const struct sandbox_opts *o, char *const *argv,
    const char *dir, char *const *env, int fd)
{
	static const char *const sys[] = { "/bin", "/sbin", "/lib", "/lib32",
	    "/lib64", "/libx32" };
	static const char *const etc[] = { "/etc/ld.so.cache",
	    "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
	    "/etc/localtime" };
	char		**v = NULL, num[32], real[PATH_MAX], prog[PATH_MAX];
	char		 cwd[PATH_MAX];
	size_t		 n = 0, i;
	const char	*eq;

	sandbox_add(&v, &n, "bwrap", "--unshare-all", "--die-with-parent");
	sandbox_add(&v, &n, "--new-session", "--cap-drop", "ALL");
	sandbox_add(&v, &n, "--clearenv", "--hostname", "sandbox");
	sandbox_add(&v, &n, "--ro-bind", "/usr", "/usr");
	for (i = 0; i < nitems(sys); i++)
		sandbox_system(&v, &n, sys[i]);
	for (i = 0; i < nitems(etc); i++)
		sandbox_add(&v, &n, "--ro-bind-try", etc[i], etc[i]);
	sandbox_add(&v, &n, "--proc", "/proc", NULL);
	sandbox_add(&v, &n, "--dev", "/dev", NULL);
	snprintf(num, sizeof num, "%llu",
	    (unsigned long long)o->scratch_bytes);
	sandbox_add(&v, &n, "--size", num, NULL);
	sandbox_add(&v, &n, "--tmpfs", "/tmp", NULL);
	snprintf(cwd, sizeof cwd, "/tmp");
	if (dir != NULL && realpath(dir, real) != NULL) {
		sandbox_add(&v, &n, "--ro-bind", real, real);
		snprintf(cwd, sizeof cwd, "%s", real);
	}
	if (strchr(argv[0], '/') != NULL) {
		snprintf(prog, sizeof prog, "%s%s%s", argv[0][0] != '/' &&
		    dir != NULL ? dir : "", argv[0][0] != '/' && dir != NULL ?
		    "/" : "", argv[0]);
		if (realpath(prog, real) != NULL) {
			*strrchr(real, '/') = '\0';
			if (real[0] != '\0' && strcmp(real, cwd) != 0)
				sandbox_add(&v, &n, "--ro-bind", real, real);
		}
	}
	sandbox_add(&v, &n, "--chdir", cwd, NULL);
	sandbox_add(&v, &n, "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin");
	sandbox_add(&v, &n, "--setenv", "HOME", "/tmp");
	sandbox_add(&v, &n, "--setenv", "TMPDIR", "/tmp");
	sandbox_add(&v, &n, "--setenv", "LANG", "C.UTF-8");
	for (i = 0; env != NULL && env[i] != NULL; i++) {
		if ((eq = strchr(env[i], '=')) == NULL)
			continue;
		snprintf(prog, sizeof prog, "%.*s", (int)(eq - env[i]), env[i]);
		sandbox_add(&v, &n, "--setenv", prog, eq + 1);
	}
	snprintf(num, sizeof num, "%d", fd);
	sandbox_add(&v, &n, "--seccomp", num, "--");
	for (i = 0; argv[i] != NULL; i++)
		sandbox_add(&v, &n, argv[i], NULL, NULL);
	return (v);
}

/* Frees a command line of sandbox_argv. */
void
sandbox_argv_free(char **v)
{
	size_t	 n;

	for (n = 0; v != NULL && v[n] != NULL; n++)
		;
	strv_free(v, n);
}

/*
 * A user of its own for the next sandbox (grundy running as root): from
 * SANDBOX_UID_BASE, told apart by this process's id and a count, so that
 * sandboxes of one run, and of runs at once, do not share one.
 */
uid_t
sandbox_uid(void)
{
	static unsigned	 seq;

	return ((uid_t)(SANDBOX_UID_BASE + ((unsigned)getpid() * 256U +
	    seq++) % SANDBOX_UIDS));
}

/*
 * The reason a sandboxed program's wait status tells (bwrap exits 128+N
 * when its program was killed by signal N): "forbidden-syscall" (SIGSYS,
 * the seccomp filter), "output-limit" (SIGXFSZ, a file over its size
 * limit), or NULL.
 */
const char *
sandbox_exit_reason(int status)
{
	int	 sig = 0;

	if (WIFSIGNALED(status))
		sig = WTERMSIG(status);
	else if (WIFEXITED(status) && WEXITSTATUS(status) > 128)
		sig = WEXITSTATUS(status) - 128;
	if (sig == SIGSYS)
		return ("forbidden-syscall");
	if (sig == SIGXFSZ)
		return ("output-limit");
	return (NULL);
}
