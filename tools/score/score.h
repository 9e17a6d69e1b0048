/*
 * score — the score calculator behind `teahouse-score`: Tien Gow (rules/tiengow.md §8) and, for a
 * document with "game":"tianjin", Tianjin Mahjong (rules/tianjin-mahjong.md §7, score_mj.h).
 *
 * One JSON document in, one out: settle mode prices a finished hand (§4), replay mode plays a
 * dealt hand through the engine and reports its tricks, bonuses, endings, payments and net.
 * A refusal is the document {"error":{"code":C,"message":M}} where C is the FIRST that applies
 * of bad_request, impossible, illegal_action: the whole document's shape (every key, type, tile
 * name and action) is checked before the tiles are counted, and both before any action is played.
 * No I/O, no globals; the engine does all the rules.
 */
#ifndef SCORE_H
#define SCORE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* The answer to a parsed document (a new reference; NULL only when memory runs out). */
json_t *score_run(const json_t *input);

/* True if an answer is an error document. */
bool score_is_error(const json_t *answer);

/* An error document for code C ("bad_request", …) and a message. */
json_t *score_error(const char *code, const char *message);

/*
 * The answer to a document given as text of `length` bytes, written compactly with keys in the
 * order of §8 and no trailing newline; free() it. *is_error says whether it is an error document.
 * Text that is not exactly one JSON value (or repeats a key in an object) is a bad_request.
 * NULL only when memory runs out.
 */
char *score_run_text(const char *text, size_t length, bool *is_error);

#endif
