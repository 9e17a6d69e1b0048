/*
 * config — command-line parsing for the teahouse server. The flags are one table (name, kind,
 * range, help) so --help, the defaults and the validation cannot drift apart.
 */
#include "config.h"

#include "house_limits.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef TEAHOUSE_VERSION
#define TEAHOUSE_VERSION "unknown"
#endif

typedef enum flag_kind {
    FLAG_INT,
    FLAG_STRING,
    FLAG_LOG_LEVEL,
    FLAG_DURABILITY,
    FLAG_ADDRESS_LIST, /* repeatable; IP addresses */
    FLAG_ORIGIN_LIST,  /* repeatable; web origins */
    FLAG_HELP,
    FLAG_VERSION,
} flag_kind;

typedef struct flag_spec {
    const char *name;    /* without the leading "--" */
    char short_name;     /* 0 when there is none */
    flag_kind kind;
    size_t offset;       /* where the value lives in struct config */
    long min, max;       /* for FLAG_INT */
    const char *value;   /* placeholder shown by --help */
    const char *help;
} flag_spec;

static const flag_spec flags[] = {
    {"port", 0, FLAG_INT, offsetof(config, port), 0, 65535, "N",
     "TCP port for the web client, WebSocket play and /healthz (0 picks a free one)"},
    {"bind", 0, FLAG_STRING, offsetof(config, bind_address), 0, 0, "ADDR",
     "address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 (every IPv4 interface) or "
     ":: (IPv6 too) lets other machines in"},
    {"web-root", 0, FLAG_STRING, offsetof(config, web_root), 0, 0, "DIR",
     "directory of the static web client"},
    {"db", 0, FLAG_STRING, offsetof(config, db_path), 0, 0, "FILE|URI",
     "SQLite database file (created if missing), or a PostgreSQL database: postgresql://user@host/db or"
     " postgresql:///db?host=/socket/dir (needs --ledger-key)"},
    {"db-max-pages", 0, FLAG_INT, offsetof(config, db_max_pages), 0, 2000000000, "N",
     "the database may not grow beyond N pages of 4 KiB (0 = no limit); when full, tables pause"},
    {"ledger-key", 0, FLAG_STRING, offsetof(config, ledger_key_path), 0, 0, "FILE",
     "the ledger's key, made (mode 0600) at the first start; keep it apart from the database's backups"
     " (default: the --db file's path + .key)"},
    {"guest-days", 0, FLAG_INT, offsetof(config, guest_days), 0, 36500, "N",
     "a guest unseen for N days who never played a hand is deleted, sessions and all (0 = never)"},
    {"new-guests-per-minute", 0, FLAG_INT, offsetof(config, new_guests_per_minute), 0, 1000000, "N",
     "new guests one client address may start per minute, N at once at most (0 = no limit)"},
    {"durability", 0, FLAG_DURABILITY, offsetof(config, durability_full), 0, 0, "MODE",
     "normal: a commit survives the process dying; full: also a power cut (slower)"},
    {"log-level", 0, FLAG_LOG_LEVEL, offsetof(config, log_level), 0, 0, "LEVEL",
     "error, warn, info or debug"},
    {"turn-seconds", 0, FLAG_INT, offsetof(config, turn_seconds), LIMIT_TURN_SECONDS_MIN, LIMIT_TURN_SECONDS_MAX, "N",
     "seconds a seat has to act before a bot plays for it"},
    {"reconnect-seconds", 0, FLAG_INT, offsetof(config, reconnect_seconds), 0, 86400, "N",
     "seconds a disconnected player's seat is held"},
    {"bot-delay-ms", 0, FLAG_INT, offsetof(config, bot_delay_ms), 0, 60000, "MS",
     "pause before a bot acts, so people can follow the play"},
    {"deal-seed", 0, FLAG_INT, offsetof(config, deal_seed), 0, 2147483647, "N",
     "for tests only; never on a public server: every new table deals from seed N (0 = random)"},
    {"next-hand-seconds", 0, FLAG_INT, offsetof(config, next_hand_seconds), 0, 600, "N",
     "pause between hands unless every seated player is ready"},
    {"empty-table-seconds", 0, FLAG_INT, offsetof(config, empty_table_seconds), 1, 86400, "N",
     "a table with nobody connected closes after N s"},
    {"max-tables", 0, FLAG_INT, offsetof(config, max_tables), 1, 1000000, "N",
     "open tables at most"},
    {"ping-seconds", 0, FLAG_INT, offsetof(config, ping_seconds), 1, 3600, "N",
     "idle WebSocket is pinged after N s and dropped after ~2N s of silence"},
    {"hello-seconds", 0, FLAG_INT, offsetof(config, hello_seconds), 1, 3600, "N",
     "a WebSocket that has not said hello within N s is closed"},
    {"max-connections-per-address", 0, FLAG_INT, offsetof(config, max_per_address), 0, 1000000,
     "N", "connections one client address (an IPv6 /64) may hold at once (0 = no cap)"},
    {"trusted-proxy", 0, FLAG_ADDRESS_LIST, offsetof(config, trusted_proxies), 0, 0, "ADDR",
     "a reverse proxy whose X-Forwarded-For / X-Real-IP name the client (repeatable, or a "
     "comma list)"},
    {"allow-origin", 0, FLAG_ORIGIN_LIST, offsetof(config, allowed_origins), 0, 0, "ORIGIN",
     "a web origin besides the page's own whose pages may open WebSockets, like "
     "https://teahouse.example (repeatable)"},
    {"metrics-bind", 0, FLAG_STRING, offsetof(config, metrics_bind), 0, 0, "ADDR",
     "address of the operator's listener (/metrics and /healthz)"},
    {"metrics-port", 0, FLAG_INT, offsetof(config, metrics_port), 0, 65535, "N",
     "port of the operator's listener (0 = none)"},
    {"node-id", 0, FLAG_STRING, offsetof(config, node_id), 0, 0, "NAME",
     "this node's name when several serve one PostgreSQL database (letters, digits, '-', 32 at most);"
     " empty: a server alone"},
    {"node-url", 0, FLAG_STRING, offsetof(config, node_url), 0, 0, "PATH",
     "the WebSocket path clients reach this node at through the proxy (default /n/NAME/ws)"},
    {"lease-seconds", 0, FLAG_INT, offsetof(config, lease_seconds), 3, 3600, "N",
     "a node's tables are taken over by another node N s after its last heartbeat"},
    {"help", 'h', FLAG_HELP, 0, 0, 0, NULL, "show this help and exit"},
    {"version", 'V', FLAG_VERSION, 0, 0, 0, NULL, "show the version and exit"},
};

