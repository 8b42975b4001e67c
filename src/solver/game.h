/*
 * game.h: the solver core's interface.  One ops table per game family, a
 * generic move and move-set representation, limits and errors.  The core does
 * no I/O and keeps no global state; every number is a GMP integer.
 */
#ifndef GAME_H
#define GAME_H

#include <stddef.h>
#include <stdint.h>
#include <gmp.h>

#include "lib/buf.h"

/* Most components a single move changes (Wythoff diagonal, staircase). */
#define GAME_MOVE_MAX	2

/* Error classes; the message in struct game_error says the specifics. */
enum game_err {
	GAME_OK = 0,
	GAME_ESYNTAX,		/* a token is malformed or unknown */
	GAME_ELIMIT,		/* a configured limit is exceeded */
	GAME_EILLEGAL,		/* a well-formed move that the rules forbid */
	GAME_ECYCLE,		/* a graph has a cycle */
	GAME_ENOGRUNDY,		/* the game has no Grundy value (partizan, misere) */
	GAME_EBOUND,		/* the answer needs a table beyond its bound */
};

/* An error: its class and one line saying which token failed and why. */
struct game_error {
	enum game_err	 code;
	char		 msg[320];
};

/*
 * An optional cache of precomputed tables, kept outside the core (grundyd
 * backs it with its SQLite store).  get appends the stored data of table
 * kind/key to data and returns 1, or returns 0 if there is none (or -1 on
 * error); put stores a table, or drops it.  Both may be called from any
 * thread.  The core checks whatever get returns and recomputes a table it
 * cannot trust (game-table.c).
 */
struct game_tables {
	void		*ctx;
	int		 (*get)(void *ctx, const char *kind, const char *key,
			    struct buf *data);
	void		 (*put)(void *ctx, const char *kind, const char *key,
			    const char *meta, const void *data, size_t len);
};

/* Hard input limits; every parser honours them. */
struct game_limits {
	size_t		 max_digits;	/* decimal digits of any number */
	size_t		 max_piles;	/* piles, steps or tokens per component */
	size_t		 max_components; /* components of a sum */
	size_t		 max_nodes;	/* distinct graph nodes */
	size_t		 max_edges;	/* graph edges */
	size_t		 max_set;	/* subtraction: elements of S */
	unsigned long	 max_set_value;	/* subtraction: largest element of S */
	size_t		 max_table;	/* subtraction: SG table entries (pre+period) */
	unsigned long	 max_wythoff;	/* Wythoff Grundy table: largest pile/K */
	size_t		 max_moves;	/* entries in one winning-move set */
	size_t		 max_reply;	/* bytes of a table reply (0: no cap) */
	const struct game_tables *tables; /* table cache, or NULL */
	/* Set by game_parse for the families it calls: the registry. */
	const struct game_family *const *families;
};

/* Outcome for the side to move. */
enum game_outcome {
	GAME_P = 0,		/* the player to move loses */
	GAME_N = 1,		/* the player to move wins */
};

/* One changed coordinate: component (0 outside a sum), 1-based index, value. */
struct game_change {
	size_t		 comp;
	size_t		 idx;
	mpz_t		 val;
};

/* A move: the coordinates it changes, in the order they are printed. */
struct game_move {
	size_t		 n;
	struct game_change ch[GAME_MOVE_MAX];
};

/*
 * A move set entry.  If ranged, the entry stands for every move obtained by
 * letting ch[0].val run over [ch[0].val, hi]; only single-change moves are
 * ranged (K-L-Nim's strong player can have astronomically many wins).
 */
struct game_moveset_ent {
	struct game_move mv;
	int		 ranged;
	mpz_t		 hi;
};

/* A growable list of move set entries. */
struct game_moveset {
	size_t		 n;
	size_t		 cap;
	struct game_moveset_ent *v;
};

/*
 * A game family.  Every callback receives the family's own state, which
 * parse allocates.  Callbacks that can fail return 0 on success or -1 with
 * err filled in.  The defaults of the members that may be NULL are
 * resolved by the entry points (game.c, game-hist.c), never by callers.
 */
/* What a family's positions cost and how its moves are written. */
#define GAME_F_HEAVY_PARSE 0x1	/* parsing may build tables */
#define GAME_F_HEAVY_PLAY  0x2	/* analysing a position may build tables */
#define GAME_F_COMPONENTS  0x4	/* moves are COMP.INDEX=VALUE (sums) */

struct game_layout;

