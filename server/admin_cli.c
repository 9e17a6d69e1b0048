/*
 * admin_cli — the `teahouse admin` subcommands (see admin_cli.h). Each one opens the database
 * itself through store.h, so it works whether or not a server has the database open (WAL), and
 * the server sees a new admin flag at that player's next session lookup.
 */
#include <stdio.h>
#include <string.h>

#include "admin_cli.h"
#include "admin_integrity.h"
#include "config.h"
#include "store.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: teahouse admin grant NAME [--db FILE]\n"
                 "       teahouse admin revoke NAME [--db FILE]\n"
                 "       teahouse admin verify [--db FILE] [--ledger-key FILE]\n");
}

typedef struct admin_args {
    const char *name;
    const char *db_path;
    const char *key_path; /* NULL: the database's path + ".key" */
} admin_args;

/* Takes "--flag VALUE" or "--flag=VALUE" at argv[*i]; true when it was that flag. */
static bool take_flag(int argc, char **argv, int *i, const char *flag, const char **value)
{
    size_t len = strlen(flag);
    if (strcmp(argv[*i], flag) == 0 && *i + 1 < argc) {
        *value = argv[++*i];
        return true;
    }
    if (strncmp(argv[*i], flag, len) == 0 && argv[*i][len] == '=') {
        *value = argv[*i] + len + 1;
        return true;
    }
    return false;
}

/* Takes --db and --ledger-key out of the arguments; false on a stray argument. */
static bool parse_args(int argc, char **argv, admin_args *a)
{
    config defaults;
    config_set_defaults(&defaults);
    *a = (admin_args){.db_path = defaults.db_path, .key_path = defaults.ledger_key_path};
    for (int i = 2; i < argc; i++) {
        if (take_flag(argc, argv, &i, "--db", &a->db_path) || take_flag(argc, argv, &i, "--ledger-key", &a->key_path))
            continue;
        if (a->name == NULL && argv[i][0] != '-')
            a->name = argv[i];
        else
            return false;
    }
    return true;
}

static int set_admin(const char *db_path, const char *name, bool is_admin)
{
    store_error error;
    if (!store_admin_set(db_path, name, is_admin, &error)) {
        fprintf(stderr, "teahouse admin: %s\n", error.message);
        return 1;
    }
    printf("%s is %s an admin (%s).\n", name, is_admin ? "now" : "no longer", db_path);
    return 0;
}

static int verify_chain(const char *db_path, const char *key_path);

/* Every finished hand's sum and replay (admin_integrity.h); the number of problems, or -1 (said)
 * when the check could not run. */
static int64_t replay_hands(const char *db_path, const char *key_path)
{
    integrity_progress p;
    if (!integrity_progress_init(&p)) {
        fprintf(stderr, "teahouse admin: out of memory\n");
        return -1;
    }
    store_error error = {.status = STORE_OK};
    int64_t problems = -1;
    if (!integrity_check(db_path, key_path, false, &p, &error)) {
        fprintf(stderr, "teahouse admin: %s\n", error.message);
    } else {
        problems = p.problems_total;
        for (int i = 0; i < p.n_problems; i++)
            printf("Hand %lld (%s%s%lld): %s.\n", (long long)p.problems[i].hand, p.problems[i].check,
                   p.problems[i].row ? ", row " : "", (long long)p.problems[i].row, p.problems[i].message);
        if (problems > p.n_problems)
            printf("… and %lld more.\n", (long long)(problems - p.n_problems));
        if (problems == 0)
            printf("Every one of its %lld finished hands sums to zero and replays to its stored result and rows.\n",
                   (long long)p.hands_checked);
    }
    integrity_progress_destroy(&p);
    return problems;
}

static int verify(const char *db_path, const char *key_path)
{
    const int chain = verify_chain(db_path, key_path);
    if (chain == 2)
        return 1;
    const int64_t problems = replay_hands(db_path, key_path);
    return chain == 0 && problems == 0 ? 0 : 1;
}

/* The hash chain (store_ledger_verify_path): 0 whole, 1 broken, 2 not checked (said). */
static int verify_chain(const char *db_path, const char *key_path)
{
    store_error error;
    store_ledger_check check;
    if (!store_ledger_verify_path(db_path, key_path, &check, &error)) {
        fprintf(stderr, "teahouse admin: %s\n", error.message);
        return 2;
    }
    if (!check.ok) {
        printf("The ledger of %s does NOT verify: row %lld: %s (%lld rows read).\n", db_path,
               (long long)check.first_bad_row, check.why, (long long)check.rows_checked);
        return 1;
    }
    printf("The ledger of %s verifies: %lld rows, every hand sums to zero, the hash chain is whole.\n", db_path,
           (long long)check.rows_checked);
    if (!check.keyed)
        printf("It has no key yet: a server has not opened it since it was upgraded, so a forger who can write"
               " the database could have rewritten it.\n");
    else if (check.v1_rows > 0)
        printf("Rows 1 to %lld are from before the ledger had its key; the key record vouches for them.\n",
               (long long)check.v1_rows);
    return 0;
}

int admin_command(int argc, char **argv)
{
    admin_args a;
    if (argc < 2 || !parse_args(argc, argv, &a)) {
        usage(stderr);
        return 2;
    }
    const char *what = argv[1];
    if ((strcmp(what, "grant") == 0 || strcmp(what, "revoke") == 0) && a.name != NULL)
        return set_admin(a.db_path, a.name, strcmp(what, "grant") == 0);
    if (strcmp(what, "verify") == 0 && a.name == NULL)
        return verify(a.db_path, a.key_path);
    usage(stderr);
    return 2;
}