enum { FLAG_COUNT = sizeof flags / sizeof flags[0] };

void config_set_defaults(config *cfg)
{
    cfg->port = 8080;
    cfg->bind_address = "127.0.0.1";
    cfg->web_root = "web-client";
    cfg->db_path = "teahouse.db";
    cfg->durability_full = false;
    cfg->db_max_pages = 0;
    cfg->ledger_key_path = "";
    cfg->guest_days = 30;
    cfg->new_guests_per_minute = 30;
    cfg->log_level = LOG_LEVEL_INFO;
    cfg->turn_seconds = 30;
    cfg->reconnect_seconds = 120;
    cfg->ping_seconds = 30;
    cfg->bot_delay_ms = 700;
    cfg->deal_seed = 0;
    cfg->next_hand_seconds = 10;
    cfg->empty_table_seconds = 60;
    cfg->max_tables = 10000;
    cfg->hello_seconds = 10;
    cfg->max_per_address = 64;
    cfg->trusted_proxies.count = 0;
    cfg->allowed_origins.count = 0;
    cfg->metrics_bind = "127.0.0.1";
    cfg->metrics_port = 9090;
    cfg->node_id = "";
    cfg->node_url = "";
    cfg->lease_seconds = 10;
}

bool config_node_id_valid(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > CONFIG_NODE_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        const char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    }
    return true;
}

/* The node flags make sense together and only on PostgreSQL (SQLite is one server's file). */
static bool check_node(const config *cfg, char *error, size_t error_cap)
{
    if (cfg->node_id[0] == '\0') {
        if (cfg->node_url[0] != '\0') {
            snprintf(error, error_cap, "--node-url needs --node-id");
            return false;
        }
        return true;
    }
    if (!config_node_id_valid(cfg->node_id)) {
        snprintf(error, error_cap, "--node-id wants letters, digits and '-', %d at most", CONFIG_NODE_ID_MAX);
        return false;
    }
    if (strncmp(cfg->db_path, "postgresql://", 13) && strncmp(cfg->db_path, "postgres://", 11)) {
        snprintf(error, error_cap, "--node-id needs a PostgreSQL database (--db postgresql://...)");
        return false;
    }
    if (cfg->node_url[0] != '\0' && (cfg->node_url[0] != '/' || strpbrk(cfg->node_url, "\"\\ ") != NULL)) {
        snprintf(error, error_cap, "--node-url wants a path starting with '/'");
        return false;
    }
    return true;
}

const char *config_version(void)
{
    return "teahouse " TEAHOUSE_VERSION;
}