struct game_family {
	const char	*name;		/* first token of the notation */
	unsigned int	 flags;		/* GAME_F_* */
	const char	*usage;		/* parameter and position syntax */
	const char	*summary;	/* one line for `games` */
	int		 (*parse)(void **stp, int argc, char **argv,
			    const struct game_limits *, struct game_error *);
	/* NULL: game_layout_clone and game_layout_free with layout. */
	void		*(*clone)(const void *st);
	void		 (*free)(void *st);
	const struct game_layout *layout;
	/*
	 * Appends the canonical text form (round-trips through parse).
	 * NULL: game_layout_print with layout.
	 */
	void		 (*print)(const void *st, struct buf *);
	/* Checks a move; comp fields are already stripped to 0. */
	int		 (*check)(const void *st, const struct game_move *,
			    struct game_error *);
	/* Applies a checked move. */
	void		 (*apply)(void *st, const struct game_move *);
	/* Returns 1 if the player to move has no legal move. */
	int		 (*terminal)(const void *st);
	/*
	 * Returns GAME_P or GAME_N, or -1 with err set.  NULL: from the
	 * Grundy value (P iff 0).
	 */
	int		 (*outcome)(const void *st, struct game_error *);
	/* Sets g to the Grundy value, or -1 (GAME_ENOGRUNDY, GAME_EBOUND). */
	int		 (*grundy)(const void *st, mpz_t g, struct game_error *);
	/*
	 * Appends every winning move (moves to a position lost for the
	 * mover).  NULL: to_grundy with target 0.
	 */
	int		 (*winning)(const void *st, struct game_moveset *,
			    struct game_error *);
	/*
	 * Appends every move to a position of Grundy value target.  NULL for
	 * families that cannot be sum components (partizan or misere).
	 */
	int		 (*to_grundy)(const void *st, const mpz_t target,
			    struct game_moveset *, struct game_error *);
	/*
	 * Appends the engine's equally preferred moves when it cannot win: the
	 * smallest removals, which keep the game long.  Empty iff terminal.
	 */
	void		 (*policy)(const void *st, struct game_moveset *);
	/* Returns the player to move (1 or 2) for partizan games; NULL: 0. */
	int		 (*mover)(const void *st);
	/*
	 * Optional: sets m (initialised) to one winning move of an N-position
	 * without listing the whole set, for families whose complete set can
	 * exceed max_moves.  NULL elsewhere.
	 */
	int		 (*one_winning)(const void *st, struct game_move *m,
			    struct game_error *);
	/*
	 * Optional: appends the first count entries of the family's
	 * precomputed table as text lines (the `table` command).  NULL for
	 * families without one.
	 */
	int		 (*table)(const void *st, unsigned long count,
			    struct buf *, struct game_error *);
	/*
	 * Optional: lets st, a component of the same sum as other (of the
	 * same family), use other's Grundy table when both games reduce to
	 * the same one, sized for both positions; returns 1 if st now
	 * shares other's table, 0 if they reduce to different tables.  NULL
	 * for families without tables.
	 */
	int		 (*share)(void *st, void *other);
	/*
	 * Optional: sets back (initialised) to the move that undoes m, a
	 * checked move not yet applied: m's changes (comp and idx copied)
	 * with the values they hold now, so that apply(back) after apply(m)
	 * restores the state exactly; returns 0, or -1 if it cannot: undo
	 * then keeps a copy (game-hist.c).  NULL: game_piles_inverse, for a
	 * state that begins with its piles.
	 */
	int		 (*inverse)(const void *st, const struct game_move *m,
			    struct game_move *back);
};

/* A game: its family and the family's state. */
struct game {
	const struct game_family *fam;
	void		*st;
};

/* game-registry.c: the families, and parsing by family name. */
extern const struct game_family *const game_families[];
const struct game_family *game_family_find(const char *);
int	 game_parse(struct game *, int, char **, const struct game_limits *,
	    struct game_error *);
int	 game_parse_line(struct game *, const char *,
	    const struct game_limits *, struct game_error *);

/* game.c: the generic entry points, dispatching to a game's family. */
void	 game_limits_default(struct game_limits *);
int	 game_parse_in(const struct game_family *const *, struct game *, int,
	    char **, const struct game_limits *, struct game_error *);
int	 game_clone(struct game *, const struct game *);
void	 game_free(struct game *);
void	 game_print(const struct game *, struct buf *);
int	 game_move_parse(const struct game *, struct game_move *, int, char **,
	    const struct game_limits *, struct game_error *);
int	 game_check(const struct game *, const struct game_move *,
	    struct game_error *);
int	 game_play(struct game *, const struct game_move *,
	    struct game_error *);
int	 game_play_print(struct game *, const struct game_move *,
	    struct buf *, struct buf *, struct game_error *);
int	 game_terminal(const struct game *);
int	 game_outcome(const struct game *, struct game_error *);
int	 game_grundy(const struct game *, mpz_t, struct game_error *);
int	 game_winning(const struct game *, struct game_moveset *,
	    struct game_error *);
int	 game_mover(const struct game *);

