/*
 * admin_cli — `teahouse admin …`: administration from the command line of the machine that holds
 * the database, never from the network. Admin rights are granted here and only here.
 *
 *   teahouse admin grant NAME [--db FILE]    make the account NAME an admin
 *   teahouse admin revoke NAME [--db FILE]   take the admin flag away
 *   teahouse admin verify [--db FILE] [--ledger-key FILE]
 *                                            check the ledger's sums and keyed hash chain, with
 *                                            the key file (default: the database's path + ".key"),
 *                                            then replay every finished hand through its engine:
 *                                            its stored result and ledger rows must be the replay's
 *
 * grant and revoke write a "grant" or "revoke" entry in the admin audit log with the change.
 */
#ifndef ADMIN_CLI_H
#define ADMIN_CLI_H

/* argv[0] is "admin". Prints what it did (stdout) or why not (stderr); returns the exit status:
 * 0 done, 1 refused or failed (including a ledger that does not verify), 2 bad usage. */
int admin_command(int argc, char **argv);

#endif