/* Finds the flag for "--name", "--name=value" or "-x"; *inline_value points after '='. */
static const flag_spec *find_flag(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    if (arg[0] == '-' && arg[1] != '-' && arg[1] != '\0' && arg[2] == '\0') {
        for (size_t i = 0; i < FLAG_COUNT; i++)
            if (flags[i].short_name == arg[1])
                return &flags[i];
        return NULL;
    }
    if (strncmp(arg, "--", 2) != 0)
        return NULL;
    const char *name = arg + 2;
    const char *equals = strchr(name, '=');
    size_t name_len = equals ? (size_t)(equals - name) : strlen(name);
    for (size_t i = 0; i < FLAG_COUNT; i++) {
        if (strlen(flags[i].name) == name_len && strncmp(flags[i].name, name, name_len) == 0) {
            *inline_value = equals ? equals + 1 : NULL;
            return &flags[i];
        }
    }
    return NULL;
}

static bool parse_int(const char *text, long min, long max, int *out)
{
    if (text[0] == '\0')
        return false;
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < min || value > max)
        return false;
    *out = (int)value;
    return true;
}

static bool is_ip_address(const char *text)
{
    unsigned char addr[16];
    char inner[CONFIG_ITEM_MAX];
    size_t len = strlen(text);
    if (len >= 2 && text[0] == '[' && text[len - 1] == ']') {
        snprintf(inner, sizeof inner, "%.*s", (int)(len - 2), text + 1);
        text = inner;
    }
    return inet_pton(AF_INET, text, addr) == 1 || inet_pton(AF_INET6, text, addr) == 1;
}

/* "http://host" or "https://host:port", as a browser writes the Origin header: a scheme, a host
 * (a name, an IPv4 address or a bracketed IPv6 one) and perhaps a port; no path. */
static bool is_origin(const char *text)
{
    const char *host;
    if (strncmp(text, "http://", 7) == 0)
        host = text + 7;
    else if (strncmp(text, "https://", 8) == 0)
        host = text + 8;
    else
        return false;
    const char *port = host[0] == '[' ? strchr(host, ']') : host;
    if (!port)
        return false;
    port = strchr(port, ':');
    size_t host_len = port ? (size_t)(port - host) : strlen(host);
    if (host_len == 0 || strcspn(host, "/?#@ \t") < strlen(host))
        return false;
    if (port && (port[1] == '\0' || strspn(port + 1, "0123456789") != strlen(port + 1)))
        return false;
    return true;
}

/* Adds each comma-separated item of value to a repeatable flag's list. */
static bool append_items(config_list *list, const flag_spec *flag, const char *value,
                         char *error, size_t error_cap)
{
    if (value[strlen(value) - 1] == ',') {
        snprintf(error, error_cap, "--%s: '%s' ends with an empty item", flag->name, value);
        return false;
    }
    while (*value) {
        size_t len = strcspn(value, ",");
        const char *start = value;
        size_t trimmed = len;
        while (trimmed && *start == ' ') {
            start++;
            trimmed--;
        }
        while (trimmed && start[trimmed - 1] == ' ')
            trimmed--;
        if (trimmed == 0 || trimmed >= CONFIG_ITEM_MAX || list->count >= CONFIG_LIST_MAX) {
            snprintf(error, error_cap, "--%s wants at most %d values of %d bytes, not '%s'",
                     flag->name, CONFIG_LIST_MAX, CONFIG_ITEM_MAX - 1, value);
            return false;
        }
        char *item = list->items[list->count];
        memcpy(item, start, trimmed);
        item[trimmed] = '\0';
        bool ok = flag->kind == FLAG_ADDRESS_LIST ? is_ip_address(item) : is_origin(item);
        if (!ok) {
            snprintf(error, error_cap, "--%s wants %s, not '%s'", flag->name,
                     flag->kind == FLAG_ADDRESS_LIST ? "an IP address"
                                                     : "an origin like https://teahouse.example",
                     item);
            return false;
        }
        list->count++;
        value += len;
        if (*value == ',')
            value++;
    }
    return true;
}

