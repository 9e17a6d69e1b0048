/*
 * names — see names.h. Work is done in UTF-16, ICU's own form: the name is decoded, normalised
 * to NFC, trimmed, checked character by character (properties from ICU's copy of the Unicode
 * character database), checked whole by ICU's spoof checker (account names), and encoded again.
 * Account names also pass a table of the letters they may hold, the scripts people write
 * names in.
 */
#include "names.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

/* What is decoded at most: a name written decomposed (a letter and two accents, Hangul as
 * jamo) takes up to about 9 bytes a character before NFC, 24 characters about 220 bytes. Text
 * longer than this cannot be a name, whatever it composes to. */
#define RAW_BYTES_MAX (5 * NAMES_BYTES)
/* UTF-16 units of a decoded name, and room for NFC (which may grow a few characters 3 times). */
#define UNITS_MAX (3 * RAW_BYTES_MAX + 16)
/* Combining marks on one letter, at most: Vietnamese, Thai or Devanagari need two or three;
 * more only piles marks over the rows around the name. */
#define MARKS_MAX 4

/*
 * The characters an account name may hold besides ASCII letters, digits, '_', '-' and '.': the
 * letters (and the vowel signs and marks written with them) of the scripts people write names
 * in. Not spaces, punctuation, symbols, emoji, combining accents on Latin letters (NFC has made
 * those precomposed where Unicode has the letter) or fullwidth look-alikes of ASCII. Which
 * scripts may be mixed is ICU's to say (names.h). Invisible characters inside these ranges (the
 * Hangul fillers, Khmer's inherent vowels) are refused by the checks every name passes.
 */
static const struct {
    uint32_t first, last;
} NAME_LETTERS[] = {
    {0x00c0, 0x00d6},   /* Latin-1 letters, without × */
    {0x00d8, 0x00f6},   /* without ÷ */
    {0x00f8, 0x024f},   /* Latin Extended-A and -B */
    {0x0386, 0x0386},   /* Ά (not the ano teleia after it) */
    {0x0388, 0x03f5},   /* Greek, not the reversed lunate epsilon symbol */
    {0x03f7, 0x03ff},
    {0x0400, 0x0481},   /* Cyrillic, not the thousands sign and combining marks after it */
    {0x048a, 0x052f},
    {0x0531, 0x0556},   /* Armenian */
    {0x0561, 0x0587},
    {0x05d0, 0x05ea},   /* Hebrew letters */
    {0x0620, 0x065f},   /* Arabic letters and vowel marks */
    {0x066e, 0x06d3},
    {0x06d5, 0x06d5},
    {0x0900, 0x0963},   /* Devanagari, without the dandas */
    {0x0971, 0x097f},
    {0x0980, 0x09e3},   /* Bengali */
    {0x0a00, 0x0a63},   /* Gurmukhi */
    {0x0a80, 0x0ae3},   /* Gujarati */
    {0x0b80, 0x0bd7},   /* Tamil */
    {0x0c00, 0x0c63},   /* Telugu */
    {0x0c80, 0x0ce3},   /* Kannada */
    {0x0d00, 0x0d63},   /* Malayalam */
    {0x0e01, 0x0e3a},   /* Thai, without the baht sign */
    {0x0e40, 0x0e4e},
    {0x0e81, 0x0ece},   /* Lao, without its digits */
    {0x0edc, 0x0edf},
    {0x1000, 0x103f},   /* Myanmar */
    {0x10a0, 0x10fa},   /* Georgian */
    {0x10fc, 0x10ff},
    {0x1100, 0x11ff},   /* Hangul Jamo */
    {0x1200, 0x135a},   /* Ethiopic */
    {0x1780, 0x17d3},   /* Khmer */
    {0x1e00, 0x1eff},   /* Latin Extended Additional (Vietnamese) */
    {0x1f00, 0x1fbc},   /* Greek Extended, without its spacing accents */
    {0x1fc2, 0x1fcc},
    {0x1fd0, 0x1fdb},
    {0x1fe0, 0x1fec},
    {0x1ff2, 0x1ffc},
    {0x3005, 0x3005},   /* 々, the kanji iteration mark (佐々木) */
    {0x3041, 0x3096},   /* Hiragana */
    {0x309d, 0x309f},
    {0x30a1, 0x30fa},   /* Katakana, without the middle dot */
    {0x30fc, 0x30ff},   /* the long vowel mark ー and iteration marks */
    {0x3105, 0x312f},   /* Bopomofo */
    {0x3131, 0x318e},   /* Hangul compatibility Jamo */
    {0x3400, 0x4dbf},   /* CJK Extension A */
    {0x4e00, 0x9fff},   /* CJK Unified Ideographs */
    {0xac00, 0xd7a3},   /* Hangul syllables */
    {0xf900, 0xfaff},   /* CJK compatibility ideographs */
    {0x20000, 0x3134f}, /* CJK Extensions B to G */
};

