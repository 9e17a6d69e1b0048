/*
 * Runs the built `teahouse-score` through a pipe on Tianjin documents (rules/tianjin-mahjong.md §7):
 * every case of tests/data/tianjin-worked.json, both examples of §7 to the byte, one refusal of each
 * code with exit status 1, and the replay example (tests/data/tianjin-replay.json) to the byte, its
 * win and settlement agreeing with score and settle modes. Usage: test_mj_score_exe <path of
 * teahouse-score> <tianjin-worked.json> <tianjin-replay.json>.
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
static const char *worked_path;
static const char *replay_path;

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

/* Runs a document (plain JSON text) and checks the exit status and that the answer is one line. */
static char *output_of(const char *text, int expected_status)
{
    score_run run = run_score(text, strlen(text));
    ck_assert_msg(run.exit_status == expected_status, "exit status %d, expected %d; output %s", run.exit_status,
                  expected_status, run.out);
    ck_assert_msg(run.length > 0 && run.out[run.length - 1] == '\n' && strchr(run.out, '\n') == run.out + run.length - 1,
                  "the answer is not one line ending in a newline: %s", run.out);
    return run.out;
}

/* The same for a document written with ' for ", the answer parsed. */
static json_t *answer_of(const char *quoted, int expected_status)
{
    char *text = strdup(quoted);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    char *out = output_of(text, expected_status);
    free(text);
    json_t *answer = json_loads(out, 0, NULL);
    ck_assert_msg(answer != NULL, "the answer is not JSON: %s", out);
    free(out);
    return answer;
}

static void assert_code(json_t *answer, const char *code)
{
    json_t *error = json_object_get(answer, "error");
    char *got = json_dumps(answer, JSON_COMPACT);
    ck_assert_msg(error != NULL && json_is_string(json_object_get(error, "message")), "no error in %s", got);
    ck_assert_msg(strcmp(json_string_value(json_object_get(error, "code")), code) == 0, "expected %s, got %s", code,
                  got);
    free(got);
    json_decref(answer);
}

START_TEST(test_every_score_case_of_the_worked_file)
{
    json_error_t error;
    json_t *file = json_load_file(worked_path, 0, &error);
    ck_assert_msg(file != NULL, "%s: %s", worked_path, error.text);
    size_t i;
    json_t *c;
    json_array_foreach (json_object_get(file, "score"), i, c) {
        char *doc = json_dumps(json_object_get(c, "input"), JSON_COMPACT);
        char *out = output_of(doc, 0);
        json_t *answer = json_loads(out, 0, NULL);
        ck_assert_msg(json_integer_value(json_object_get(answer, "fan")) == json_integer_value(json_object_get(c, "fan")),
                      "%s: expected %lld, got %s", json_string_value(json_object_get(c, "name")),
                      (long long)json_integer_value(json_object_get(c, "fan")), out);
        json_decref(answer);
        free(out);
        free(doc);
    }
    ck_assert_int_eq(i, 26);
    json_decref(file);
}
END_TEST

START_TEST(test_every_settle_case_of_the_worked_file)
{
    json_error_t error;
    json_t *file = json_load_file(worked_path, 0, &error);
    ck_assert_msg(file != NULL, "%s: %s", worked_path, error.text);
    size_t i;
    json_t *c;
    json_array_foreach (json_object_get(file, "settle"), i, c) {
        char *doc = json_dumps(json_object_get(c, "input"), JSON_COMPACT);
        char *out = output_of(doc, 0);
        json_t *answer = json_loads(out, 0, NULL);
        ck_assert_msg(json_equal(json_object_get(answer, "net"), json_object_get(c, "net")) &&
                          json_equal(json_object_get(answer, "next_banker"), json_object_get(c, "next_banker")) &&
                          json_equal(json_object_get(answer, "next_must_sit"), json_object_get(c, "next_must_sit")),
                      "settle case %zu: got %s", i, out);
        json_decref(answer);
        free(out);
        free(doc);
    }
    ck_assert_int_ge(i, 1);
    json_decref(file);
}
END_TEST

START_TEST(test_the_score_example_of_section_seven_to_the_byte)
{
    char *out = output_of("{\"mode\":\"score\",\"game\":\"tianjin\",\"options\":{},"
                          "\"concealed\":[\"1m\",\"2m\",\"3m\",\"4m\",\"6m\",\"7m\",\"8m\",\"9m\",\"N\",\"N\"],"
                          "\"melds\":[{\"kind\":\"kong\",\"tiles\":[\"9s\",\"9s\",\"9s\",\"9s\"]}],"
                          "\"indicator\":\"E\",\"win_tile\":\"5m\",\"kong_replacement\":true,\"first_draw\":false,"
                          "\"dealer\":false}",
                          0);
    ck_assert_str_eq(out, "{\"fan\":28,\"names\":[\"素\",\"捉五\",\"杠开\",\"龙\"],\"reading\":[[\"1m\",\"2m\",\"3m\"],"
                          "[\"4m\",\"5m\",\"6m\"],[\"7m\",\"8m\",\"9m\"],[\"N\",\"N\"],[\"9s\",\"9s\",\"9s\",\"9s\"]]}\n");
    free(out);
}
END_TEST

