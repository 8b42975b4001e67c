/*
 * league-role.c: roles are granted, never claimed (league.h; PROTOCOL.md
 * §13.1, issue 25 §5).  Each account has a stored role, player or admin
 * (accounts.role, db/014-roles.sql).  Only the operator makes an admin
 * (grundyd --add-admin: league_grant), never a client by the name it
 * registers; a login reads the role from the database (league_role), so
 * on nodes every node sees a role as soon as it is granted.
 */
#include <stdio.h>
#include <string.h>

#include "league/league-int.h"
#include "lib/log.h"

/*
 * Returns 1 if the account name has the admin role, 0 if not (or there is
 * no such account), -1 on a database error (logged).
 */
int
league_role(struct league *lg, const char *name)
{
	struct sqldb_stmt *s = NULL;
	int		 rc, admin = 0;

	if (!league_name_ok(name))
		return (0);
	pthread_mutex_lock(&lg->mtx);
	if ((rc = sqldb_prepare(lg->db, "SELECT role FROM accounts"
	    " WHERE name = ?", 0, &s)) == 0 &&
	    (rc = sqldb_bind_text(s, 1, name)) == 0)
		rc = sqldb_step(s);
	if (rc == SQLDB_ROW)
		admin = strcmp(league_col(s, 0), "admin") == 0;
	else if (rc != SQLDB_DONE)
		admin = league_dbfail(lg, "read the account's role");
	sqldb_finalize(s);
	pthread_mutex_unlock(&lg->mtx);
	return (admin);
}

/*
 * The operator's step: makes name an admin with password pass (admin 1),
 * or a player again (admin 0, pass NULL: the password is kept).  A new
 * name is registered; an existing account gets the password and the role
 * and is enabled again, so that whoever registered the name before the
 * operator can no longer log in to it.  Returns 1 if the account was
 * created, 0 if it existed, -1 with err filled in.
 */
int
league_grant(struct league *lg, const char *name, const char *pass,
    int admin, char *err, size_t errlen)
{
	int	 found;

	if (!league_name_ok(name)) {
		snprintf(err, errlen, "bad account name %s: 1..%d characters "
		    "of A-Z a-z 0-9 _ - ., not engine", name, LEAGUE_NAME_MAX);
		return (-1);
	}
	if ((found = league_exists(lg, name)) == -1) {
		snprintf(err, errlen, "cannot look up the account %s", name);
		return (-1);
	}
	if (!admin && found == 0) {
		snprintf(err, errlen, "no account %s", name);
		return (-1);
	}
	if (admin && found == 0 &&
	    league_register(lg, name, pass, err, errlen) != 0)
		return (-1);
	if (admin && found == 1 &&
	    league_reset(lg, name, pass, err, errlen) != 0)
		return (-1);
	if (league_acct_update(lg, admin ? "UPDATE accounts SET role = ?1,"
	    " disabled = NULL WHERE name = ?2" : "UPDATE accounts SET"
	    " role = ?1 WHERE name = ?2", admin ? "admin" : "player", name,
	    "store the role", err, errlen) != 0)
		return (-1);
	log_info("league=%s event=role name=%s role=%s account=%s", lg->path,
	    name, admin ? "admin" : "player", found ? "existing" : "new");
	return (found ? 0 : 1);
}