/* Stores one flag's value; false (with the reason in error) if the value is bad. */
static bool apply_value(config *cfg, const flag_spec *flag, const char *value, char *error,
                        size_t error_cap)
{
    char *field = (char *)cfg + flag->offset;

    switch (flag->kind) {
    case FLAG_INT:
        if (!parse_int(value, flag->min, flag->max, (int *)(void *)field)) {
            snprintf(error, error_cap, "--%s wants a whole number from %ld to %ld, not '%s'",
                     flag->name, flag->min, flag->max, value);
            return false;
        }
        return true;
    case FLAG_STRING:
        if (value[0] == '\0') {
            snprintf(error, error_cap, "--%s wants a non-empty value", flag->name);
            return false;
        }
        *(const char **)(void *)field = value;
        return true;
    case FLAG_LOG_LEVEL:
        if (!log_level_from_name(value, (log_level *)(void *)field)) {
            snprintf(error, error_cap, "--%s wants error, warn, info or debug, not '%s'",
                     flag->name, value);
            return false;
        }
        return true;
    case FLAG_DURABILITY:
        if (strcmp(value, "normal") != 0 && strcmp(value, "full") != 0) {
            snprintf(error, error_cap, "--%s wants normal or full, not '%s'", flag->name, value);
            return false;
        }
        *(bool *)(void *)field = strcmp(value, "full") == 0;
        return true;
    case FLAG_ADDRESS_LIST:
    case FLAG_ORIGIN_LIST:
        if (value[0] == '\0') {
            snprintf(error, error_cap, "--%s wants a non-empty value", flag->name);
            return false;
        }
        return append_items((config_list *)(void *)field, flag, value, error, error_cap);
    case FLAG_HELP:
    case FLAG_VERSION:
        break;
    }
    return true;
}

config_status config_parse(config *cfg, int argc, char *const argv[], char *error,
                           size_t error_cap)
{
    config_set_defaults(cfg);
    if (error_cap > 0)
        error[0] = '\0';

    for (int i = 1; i < argc; i++) {
        const char *inline_value;
        const flag_spec *flag = find_flag(argv[i], &inline_value);
        if (!flag) {
            snprintf(error, error_cap, "unknown option '%s'", argv[i]);
            return CONFIG_INVALID;
        }
        if (flag->kind == FLAG_HELP || flag->kind == FLAG_VERSION) {
            if (inline_value) {
                snprintf(error, error_cap, "--%s takes no value", flag->name);
                return CONFIG_INVALID;
            }
            return flag->kind == FLAG_HELP ? CONFIG_SHOW_HELP : CONFIG_SHOW_VERSION;
        }
        const char *value = inline_value;
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(error, error_cap, "--%s needs a value (%s)", flag->name, flag->value);
                return CONFIG_INVALID;
            }
            value = argv[++i];
        }
        if (!apply_value(cfg, flag, value, error, error_cap))
            return CONFIG_INVALID;
    }
    if (!check_node(cfg, error, error_cap))
        return CONFIG_INVALID;
    return CONFIG_OK;
}

/* The default of one flag as text, for --help. */
static void format_default(const flag_spec *flag, const config *defaults, char *out, size_t cap)
{
    const char *field = (const char *)defaults + flag->offset;
    out[0] = '\0';
    switch (flag->kind) {
    case FLAG_INT:
        snprintf(out, cap, "%d", *(const int *)(const void *)field);
        break;
    case FLAG_STRING:
        snprintf(out, cap, "%s", *(const char *const *)(const void *)field);
        break;
    case FLAG_LOG_LEVEL:
        snprintf(out, cap, "%s", log_level_name(*(const log_level *)(const void *)field));
        break;
    case FLAG_DURABILITY:
        snprintf(out, cap, "%s", *(const bool *)(const void *)field ? "full" : "normal");
        break;
    case FLAG_ADDRESS_LIST:
    case FLAG_ORIGIN_LIST:
        snprintf(out, cap, "none");
        break;
    case FLAG_HELP:
    case FLAG_VERSION:
        break;
    }
}

void config_usage(FILE *out, const char *program)
{
    config defaults;
    config_set_defaults(&defaults);

    fprintf(out, "Usage: %s [options]\n\n", program);
    fprintf(out, "The Teahouse table server: the web client, WebSocket play and /healthz on one "
                 "port,\n/metrics and /healthz for the operator on a second one (by default on "
                 "this machine only).\n\nCommands on the database, never over the network:\n"
                 "  %s admin grant NAME [--db FILE]    make the account NAME an admin\n"
                 "  %s admin revoke NAME [--db FILE]   take the admin flag away\n"
                 "  %s admin verify [--db FILE] [--ledger-key FILE]   check the ledger\n\nOptions:\n",
            program, program, program);
    for (size_t i = 0; i < FLAG_COUNT; i++) {
        const flag_spec *flag = &flags[i];
        char left[64];
        if (flag->short_name)
            snprintf(left, sizeof left, "-%c, --%s", flag->short_name, flag->name);
        else
            snprintf(left, sizeof left, "    --%s %s", flag->name, flag->value);
        char fallback[128];
        format_default(flag, &defaults, fallback, sizeof fallback);
        if (strlen(left) > 28) /* too long for the column: the help goes below */
            fprintf(out, "  %s\n  %-28s", left, "");
        else
            fprintf(out, "  %-28s", left);
        if (fallback[0])
            fprintf(out, " %s (default: %s)\n", flag->help, fallback);
        else
            fprintf(out, " %s\n", flag->help);
    }
}