START_TEST(test_the_settle_example_of_section_seven_to_the_byte)
{
    char *out = output_of("{\"mode\":\"settle\",\"game\":\"tianjin\",\"options\":{\"max_pulls\":2},"
                          "\"banker\":0,\"sat\":true,\"pulls\":[0,2,0,1],\"winner\":2,\"fan\":6,"
                          "\"kongs\":[{\"seat\":1,\"kind\":\"kong\"},{\"seat\":2,\"kind\":\"concealed_kong\"}],"
                          "\"chan\":false,\"wild_discards\":[3]}",
                          0);
    ck_assert_str_eq(out, "{\"payments\":["
                          "{\"from\":0,\"to\":2,\"units\":12,\"why\":\"self-drawn win (自摸)\"},"
                          "{\"from\":1,\"to\":2,\"units\":6,\"why\":\"self-drawn win (自摸)\"},"
                          "{\"from\":3,\"to\":2,\"units\":6,\"why\":\"self-drawn win (自摸)\"},"
                          "{\"from\":0,\"to\":1,\"units\":8,\"why\":\"exposed kong (明杠)\"},"
                          "{\"from\":2,\"to\":1,\"units\":1,\"why\":\"exposed kong (明杠)\"},"
                          "{\"from\":3,\"to\":1,\"units\":1,\"why\":\"exposed kong (明杠)\"},"
                          "{\"from\":0,\"to\":2,\"units\":4,\"why\":\"concealed kong (暗杠)\"},"
                          "{\"from\":1,\"to\":2,\"units\":2,\"why\":\"concealed kong (暗杠)\"},"
                          "{\"from\":3,\"to\":2,\"units\":2,\"why\":\"concealed kong (暗杠)\"}],"
                          "\"net\":[-24,2,31,-9],\"next_banker\":1,\"next_must_sit\":false}\n");
    free(out);
}
END_TEST

START_TEST(test_each_refusal_code_exits_one)
{
    assert_code(answer_of("{'mode':'score','game':'tianjin'}", 1), "bad_request");
    assert_code(answer_of("{'mode':'score','game':'tianjin','concealed':['1m','2m','3m','4m','6m','7m','8m','9m',"
                          "'9s','N'],'melds':[{'kind':'kong','tiles':['9s','9s','9s','9s']}],'indicator':'E',"
                          "'win_tile':'5m','kong_replacement':true,'first_draw':false,'dealer':false}",
                          1),
                "impossible");
    assert_code(answer_of("{'mode':'score','game':'tianjin','concealed':['1m','2m','3m','4m','6m','7m','8m','9m',"
                          "'N','N'],'melds':[{'kind':'kong','tiles':['9s','9s','9s','9s']}],'indicator':'E',"
                          "'win_tile':'5p','kong_replacement':true,'first_draw':false,'dealer':false}",
                          1),
                "not_a_win");
    assert_code(answer_of("{'mode':'score','game':'tianjin','concealed':['1m','E','3m','4p','5p','6p','7s','8s','9s',"
                          "'2m','3m','4m','N'],'melds':[],'indicator':'E','win_tile':'N','kong_replacement':false,"
                          "'first_draw':false,'dealer':false}",
                          1),
                "under_minimum");
    assert_code(answer_of("{'mode':'settle','game':'tianjin','banker':0,'sat':false,'pulls':[0,1,0,0],'winner':2,"
                          "'fan':6,'kongs':[],'chan':false,'wild_discards':[]}",
                          1),
                "impossible");
}
END_TEST

/* --- replay mode --- */

static json_t *load_replay(void)
{
    json_error_t error;
    json_t *example = json_load_file(replay_path, 0, &error);
    ck_assert_msg(example != NULL, "%s: %s", replay_path, error.text);
    return example;
}

/* The answer to a JSON value as a document. */
static json_t *answer_to(const json_t *doc, int expected_status)
{
    char *text = json_dumps(doc, JSON_COMPACT);
    char *out = output_of(text, expected_status);
    json_t *answer = json_loads(out, JSON_PRESERVE_ORDER, NULL);
    ck_assert_msg(answer != NULL, "the answer is not JSON: %s", out);
    free(text);
    free(out);
    return answer;
}

START_TEST(test_the_replay_example_answers_exactly_its_output)
{
    json_t *example = load_replay();
    char *input = json_dumps(json_object_get(example, "input"), JSON_INDENT(1));
    char *expected = json_dumps(json_object_get(example, "output"), JSON_COMPACT | JSON_PRESERVE_ORDER);
    char *out = output_of(input, 0);
    size_t length = strlen(expected);
    ck_assert_msg(strncmp(out, expected, length) == 0 && strcmp(out + length, "\n") == 0, "got %s", out);
    free(out);
    free(expected);
    free(input);
    json_decref(example);
}
END_TEST

