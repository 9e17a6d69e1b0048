/*
 * store_kind — the kinds of request a store answers, one per request function of store.h, with
 * stable names. Every store counts the requests made of each kind; the in-memory store's test
 * controls (store_memory.h) use the kinds to count requests and to make some of them fail.
 */
#ifndef STORE_KIND_H
#define STORE_KIND_H

typedef enum store_kind {
    STORE_KIND_PLAYER_SAVE = 0, /* store_player_save */
    STORE_KIND_GUEST_CREATE,    /* store_guest_create, store_guest_keep */
    STORE_KIND_ACCOUNT_CREATE,  /* store_account_create */
    STORE_KIND_LOGIN,           /* store_login */
    STORE_KIND_SESSION_LOOKUP,  /* store_session_lookup */
    STORE_KIND_LOGOUT,          /* store_logout */
    STORE_KIND_TABLE_SAVE,      /* store_table_save */
    STORE_KIND_HAND_BEGIN,      /* store_hand_begin */
    STORE_KIND_ACTION_APPEND,   /* store_action_append */
    STORE_KIND_HAND_FINISH,     /* store_hand_finish */
    STORE_KIND_TABLE_HANDS,     /* store_table_hands */
    STORE_KIND_HAND_GET,        /* store_hand_get */
    STORE_KIND_PLAYER_TABLES,   /* store_player_tables */
    STORE_KIND_RECOVER,         /* store_recover */
    STORE_KIND_LEDGER_VERIFY,   /* store_ledger_verify */
    STORE_KIND_GUESTS_EXPIRE,   /* store_guests_expire */
    STORE_KIND_LEDGER_QUERY,    /* store_ledger_query */
    STORE_KIND_ADMIN_SESSION_OPEN,   /* store_admin_session_open */
    STORE_KIND_ADMIN_SESSION_LOOKUP, /* store_admin_session_lookup */
    STORE_KIND_ADMIN_SESSION_CLOSE,  /* store_admin_session_close */
    STORE_KIND_AUDIT_APPEND,    /* store_audit_append */
    STORE_KIND_AUDIT_LIST,      /* store_audit_list, store_audit_query */
    STORE_KIND_ADJUST,          /* store_adjust */
    STORE_KIND_PROFILE,         /* store_profile_get */
    STORE_KIND_COUNT
} store_kind;

/* "player_save", "guest_create", …, "ledger_verify" (the request function without store_);
 * "unknown" for anything else. */
const char *store_kind_name(store_kind kind);

#endif
