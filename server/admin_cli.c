/*
 * admin_cli — the `teahouse admin` subcommands (see admin_cli.h). Each one opens the database
 * itself through store.h, so it works whether or not a server has the database open (WAL), and
 * the server sees a new admin flag at that player's next session lookup.
 */
#include <stdio.h>
#include <string.h>

#include "admin_cli.h"
#include "config.h"
#include "store.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: teahouse admin grant NAME [--db FILE]\n"
                 "       teahouse admin revoke NAME [--db FILE]\n"
                 "       teahouse admin verify [--db FILE]\n");
}

/* Takes "--db FILE" or "--db=FILE" out of the arguments; false on a stray argument. */
static bool parse_args(int argc, char **argv, const char **name, const char **db_path)
{
    config defaults;
    config_set_defaults(&defaults);
    *db_path = defaults.db_path;
    *name = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            *db_path = argv[++i];
        else if (strncmp(argv[i], "--db=", 5) == 0)
            *db_path = argv[i] + 5;
        else if (*name == NULL && argv[i][0] != '-')
            *name = argv[i];
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

static int verify(const char *db_path)
{
    store_error error;
    store_ledger_check check;
    if (!store_ledger_verify_path(db_path, &check, &error)) {
        fprintf(stderr, "teahouse admin: %s\n", error.message);
        return 1;
    }
    if (!check.ok) {
        printf("The ledger of %s does NOT verify: row %lld: %s (%lld rows read).\n", db_path,
               (long long)check.first_bad_row, check.why, (long long)check.rows_checked);
        return 1;
    }
    printf("The ledger of %s verifies: %lld rows, every hand sums to zero, the hash chain is whole.\n", db_path,
           (long long)check.rows_checked);
    return 0;
}

int admin_command(int argc, char **argv)
{
    const char *name, *db_path;
    if (argc < 2 || !parse_args(argc, argv, &name, &db_path)) {
        usage(stderr);
        return 2;
    }
    const char *what = argv[1];
    if ((strcmp(what, "grant") == 0 || strcmp(what, "revoke") == 0) && name != NULL)
        return set_admin(db_path, name, strcmp(what, "grant") == 0);
    if (strcmp(what, "verify") == 0 && name == NULL)
        return verify(db_path);
    usage(stderr);
    return 2;
}
