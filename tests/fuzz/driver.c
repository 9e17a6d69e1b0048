/*
 * driver — runs a fuzz target without libFuzzer, so an ordinary build (gcc, CI, the sanitizer
 * build) exercises every target as a quick test.
 *
 *   fuzz_<target> [--mutations N] [--seed S] [--dict FILE] [--only M --write FILE] PATH...
 *
 * Every file named, and every file of every directory named (in name order), is fed to the
 * target as it is; then N inputs made from them by a few deterministic pseudo-random mutations
 * (bit flips, cut and repeated chunks, tokens of the dictionary, splices of two inputs). The same
 * arguments always give the same inputs, so a failure in CI reproduces on any machine: when a
 * target aborts the driver says which mutation it was on, and `--only M --write FILE` runs just
 * that one and saves it (for a debugger, or for libFuzzer and the corpus).
 *
 * The dictionary is in libFuzzer's format (one "token" a line, # comments), so one file serves
 * both ways of running a target.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define DRIVER_MAX_INPUT (64 * 1024)
#define DRIVER_MAX_TOKENS 512
#define DRIVER_MAX_TOKEN_LEN 64

typedef struct blob {
    uint8_t *data;
    size_t size;
    char *name; /* the file it came from */
} blob;

typedef struct blob_list {
    blob *items;
    size_t count, capacity;
} blob_list;

typedef struct driver {
    blob_list seeds;
    blob_list tokens;
    uint64_t rng;
} driver;

/* --- inputs --- */

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "driver: %s: %s\n", what, detail);
    exit(2);
}

static void *checked_malloc(size_t size)
{
    void *p = malloc(size > 0 ? size : 1);
    if (p == NULL)
        die("out of memory", "malloc");
    return p;
}

static void blob_append(blob_list *list, const uint8_t *data, size_t size, const char *name)
{
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 64;
        list->items = realloc(list->items, list->capacity * sizeof *list->items);
        if (list->items == NULL)
            die("out of memory", "realloc");
    }
    blob *b = &list->items[list->count++];
    b->data = checked_malloc(size);
    memcpy(b->data, data, size);
    b->size = size;
    b->name = checked_malloc(strlen(name) + 1);
    strcpy(b->name, name);
}

static void read_file(blob_list *list, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        die(path, strerror(errno));
    uint8_t *buf = checked_malloc(DRIVER_MAX_INPUT);
    size_t size = fread(buf, 1, DRIVER_MAX_INPUT, f);
    fclose(f);
    blob_append(list, buf, size, path);
    free(buf);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a directory, in name order so the run does not depend on the file system. */
static void read_directory(blob_list *list, const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        die(dir, strerror(errno));
    char **names = NULL;
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        names = realloc(names, (count + 1) * sizeof *names);
        if (names == NULL)
            die("out of memory", "realloc");
        size_t length = strlen(dir) + strlen(entry->d_name) + 2;
        names[count] = checked_malloc(length);
        snprintf(names[count], length, "%s/%s", dir, entry->d_name);
        count++;
    }
    closedir(d);
    qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            read_file(list, names[i]);
        free(names[i]);
    }
    free(names);
}