/* A name in UTF-16. */
typedef struct text16 {
    UChar s[UNITS_MAX];
    int32_t len;
} text16;

__attribute__((format(printf, 3, 4))) static bool refuse(char *why, size_t why_size, const char *format, ...)
{
    if (why != NULL && why_size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(why, why_size, format, args);
        va_end(args);
    }
    return false;
}

/* text decoded and made NFC into t; false if it is too long to be a name (or not UTF-8). */
static bool decode_nfc(const char *text, text16 *t)
{
    if (strlen(text) > RAW_BYTES_MAX)
        return false;
    UChar raw[UNITS_MAX];
    int32_t raw_len = 0;
    UErrorCode e = U_ZERO_ERROR;
    u_strFromUTF8(raw, UNITS_MAX, &raw_len, text, -1, &e);
    const UNormalizer2 *nfc = U_SUCCESS(e) ? unorm2_getNFCInstance(&e) : NULL;
    if (U_SUCCESS(e))
        t->len = unorm2_normalize(nfc, raw, raw_len, t->s, UNITS_MAX, &e);
    return U_SUCCESS(e) && e != U_STRING_NOT_TERMINATED_WARNING;
}

/* Whether c is trimmed: a space of any width (no-break, ideographic, …), not a control
 * character that happens to be white space (a tab, NEL), which is refused instead. */
static bool is_space(UChar32 c) { return u_charType(c) == U_SPACE_SEPARATOR; }

/* Drops spaces from both ends. */
static void trim(text16 *t)
{
    int32_t start = 0, end = t->len;
    while (start < end) {
        UChar32 c;
        int32_t next = start;
        U16_NEXT(t->s, next, end, c);
        if (!is_space(c))
            break;
        start = next;
    }
    while (end > start) {
        UChar32 c;
        int32_t before = end;
        U16_PREV(t->s, start, before, c);
        if (!is_space(c))
            break;
        end = before;
    }
    memmove(t->s, t->s + start, (size_t)(end - start) * sizeof(UChar));
    t->len = end - start;
}

static bool is_mark(int8_t category)
{
    return category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK || category == U_COMBINING_SPACING_MARK;
}

/* Whether c shows something: a letter, digit, mark, punctuation or symbol, not a blank one. */
static bool is_visible(UChar32 c)
{
    int8_t category = u_charType(c);
    if (c == 0x2800) /* the blank Braille pattern, a symbol that shows nothing */
        return false;
    return (category >= U_UPPERCASE_LETTER && category <= U_OTHER_NUMBER) ||
           (category >= U_DASH_PUNCTUATION && category <= U_OTHER_SYMBOL) ||
           category == U_INITIAL_PUNCTUATION || category == U_FINAL_PUNCTUATION;
}

/* A variation selector picks a visible form of the character before it: an emoji's (text or
 * emoji style) or an ideograph's. Anywhere else it is an invisible character. */
static bool selects_a_form(UChar32 c, UChar32 before)
{
    if (before < 0 || u_hasBinaryProperty(before, UCHAR_VARIATION_SELECTOR))
        return false;
    if ((c == 0xfe0e || c == 0xfe0f) && u_hasBinaryProperty(before, UCHAR_EMOJI))
        return true;
    return u_hasBinaryProperty(before, UCHAR_IDEOGRAPHIC);
}

/* The rules every name follows (names.h); *chars is its length in code points, *visible
 * whether any of them shows. */