/* The replay's win is what score mode says of the same hand, and its payments what settle mode says
 * of the same outcome. */
START_TEST(test_the_replays_win_and_payments_agree_with_score_and_settle_modes)
{
    json_t *example = load_replay();
    const json_t *output = json_object_get(example, "output"), *win = json_object_get(output, "win");
    ck_assert(json_is_object(win));
    json_t *score = json_pack("{s:s, s:s, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O}", "mode", "score", "game", "tianjin",
                              "options", json_object_get(json_object_get(example, "input"), "options"), "concealed",
                              json_object_get(win, "concealed"), "melds", json_object_get(win, "melds"), "indicator",
                              json_object_get(output, "indicator"), "win_tile", json_object_get(win, "win_tile"),
                              "kong_replacement", json_object_get(win, "kong_replacement"), "first_draw",
                              json_object_get(win, "first_draw"), "dealer", json_object_get(win, "dealer"));
    /* the table's own option is no rule: score mode does not know it */
    json_t *options = json_object_get(score, "options");
    if (json_is_object(options))
        json_object_del(options, "claim_seconds");
    json_t *scored = answer_to(score, 0);
    ck_assert(json_equal(json_object_get(scored, "fan"), json_object_get(win, "fan")));
    ck_assert(json_equal(json_object_get(scored, "names"), json_object_get(win, "names")));

    json_t *settle = json_pack("{s:s, s:s, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O, s:O}", "mode", "settle", "game",
                               "tianjin", "options", json_object_get(score, "options"), "banker",
                               json_object_get(output, "banker"), "sat", json_object_get(output, "sat"), "pulls",
                               json_object_get(output, "pulls"), "winner", json_object_get(output, "winner"), "fan",
                               json_object_get(win, "fan"), "kongs", json_object_get(output, "kongs"), "chan",
                               json_object_get(output, "chan"), "wild_discards",
                               json_object_get(output, "wild_discards"));
    json_t *settled = answer_to(settle, 0);
    json_t *payments = json_deep_copy(json_object_get(output, "payments"));
    size_t i;
    json_t *payment;
    json_array_foreach (payments, i, payment)
        json_object_del(payment, "factor");
    ck_assert(json_equal(json_object_get(settled, "payments"), payments));
    ck_assert(json_equal(json_object_get(settled, "net"), json_object_get(output, "net")));
    ck_assert(json_equal(json_object_get(settled, "next_banker"), json_object_get(output, "next_banker")));
    ck_assert(json_equal(json_object_get(settled, "next_must_sit"), json_object_get(output, "next_must_sit")));
    json_decref(payments);
    json_decref(settled);
    json_decref(settle);
    json_decref(scored);
    json_decref(score);
    json_decref(example);
}
END_TEST

START_TEST(test_a_refused_or_missing_replay_action_exits_one)
{
    json_t *example = load_replay();
    json_t *input = json_deep_copy(json_object_get(example, "input"));
    json_t *actions = json_object_get(input, "actions");
    /* the banker's decision comes first; seat 1 may not make it */
    json_object_set_new(json_array_get(actions, 0), "seat", json_integer(1));
    json_t *answer = answer_to(input, 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(answer, "error"), "code")), "illegal_action");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(json_object_get(answer, "error"), "message")),
                                 "actions[0]"));
    json_decref(answer);
    json_decref(input);
    input = json_deep_copy(json_object_get(example, "input"));
    actions = json_object_get(input, "actions");
    json_array_remove(actions, json_array_size(actions) - 1);
    answer = answer_to(input, 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(answer, "error"), "code")), "illegal_action");
    json_decref(answer);
    json_decref(input);
    json_decref(example);
}
END_TEST

static Suite *mj_score_exe_suite(void)
{
    Suite *s = suite_create("mj_score_exe");
    TCase *examples = tcase_create("examples");
    tcase_set_timeout(examples, 60);
    tcase_add_test(examples, test_every_score_case_of_the_worked_file);
    tcase_add_test(examples, test_every_settle_case_of_the_worked_file);
    tcase_add_test(examples, test_the_score_example_of_section_seven_to_the_byte);
    tcase_add_test(examples, test_the_settle_example_of_section_seven_to_the_byte);
    tcase_add_test(examples, test_the_replay_example_answers_exactly_its_output);
    tcase_add_test(examples, test_the_replays_win_and_payments_agree_with_score_and_settle_modes);
    suite_add_tcase(s, examples);
    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_each_refusal_code_exits_one);
    tcase_add_test(errors, test_a_refused_or_missing_replay_action_exits_one);
    suite_add_tcase(s, errors);
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s <teahouse-score> <tianjin-worked.json> <tianjin-replay.json>\n", argv[0]);
        return EXIT_FAILURE;
    }
    score_path = argv[1];
    worked_path = argv[2];
    replay_path = argv[3];
    SRunner *runner = srunner_create(mj_score_exe_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