/*
 * game-hist.c: the positions before the last moves, for undo, oldest
 * first: each as the move back (family inverse) or, for a family without
 * one, a copy.  A ring, grown with use up to the cap, whose numbers are
 * kept between moves; tag is the caller's (the player to move).
 */
struct game_hist_ent {
	struct game	 copy;		/* the position, or fam NULL */
	struct game_move back;		/* else the move back to it */
	int		 tag;
};

struct game_hist {
	struct game_hist_ent *v;	/* slots entries, backs initialised */
	size_t		 slots;		/* grows with use up to the cap */
	size_t		 first;		/* the oldest entry */
	size_t		 n;		/* entries held */
};

int	 game_inverse(const struct game *, const struct game_move *,
	    struct game_move *);
int	 game_outcome_after(struct game *, const struct game_move *,
	    struct game_error *);
void	 game_hist_init(struct game_hist *);
void	 game_hist_free(struct game_hist *);
void	 game_hist_clear(struct game_hist *);
void	 game_hist_push(struct game_hist *, size_t, const struct game *,
	    const struct game_move *, int);
int	 game_hist_pop(struct game_hist *, struct game *, int *);

/* game-move.c */
void	 buf_mpz(struct buf *, const mpz_t);
void	 game_move_init(struct game_move *);
void	 game_move_clear(struct game_move *);
void	 game_move_copy(struct game_move *, const struct game_move *);
void	 game_move_take(struct game_move *, struct game_move *);
void	 game_move_add(struct game_move *, size_t, size_t, const mpz_t);
void	 game_move_add_ui(struct game_move *, size_t, size_t, unsigned long);
void	 game_move_print(const struct game_move *, struct buf *);
int	 game_move_cmp(const struct game_move *, const struct game_move *);
void	 game_moveset_init(struct game_moveset *);
void	 game_moveset_clear(struct game_moveset *);
void	 game_moveset_reset(struct game_moveset *);
struct game_move *game_moveset_add(struct game_moveset *);
void	 game_moveset_add1(struct game_moveset *, size_t, const mpz_t);
void	 game_moveset_add_range(struct game_moveset *, size_t, const mpz_t,
	    const mpz_t);
void	 game_moveset_count(const struct game_moveset *, mpz_t);
void	 game_moveset_sort(struct game_moveset *);
void	 game_moveset_ent_print(const struct game_moveset_ent *, struct buf *);
void	 game_moveset_set_comp(struct game_moveset *, size_t, size_t);

