/*
 * Runs the built `teahouse-score` (rules/tiengow.md §8) through a pipe: the worked examples A-G of
 * §4 in settle mode, the replay example of the rules page, and bad inputs that must give exit
 * status 1 with the right error code. Usage: test_score_exe <path of teahouse-score> <replay example>.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* From the command line; set once in main before the suite runs. */
static const char *score_path;
static const char *example_path;

typedef struct score_run {
    int exit_status;  /* -1 if the process did not exit normally */
    char *out;        /* all of stdout, NUL-terminated */
    size_t length;
} score_run;

static void write_all(int fd, const char *data, size_t length)
{
    while (length > 0) {
        ssize_t n = write(fd, data, length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return; /* EPIPE: the calculator stopped reading (an oversized input) */
        data += n;
        length -= (size_t)n;
    }
}

static char *read_all(int fd, size_t *length)
{
    size_t size = 4096, used = 0;
    char *buf = malloc(size);
    ck_assert_ptr_nonnull(buf);
    for (;;) {
        if (used + 1 >= size) {
            size *= 2;
            buf = realloc(buf, size);
            ck_assert_ptr_nonnull(buf);
        }
        ssize_t n = read(fd, buf + used, size - used - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
    }
    buf[used] = '\0';
    *length = used;
    return buf;
}

/* Runs the calculator with `input` on stdin (no shell involved). */
static score_run run_score(const char *input, size_t length)
{
    int in[2], out[2];
    ck_assert_int_eq(pipe(in), 0);
    ck_assert_int_eq(pipe(out), 0);
    for (int i = 0; i < 2; i++) { /* the child keeps only the two it gets as 0 and 1 */
        fcntl(in[i], F_SETFD, FD_CLOEXEC);
        fcntl(out[i], F_SETFD, FD_CLOEXEC);
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    char *argv[] = {(char *)score_path, NULL};
    pid_t pid;
    int spawned = posix_spawn(&pid, score_path, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ck_assert_msg(spawned == 0, "cannot run %s: %s", score_path, strerror(spawned));
    close(in[0]);
    close(out[1]);
    signal(SIGPIPE, SIG_IGN);
    write_all(in[1], input, length);
    close(in[1]);
    score_run run;
    run.out = read_all(out[0], &run.length);
    close(out[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

/* Runs a document written with ' for ", and parses the answer (one line of JSON). */
static json_t *answer_of(const char *quoted, int expected_status)
{
    char *text = strdup(quoted);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    score_run run = run_score(text, strlen(text));
    free(text);
    ck_assert_msg(run.exit_status == expected_status, "exit status %d, expected %d; output %s", run.exit_status,
                  expected_status, run.out);
    ck_assert_msg(run.length > 0 && run.out[run.length - 1] == '\n' && strchr(run.out, '\n') == run.out + run.length - 1,
                  "the answer is not one line ending in a newline: %s", run.out);
    json_t *answer = json_loads(run.out, 0, NULL);
    ck_assert_msg(answer != NULL, "the answer is not JSON: %s", run.out);
    free(run.out);
    return answer;
}

static void assert_net(json_t *answer, const char *net)
{
    json_t *expected = json_loads(net, 0, NULL);
    ck_assert_ptr_nonnull(expected);
    char *got = json_dumps(answer, JSON_COMPACT);
    ck_assert_msg(json_equal(json_object_get(answer, "net"), expected), "net: expected %s in %s", net, got);
    free(got);
    json_decref(expected);
}

static void assert_code(json_t *answer, const char *code)
{
    json_t *error = json_object_get(answer, "error");
    char *got = json_dumps(answer, JSON_COMPACT);
    ck_assert_msg(error != NULL && json_is_string(json_object_get(error, "message")), "no error in %s", got);
    ck_assert_msg(strcmp(json_string_value(json_object_get(error, "code")), code) == 0, "expected %s, got %s", code,
                  got);
    free(got);
}

/* A settle document with the given banker, m, stacks, winner, endings and qin. */
static json_t *settle(int banker, int multiplier, const char *stacks, int winner, const char *endings,
                      const char *qin)
{
    char doc[512];
    snprintf(doc, sizeof doc,
             "{'mode':'settle','game':'tiengow','options':{},'banker':%d,'multiplier':%d,'stacks':%s,'winner':%d,"
             "'endings':%s,'qin':%s}",
             banker, multiplier, stacks, winner, endings, qin);
    return answer_of(doc, 0);
}

/* --- the worked examples of §4 --- */

START_TEST(test_example_a)
{
    json_t *a = settle(0, 2, "[1,4,0,3]", 3, "[]", "null");
    assert_net(a, "[-6,0,-5,11]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_b)
{
    json_t *a = settle(0, 2, "[1,5,0,2]", 3, "[]", "null");
    assert_net(a, "[-6,1,-5,10]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_c)
{
    json_t *a = settle(0, 4, "[2,5,1,0]", 0, "[]", "null");
    assert_net(a, "[28,4,-12,-20]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_d)
{
    json_t *a = settle(0, 5, "[2,2,4,0]", 1, "[]", "null");
    assert_net(a, "[-10,15,0,-5]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_e)
{
    json_t *a = settle(1, 2, "[0,0,0,8]", 3, "['eight']", "null");
    assert_net(a, "[-20,-40,-20,80]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_f)
{
    json_t *a = settle(0, 3, "[5,2,1,0]", 1, "[]", "null");
    assert_net(a, "[1,7,-3,-5]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_g)
{
    json_t *a = settle(0, 2, "[2,2,1,3]", 3, "[]", "{'captured':1}");
    assert_net(a, "[0,-36,0,36]");
    json_decref(a);
}
END_TEST

/* --- the replay example --- */

static json_t *load_example(void)
{
    json_error_t error;
    json_t *example = json_load_file(example_path, 0, &error);
    ck_assert_msg(example != NULL, "%s: %s", example_path, error.text);
    return example;
}

START_TEST(test_the_replay_example_answers_exactly_its_output)
{
    json_t *example = load_example();
    char *input = json_dumps(json_object_get(example, "input"), JSON_INDENT(1));
    char *expected = json_dumps(json_object_get(example, "output"), JSON_COMPACT | JSON_PRESERVE_ORDER);
    score_run run = run_score(input, strlen(input));
    ck_assert_int_eq(run.exit_status, 0);
    json_t *answer = json_loads(run.out, 0, NULL);
    ck_assert_ptr_nonnull(answer);
    ck_assert(json_equal(answer, json_object_get(example, "output")));
    /* Same keys in the same order: the compact forms are the same text. */
    char *got = json_dumps(answer, JSON_COMPACT | JSON_PRESERVE_ORDER);
    ck_assert_str_eq(got, expected);
    free(got);
    json_decref(answer);
    free(run.out);
    free(expected);
    free(input);
    json_decref(example);
}
END_TEST

START_TEST(test_an_illegal_replay_action_exits_one)
{
    json_t *example = load_example();
    json_t *input = json_object_get(example, "input");
    /* Seat 3 banks and leads; seat 0 acting first is refused. */
    json_array_set_new(json_object_get(input, "actions"), 0, json_pack("{s:i, s:[s,s]}", "seat", 0, "play", "4-4", "4-4"));
    char *text = json_dumps(input, JSON_COMPACT);
    score_run run = run_score(text, strlen(text));
    ck_assert_int_eq(run.exit_status, 1);
    json_t *answer = json_loads(run.out, 0, NULL);
    ck_assert_ptr_nonnull(answer);
    assert_code(answer, "illegal_action");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(json_object_get(answer, "error"), "message")),
                                 "actions[0]"));
    json_decref(answer);
    free(run.out);
    free(text);
    json_decref(example);
}
END_TEST

/* --- bad inputs --- */

START_TEST(test_text_that_is_not_json_exits_one_with_bad_request)
{
    json_t *a = answer_of("this is not json", 1);
    assert_code(a, "bad_request");
    json_decref(a);
    a = answer_of("", 1);
    assert_code(a, "bad_request");
    json_decref(a);
}
END_TEST

START_TEST(test_an_unknown_key_exits_one_with_bad_request)
{
    json_t *a = answer_of("{'mode':'settle','game':'tiengow','banker':0,'multiplier':2,'stacks':[1,4,0,3],"
                          "'winner':3,'endings':[],'qin':null,'note':'x'}",
                          1);
    assert_code(a, "bad_request");
    json_decref(a);
}
END_TEST

START_TEST(test_an_outcome_that_cannot_arise_exits_one_with_impossible)
{
    json_t *a = answer_of("{'mode':'settle','game':'tiengow','banker':0,'multiplier':2,'stacks':[2,4,0,3],"
                          "'winner':3,'endings':[],'qin':null}",
                          1);
    assert_code(a, "impossible");
    json_decref(a);
}
END_TEST

#define MIB (1024 * 1024)

/* Example A padded with spaces to `total` bytes. */
static char *padded_example_a(size_t total)
{
    const char *doc = "{\"mode\":\"settle\",\"game\":\"tiengow\",\"banker\":0,\"multiplier\":2,\"stacks\":[1,4,0,3],"
                      "\"winner\":3,\"endings\":[],\"qin\":null}";
    char *text = malloc(total);
    ck_assert_ptr_nonnull(text);
    memset(text, ' ', total);
    memcpy(text, doc, strlen(doc));
    return text;
}

START_TEST(test_input_of_exactly_one_mib_is_read)
{
    char *text = padded_example_a(MIB);
    score_run run = run_score(text, MIB);
    ck_assert_msg(run.exit_status == 0, "%s", run.out);
    ck_assert_ptr_nonnull(strstr(run.out, "\"net\":[-6,0,-5,11]"));
    free(run.out);
    free(text);
}
END_TEST

START_TEST(test_input_over_one_mib_exits_one_with_bad_request)
{
    char *text = padded_example_a(2 * MIB);
    score_run run = run_score(text, 2 * MIB);
    ck_assert_int_eq(run.exit_status, 1);
    json_t *answer = json_loads(run.out, 0, NULL);
    ck_assert_ptr_nonnull(answer);
    assert_code(answer, "bad_request");
    json_decref(answer);
    free(run.out);
    free(text);
}
END_TEST

static Suite *score_exe_suite(void)
{
    Suite *s = suite_create("score_exe");
    TCase *examples = tcase_create("examples");
    tcase_add_test(examples, test_example_a);
    tcase_add_test(examples, test_example_b);
    tcase_add_test(examples, test_example_c);
    tcase_add_test(examples, test_example_d);
    tcase_add_test(examples, test_example_e);
    tcase_add_test(examples, test_example_f);
    tcase_add_test(examples, test_example_g);
    tcase_add_test(examples, test_the_replay_example_answers_exactly_its_output);
    suite_add_tcase(s, examples);
    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_an_illegal_replay_action_exits_one);
    tcase_add_test(errors, test_text_that_is_not_json_exits_one_with_bad_request);
    tcase_add_test(errors, test_an_unknown_key_exits_one_with_bad_request);
    tcase_add_test(errors, test_an_outcome_that_cannot_arise_exits_one_with_impossible);
    tcase_add_test(errors, test_input_of_exactly_one_mib_is_read);
    tcase_add_test(errors, test_input_over_one_mib_exits_one_with_bad_request);
    suite_add_tcase(s, errors);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <teahouse-score> <tiengow-replay.json>\n", argv[0]);
        return EXIT_FAILURE;
    }
    score_path = argv[1];
    example_path = argv[2];
    SRunner *runner = srunner_create(score_exe_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