static void read_path(blob_list *list, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        die(path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        read_directory(list, path);
    else
        read_file(list, path);
}

/* A hex digit's value, or -1. */
static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* One dictionary line: the text between its first and last double quote, with \\ \" \xNN escapes. */
static void read_token(blob_list *tokens, const char *line)
{
    const char *open = strchr(line, '"'), *close = strrchr(line, '"');
    if (open == NULL || close == NULL || close <= open + 1 || line[strspn(line, " \t")] == '#')
        return;
    uint8_t token[DRIVER_MAX_TOKEN_LEN];
    size_t n = 0;
    for (const char *p = open + 1; p < close && n < sizeof token; p++) {
        if (*p == '\\' && p + 1 < close && p[1] == 'x' && p + 3 < close && hex_value(p[2]) >= 0 &&
            hex_value(p[3]) >= 0) {
            token[n++] = (uint8_t)(hex_value(p[2]) * 16 + hex_value(p[3]));
            p += 3;
        } else if (*p == '\\' && p + 1 < close) {
            token[n++] = (uint8_t)*++p;
        } else {
            token[n++] = (uint8_t)*p;
        }
    }
    if (tokens->count < DRIVER_MAX_TOKENS)
        blob_append(tokens, token, n, "dict");
}

static void read_dictionary(blob_list *tokens, const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        die(path, strerror(errno));
    char line[512];
    while (fgets(line, sizeof line, f) != NULL)
        read_token(tokens, line);
    fclose(f);
}

/* --- mutations --- */

/* xorshift64*: small, fast and the same everywhere. */
static uint64_t next_random(driver *d)
{
    d->rng ^= d->rng >> 12;
    d->rng ^= d->rng << 25;
    d->rng ^= d->rng >> 27;
    return d->rng * 2685821657736338717ull;
}

static size_t below(driver *d, size_t n) { return n > 0 ? (size_t)(next_random(d) % n) : 0; }

/* Inserts n bytes at pos if they fit; buf holds DRIVER_MAX_INPUT bytes. */
static void insert_bytes(uint8_t *buf, size_t *size, size_t pos, const uint8_t *bytes, size_t n)
{
    if (*size + n > DRIVER_MAX_INPUT || pos > *size)
        return;
    memmove(buf + pos + n, buf + pos, *size - pos);
    memcpy(buf + pos, bytes, n);
    *size += n;
}

static void erase_bytes(uint8_t *buf, size_t *size, size_t pos, size_t n)
{
    if (pos >= *size)
        return;
    if (n > *size - pos)
        n = *size - pos;
    memmove(buf + pos, buf + pos + n, *size - pos - n);
    *size -= n;
}

/* Bytes that often matter to a JSON or line-based parser. */
static const uint8_t SPECIAL_BYTES[] = {0, 0xff, 0x80, '"', '{', '}', '[', ']', ',', ':', '\\', '\n', ' ',
                                        '0', '1', '9', '-', '.', 'e', 'u', '$', 0xc2, 0xe5};

/* Numbers at the edges of what a reader accepts. */
static const char *const SPECIAL_NUMBERS[] = {"0", "-1", "1", "2", "3", "4", "5", "8", "255", "300", "301",
                                              "1000000", "1000001", "2147483648", "-9223372036854775808",
                                              "9223372036854775807", "99999999999999999999", "1e309", "1.0", "-0"};

static void mutate_once(driver *d, uint8_t *buf, size_t *size)
{
    size_t pos = below(d, *size + 1);
    switch (below(d, 9)) {
    case 0: /* flip one bit */
        if (*size > 0)
            buf[below(d, *size)] ^= (uint8_t)(1u << below(d, 8));
        break;
    case 1: /* overwrite a byte with a special one */
        if (*size > 0)
            buf[below(d, *size)] = SPECIAL_BYTES[below(d, sizeof SPECIAL_BYTES)];
        break;
    case 2: /* cut a chunk */
        erase_bytes(buf, size, pos, 1 + below(d, 16));
        break;
    case 3: { /* insert random bytes */
        uint8_t bytes[4];
        size_t n = 1 + below(d, sizeof bytes);
        for (size_t i = 0; i < n; i++)
            bytes[i] = (uint8_t)next_random(d);
        insert_bytes(buf, size, pos, bytes, n);
        break;
    }
    case 4: { /* repeat a chunk somewhere else */
        if (*size == 0)
            break;
        size_t from = below(d, *size), n = 1 + below(d, *size - from < 64 ? *size - from : 64);
        uint8_t chunk[64];
        memcpy(chunk, buf + from, n);
        insert_bytes(buf, size, pos, chunk, n);
        break;
    }
    case 5: /* a dictionary token */
        if (d->tokens.count > 0) {
            const blob *t = &d->tokens.items[below(d, d->tokens.count)];
            insert_bytes(buf, size, pos, t->data, t->size);
        }
        break;
    case 6: { /* splice: a chunk of another seed */
        const blob *other = &d->seeds.items[below(d, d->seeds.count)];
        if (other->size == 0)
            break;
        size_t from = below(d, other->size), n = 1 + below(d, other->size - from);
        insert_bytes(buf, size, pos, other->data + from, n > 256 ? 256 : n);
        break;
    }
    case 7: { /* replace a run of digits by a number at an edge */
        size_t start = pos;
        while (start < *size && (buf[start] < '0' || buf[start] > '9'))
            start++;
        size_t end = start;
        while (end < *size && buf[end] >= '0' && buf[end] <= '9')
            end++;
        const char *number = SPECIAL_NUMBERS[below(d, sizeof SPECIAL_NUMBERS / sizeof SPECIAL_NUMBERS[0])];
        erase_bytes(buf, size, start, end - start);
        insert_bytes(buf, size, start, (const uint8_t *)number, strlen(number));
        break;
    }
    default: /* truncate */
        *size = pos;
        break;
    }
}

/* The mutation being run, for the abort handler (-1 while the seeds run). */
static volatile sig_atomic_t current_mutation = -1;

/* Says which mutation broke a promise, with async-signal-safe calls only, then dies as it would have. */
static void on_fatal_signal(int signum)
{
    char line[96] = "driver: mutation ";
    size_t n = strlen(line);
    char digits[24];
    int k = 0;
    long m = current_mutation;
    do {
        digits[k++] = (char)('0' + m % 10);
        m /= 10;
    } while (m > 0 && k < (int)sizeof digits);
    while (k > 0)
        line[n++] = digits[--k];
    const char *tail = " failed: rerun with --only <it> --write FILE to keep it\n";
    if (current_mutation >= 0 && write(STDERR_FILENO, line, n) > 0 && write(STDERR_FILENO, tail, strlen(tail)) > 0)
        fsync(STDERR_FILENO);
    signal(signum, SIG_DFL);
    raise(signum);
}

static void write_input(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        die(path, "cannot write");
}

static void run_one(const uint8_t *data, size_t size)
{
    /* A copy of exactly `size` bytes, so reading past the input is caught by the sanitizers. */
    uint8_t *copy = checked_malloc(size);
    memcpy(copy, data, size);
    LLVMFuzzerTestOneInput(copy, size);
    free(copy);
}

/* --- main --- */

static unsigned long long parse_number(const char *text, const char *what)
{
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0' || end == text)
        die(what, "not a number");
    return value;
}

int main(int argc, char **argv)
{
    driver d = {.rng = 0x9e3779b97f4a7c15ull};
    unsigned long long mutations = 1000, seed = 1;
    long long only = -1;
    const char *write_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--mutations") == 0 && i + 1 < argc)
            mutations = parse_number(argv[++i], "--mutations");
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = parse_number(argv[++i], "--seed");
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = (long long)parse_number(argv[++i], "--only");
        else if (strcmp(argv[i], "--write") == 0 && i + 1 < argc)
            write_path = argv[++i];
        else if (strcmp(argv[i], "--dict") == 0 && i + 1 < argc)
            read_dictionary(&d.tokens, argv[++i]);
        else
            read_path(&d.seeds, argv[i]);
    }
    if (d.seeds.count == 0)
        die("usage", "fuzz_<target> [--mutations N] [--seed S] [--dict FILE] [--only M --write FILE] PATH...");
    d.rng ^= seed * 0xbf58476d1ce4e5b9ull;
    signal(SIGABRT, on_fatal_signal);
    signal(SIGSEGV, on_fatal_signal);
    clock_t started = clock();

    if (only < 0) {
        run_one((const uint8_t *)"", 0);
        for (size_t i = 0; i < d.seeds.count; i++) {
            fprintf(stderr, "seed %s\n", d.seeds.items[i].name);
            run_one(d.seeds.items[i].data, d.seeds.items[i].size);
        }
    }
    uint8_t *buf = checked_malloc(DRIVER_MAX_INPUT);
    for (unsigned long long m = 0; m < mutations; m++) {
        const blob *base = &d.seeds.items[below(&d, d.seeds.count)];
        size_t size = base->size;
        memcpy(buf, base->data, size);
        for (size_t k = 1 + below(&d, 6); k > 0; k--)
            mutate_once(&d, buf, &size);
        if (only >= 0 && m != (unsigned long long)only)
            continue; /* generated all the same, so mutation M is the same input with or without --only */
        if (write_path != NULL)
            write_input(write_path, buf, size);
        current_mutation = (sig_atomic_t)m;
        run_one(buf, size);
        current_mutation = -1;
    }
    free(buf);

    double seconds = (double)(clock() - started) / CLOCKS_PER_SEC;
    printf("%zu seeds and %llu mutations ran in %.1f s of CPU; no promise broken\n", d.seeds.count, mutations,
           seconds);
    for (size_t i = 0; i < d.seeds.count; i++) {
        free(d.seeds.items[i].data);
        free(d.seeds.items[i].name);
    }
    for (size_t i = 0; i < d.tokens.count; i++) {
        free(d.tokens.items[i].data);
        free(d.tokens.items[i].name);
    }
    free(d.seeds.items);
    free(d.tokens.items);
    return 0;
}