static bool check_characters(const text16 *t, size_t *chars, bool *visible, char *why, size_t why_size)
{
    *chars = 0;
    *visible = false;
    UChar32 before = -1;
    int marks = 0;
    for (int32_t i = 0; i < t->len; (*chars)++) {
        UChar32 c;
        U16_NEXT(t->s, i, t->len, c);
        int8_t category = u_charType(c);
        if (category == U_CONTROL_CHAR || category == U_LINE_SEPARATOR || category == U_PARAGRAPH_SEPARATOR)
            return refuse(why, why_size, "name may not hold control characters or line breaks.");
        if (u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL))
            return refuse(why, why_size, "name may not hold text-direction controls (they reorder what others see).");
        if (u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR) ? !selects_a_form(c, before)
                                                               : u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
            return refuse(why, why_size,
                          "name may not hold invisible characters (zero-width spaces or joiners, fillers, soft hyphens).");
        if (category == U_UNASSIGNED || category == U_PRIVATE_USE_CHAR || category == U_SURROGATE)
            return refuse(why, why_size, "name may hold only characters Unicode assigns (no private-use ones).");
        if (is_mark(category) && before < 0)
            return refuse(why, why_size, "name may not start with a combining mark.");
        marks = category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK ? marks + 1 : 0;
        if (marks > MARKS_MAX)
            return refuse(why, why_size, "name may not stack more than %d marks on one letter.", MARKS_MAX);
        *visible |= is_visible(c);
        before = c;
    }
    return true;
}

static bool encode(const text16 *t, char *out, size_t out_size)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = 0;
    u_strToUTF8(out, (int32_t)out_size, &n, t->s, t->len, &e);
    return U_SUCCESS(e) && (size_t)n < out_size;
}

bool names_display(const char *text, char out[NAMES_BYTES + 1], char *why, size_t why_size)
{
    text16 t;
    if (!decode_nfc(text, &t))
        return refuse(why, why_size, "name must be 1 to %d characters.", LIMIT_NAME_CHARS);
    trim(&t);
    size_t chars;
    bool visible;
    if (!check_characters(&t, &chars, &visible, why, why_size))
        return false;
    if (chars < 1 || chars > LIMIT_NAME_CHARS || !encode(&t, out, NAMES_BYTES + 1))
        return refuse(why, why_size, "name must be 1 to %d characters.", LIMIT_NAME_CHARS);
    if (!visible)
        return refuse(why, why_size, "name needs a character that shows (a letter, digit or symbol).");
    return true;
}

/* Whether c may be in an account name; *alnum says whether it is a letter or a digit rather
 * than one of the separators '_', '-' and '.'. */
static bool account_character(UChar32 c, bool *alnum)
{
    *alnum = true;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    if (c == '_' || c == '-' || c == '.') {
        *alnum = false;
        return true;
    }
    for (size_t i = 0; i < sizeof NAME_LETTERS / sizeof NAME_LETTERS[0]; i++)
        if ((uint32_t)c >= NAME_LETTERS[i].first && (uint32_t)c <= NAME_LETTERS[i].last)
            return true;
    return false;
}

/* ICU's spoof checker, configured for account names: scripts mixed no more than "moderately
 * restrictive" allows, digits of one system. NULL if ICU cannot open it (out of memory). */
/* The sentence of the length rule, with the three limits in order. */
#define LENGTH_RULE "name must be %d to %d characters, or %d wide ones (Chinese, Japanese or Korean)."

/* A character one writes two columns wide (CJK ideographs, kana, Hangul syllables): two of them
 * say as much as three Latin letters, so 小明 and 阿媽 are names while "ab" is not. Fullwidth
 * forms of ASCII are wide too, but account_character refuses them first. */
static bool is_wide(UChar32 c)
{
    int width = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    return width == U_EA_WIDE || width == U_EA_FULLWIDTH;
}

/* Long enough: LIMIT_ACCOUNT_MIN_CHARS characters, or LIMIT_ACCOUNT_MIN_WIDE_CHARS when every one
 * is wide (a mixed "a明" is two characters, not two wide ones). */
static bool long_enough(const text16 *t, size_t chars)
{
    if (chars >= LIMIT_ACCOUNT_MIN_CHARS)
        return true;
    if (chars < LIMIT_ACCOUNT_MIN_WIDE_CHARS)
        return false;
    for (int32_t i = 0; i < t->len;) {
        UChar32 c;
        U16_NEXT(t->s, i, t->len, c);
        if (!is_wide(c))
            return false;
    }
    return true;
}