/* game-util.c: helpers shared by the families (a leaf of the core). */
int	 game_set_error(struct game_error *, enum game_err, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
struct game_key {
	const char	*name;		/* key as written, case-sensitive */
	const char	*val;		/* set by game_parse_keys, or NULL */
};
int	 game_parse_keys(const char *, int, char **, struct game_key *, size_t,
	    int *, struct game_error *);
int	 game_parse_word(mpz_t, const char *, const struct game_limits *);
int	 game_parse_num(mpz_t, const char *, const char *,
	    const struct game_limits *, struct game_error *);
int	 game_parse_pos(mpz_t, const char *, const char *, const char *,
	    const struct game_limits *, struct game_error *);
int	 game_parse_ulong(unsigned long *, const char *, const char *,
	    unsigned long, unsigned long, struct game_error *);
/*
 * A row of piles (or steps).  The families made of one keep it as the first
 * member of their state, so that game_piles_apply, game_piles_empty and
 * game_piles_policy can serve as their apply, terminal and policy, and
 * game_piles_inverse is their inverse (by default).
 */
struct game_piles {
	size_t		 n;
	mpz_t		*v;
};

int	 game_piles_parse(struct game_piles *, int, char **, const char *,
	    const struct game_limits *, struct game_error *);
void	 game_piles_clear(struct game_piles *);
void	 game_piles_copy(struct game_piles *, const struct game_piles *);
void	 game_piles_apply(void *, const struct game_move *);
int	 game_piles_empty(const void *);
void	 game_piles_policy(const void *, struct game_moveset *);
void	 game_piles_print(const mpz_t *, size_t, struct buf *);
int	 game_check_single(const struct game_move *, size_t, const mpz_t *,
	    const char *, struct game_error *);
int	 game_check_removal(const struct game_move *, size_t, const mpz_t *,
	    const char *, mpz_t, struct game_error *);
int	 game_check_removal_cmp(const struct game_move *, size_t,
	    const mpz_t *, const char *, const mpz_t, int *,
	    struct game_error *);
void	 game_piles_set(mpz_t *, const struct game_move *);
void	 game_piles_back(const mpz_t *, const struct game_move *,
	    struct game_move *);
int	 game_piles_inverse(const void *, const struct game_move *,
	    struct game_move *);
/*
 * The layout of a state that begins with its piles and otherwise holds only
 * plain values and the fields listed here: game_layout_clone and
 * game_layout_free then copy and free it (its mpz_t fields), and
 * game_layout_print writes it as FAMILY [KEY=VALUE ...] PILE..., the
 * fields with a key in their order (an int one unless it is 0).
 */
enum game_field_type {
	GAME_FIELD_MPZ,			/* an mpz_t */
	GAME_FIELD_INT,			/* an int */
};

struct game_field {
	const char	*key;		/* as written, or NULL: not printed */
	size_t		 off;		/* offset in the state */
	enum game_field_type type;
};

struct game_layout {
	size_t		 size;		/* sizeof the state */
	size_t		 n;		/* fields */
	struct game_field field[4];
};

void	*game_layout_clone(const struct game_layout *, const void *);
void	 game_layout_free(const struct game_layout *, void *);
void	 game_layout_print(const struct game_family *, const void *,
	    struct buf *);
int	 game_piles_finish(const struct game_layout *, void *, void **, int,
	    char **, const char *, const struct game_limits *,
	    struct game_error *);

/*
 * A sum of piles (Sprague-Grundy): pile_sg sets g to one pile's Grundy value
 * (NULL: the pile itself, as in Nim); pile_to appends the moves of pile idx
 * (from 1), holding a, to a pile of Grundy value t.
 */
typedef void	 game_pile_sg_fn(const void *, const mpz_t, mpz_t);
typedef void	 game_pile_to_fn(const void *, size_t, const mpz_t, const mpz_t,
		    struct game_moveset *);
int	 game_piles_xor_word(const struct game_piles *, uint64_t *);
void	 game_pilesum_xor(const void *, const struct game_piles *,
	    game_pile_sg_fn *, mpz_t);
void	 game_pilesum_to_grundy(const void *, const struct game_piles *,
	    game_pile_sg_fn *, game_pile_to_fn *, const mpz_t,
	    struct game_moveset *);

/*
 * A sum of parts whose Grundy values are small (from a table): part_sg
 * returns part i's value (from 0); part_to appends part i's moves to a part
 * of value want.  A target beyond unsigned long has no move.
 */
typedef unsigned long game_part_sg_fn(const void *, size_t);
typedef void	 game_part_to_fn(const void *, size_t, unsigned long,
		    struct game_moveset *);
unsigned long game_partsum_xor(const void *, size_t, game_part_sg_fn *);
void	 game_partsum_to_grundy(const void *, size_t, game_part_sg_fn *,
	    game_part_to_fn *, const mpz_t, struct game_moveset *);

int	 game_piles_below(const mpz_t *, size_t, unsigned long);
void	 game_policy_remove(const mpz_t *, size_t, unsigned long,
	    struct game_moveset *);
void	 game_policy_remove_z(const mpz_t *, size_t, const mpz_t,
	    struct game_moveset *);
int	 game_ulong_cmp(const void *, const void *);
void	 game_share_tables(struct game *, size_t);

/* game-table.c: the table cache's blob format, shared by the families. */
#define GAME_TABLE_VERSION	1
int	 game_tables_get(const struct game_tables *, const char *,
	    const char *, struct buf *);
void	 game_tables_put(const struct game_tables *, const char *,
	    const char *, const char *, const struct buf *);
void	 game_table_putv(struct buf *, uint64_t);
int	 game_table_getv(const unsigned char **, const unsigned char *,
	    uint64_t *);
void	 game_table_seal(struct buf *);
uint64_t game_table_fnv(const unsigned char *, size_t);

/*
 * A table that the cache may hold, as kind/key: key appends the key (the
 * parameters the table depends on), load checks a stored blob and takes it
 * (0), build computes the table afresh, and save writes its payload (after
 * the version; the seal follows) and the line's meta text.
 */
struct game_table_ops {
	const char	*kind;
	void		 (*key)(void *arg, struct buf *key);
	int		 (*load)(void *arg, const struct buf *blob);
	int		 (*build)(void *arg, struct game_error *);
	void		 (*save)(void *arg, struct buf *blob, struct buf *meta);
};
int	 game_table_cached(const struct game_tables *,
	    const struct game_table_ops *, void *, struct game_error *);
int	 game_table_open(const struct buf *, const unsigned char **,
	    const unsigned char **);
int	 game_table(const struct game *, unsigned long, struct buf *,
	    struct game_error *);

/* Families (one file each). */
extern const struct game_family game_nim;
extern const struct game_family game_bash;
extern const struct game_family game_wythoff;
extern const struct game_family game_staircase;
extern const struct game_family game_subtraction;
extern const struct game_family game_klnim;
extern const struct game_family game_graph;
extern const struct game_family game_sum;

#endif /* GAME_H */
