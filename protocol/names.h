/*
 * names — the rules for the names people choose, in one place: display names (hello's `name`,
 * what the tables show) and account names (register, login), and the look-alike keys that tell
 * two account names apart the way a reader would (Unicode's confusables, UTS #39, through ICU).
 *
 * Every name is normalised to NFC first (so "José" typed with a combining accent is the same
 * name as the precomposed one) and trimmed of white space. No name may hold what a reader cannot
 * see or what changes how the text around it reads: control characters, line breaks, bidi
 * controls (U+202A–202E, U+2066–2069, U+200E/F, U+061C), zero-width and other default-ignorable
 * characters (U+200B–200D, U+2060, U+FEFF, U+00AD, Hangul fillers, …), private-use and
 * unassigned characters; nor be blank (only spaces and the like). A variation selector is
 * allowed only right after an emoji or an ideograph, where it picks a visible form.
 *
 * Account names are further limited to letters of the scripts people write names in, ASCII
 * digits and '_', '-', '.', with scripts mixed only as ICU's "moderately restrictive" level allows
 * (Latin with Han, kana or Hangul, say; never Latin with Greek or Cyrillic). Two account names
 * that look alike (BOB and Cyrillic ВОВ, admin and admın) share a key: the store keeps the keys
 * of every account unique.
 *
 * Pure functions of their input: no globals, safe on any thread (each call opens what it needs
 * of ICU, about a microsecond).
 */
#ifndef NAMES_H
#define NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "house_limits.h"

#define NAMES_BYTES LIMIT_NAME_BYTES /* a name as kept: at most 24 characters of UTF-8 */
/* A look-alike key: a name's skeleton is longer than the name ("m" becomes "rn"). A name whose
 * key does not fit is refused. */
#define NAMES_KEY_BYTES 400

/* The display name text (UTF-8, as sent) made NFC and trimmed into out: 1 to LIMIT_NAME_CHARS
 * characters, at least one of them visible. False, with a sentence in why, when it breaks a rule
 * (the sentence starts with "name"). */
bool names_display(const char *text, char out[NAMES_BYTES + 1], char *why, size_t why_size);

/* The account name text made NFC and trimmed into out, if it is one: LIMIT_ACCOUNT_MIN_CHARS to
 * LIMIT_ACCOUNT_MAX_CHARS characters as above. False with a sentence otherwise. */
bool names_account(const char *text, char out[NAMES_BYTES + 1], char *why, size_t why_size);

/* The NFC form of text (any UTF-8, not checked against the rules: a name kept before they were),
 * into out; false if it does not fit. */
bool names_nfc(const char *text, char *out, size_t out_size);

/*
 * The look-alike keys of an account name. Two names look alike when either key is the same:
 *   look: the skeleton of the name's case-folded skeleton, what it looks like whatever the case
 *         of its letters (BOB, ВОВ and bob; bill and biII);
 *   fold: the skeleton of the case-folded name, so that a name cannot copy another written in
 *         other case (ADMIN and admın, where capital I and dotless ı part ways).
 * The name is made NFC first. False if a key does not fit.
 */
typedef struct names_keys {
    char look[NAMES_KEY_BYTES];
    char fold[NAMES_KEY_BYTES];
} names_keys;

bool names_account_keys(const char *name, names_keys *out);

#endif