static USpoofChecker *open_checker(void)
{
    UErrorCode e = U_ZERO_ERROR;
    USpoofChecker *checker = uspoof_open(&e);
    uspoof_setChecks(checker, USPOOF_RESTRICTION_LEVEL | USPOOF_MIXED_NUMBERS | USPOOF_INVISIBLE, &e);
    uspoof_setRestrictionLevel(checker, USPOOF_MODERATELY_RESTRICTIVE);
    if (U_FAILURE(e)) {
        uspoof_close(checker);
        return NULL;
    }
    return checker;
}

bool names_account(const char *text, char out[NAMES_BYTES + 1], char *why, size_t why_size)
{
    text16 t;
    if (!decode_nfc(text, &t))
        return refuse(why, why_size, LENGTH_RULE, LIMIT_ACCOUNT_MIN_CHARS,
                      LIMIT_ACCOUNT_MAX_CHARS, LIMIT_ACCOUNT_MIN_WIDE_CHARS);
    trim(&t);
    bool any_alnum = false;
    for (int32_t i = 0; i < t.len;) {
        UChar32 c;
        U16_NEXT(t.s, i, t.len, c);
        bool alnum;
        if (!account_character(c, &alnum))
            return refuse(why, why_size,
                          "name may hold only letters, digits, '_', '-' and '.' (no spaces or symbols).");
        any_alnum |= alnum;
    }
    size_t chars;
    bool visible;
    if (!check_characters(&t, &chars, &visible, why, why_size))
        return false;
    if (!long_enough(&t, chars) || chars > LIMIT_ACCOUNT_MAX_CHARS || !encode(&t, out, NAMES_BYTES + 1))
        return refuse(why, why_size, LENGTH_RULE, LIMIT_ACCOUNT_MIN_CHARS,
                      LIMIT_ACCOUNT_MAX_CHARS, LIMIT_ACCOUNT_MIN_WIDE_CHARS);
    if (!any_alnum)
        return refuse(why, why_size, "name needs a letter or a digit.");
    USpoofChecker *checker = open_checker();
    if (checker == NULL)
        return refuse(why, why_size, "name cannot be checked right now (the server is out of memory).");
    UErrorCode e = U_ZERO_ERROR;
    int32_t failed = uspoof_check(checker, t.s, t.len, NULL, &e);
    uspoof_close(checker);
    if (U_FAILURE(e))
        return refuse(why, why_size, "name cannot be checked right now (the server is out of memory).");
    if (failed & USPOOF_MIXED_NUMBERS)
        return refuse(why, why_size, "name may not mix digits of different writing systems.");
    if (failed != 0)
        return refuse(why, why_size,
                      "name may not mix scripts that look alike (Latin with Greek or Cyrillic, say; Han, kana and "
                      "Hangul go with Latin).");
    return true;
}

bool names_nfc(const char *text, char *out, size_t out_size)
{
    text16 t;
    return decode_nfc(text, &t) && encode(&t, out, out_size);
}

/* The skeleton (UTS #39) of s into out, as UTF-16. */
static bool skeleton(const USpoofChecker *checker, const text16 *s, text16 *out)
{
    UErrorCode e = U_ZERO_ERROR;
    out->len = uspoof_getSkeleton(checker, 0, s->s, s->len, out->s, UNITS_MAX, &e);
    return U_SUCCESS(e) && e != U_STRING_NOT_TERMINATED_WARNING;
}

static bool fold(const text16 *s, text16 *out)
{
    UErrorCode e = U_ZERO_ERROR;
    out->len = u_strFoldCase(out->s, UNITS_MAX, s->s, s->len, U_FOLD_CASE_DEFAULT, &e);
    return U_SUCCESS(e) && e != U_STRING_NOT_TERMINATED_WARNING;
}

bool names_account_keys(const char *name, names_keys *out)
{
    text16 nfc, a, b;
    USpoofChecker *checker = open_checker();
    bool ok = checker != NULL && decode_nfc(name, &nfc) &&
              /* look: skeleton, fold, skeleton */
              skeleton(checker, &nfc, &a) && fold(&a, &b) && skeleton(checker, &b, &a) &&
              encode(&a, out->look, sizeof out->look) &&
              /* fold: fold, skeleton */
              fold(&nfc, &b) && skeleton(checker, &b, &a) && encode(&a, out->fold, sizeof out->fold);
    uspoof_close(checker);
    return ok;
}
