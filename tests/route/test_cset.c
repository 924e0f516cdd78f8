/* The .cset format (docs/conset.md): what parses, what it means, and every error at its file:line:col. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"
#include "route_test.h"

/* Parses text and returns every diagnostic as "line:col: message\n" lines. */
static char *diagnose(const char *text, size_t len, cset_t *s)
{
    cset_diags_t d;
    size_t errors = cset_parse(s, text, len, &d);
    assert_int_equal(errors, d.n);
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    assert_non_null(f);
    for (size_t i = 0; i < d.n; i++)
        fprintf(f, "%u:%u: %s\n", d.v[i].line, d.v[i].col, d.v[i].msg);
    fclose(f);
    cset_diags_free(&d);
    return out;
}

/* The set in the .cset syntax (cset_write), *len bytes. */
static char *written(const cset_t *s, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    assert_int_equal(cset_write(s, f), 0);
    fclose(f);
    return text;
}

/* The diagnostics of text must be exactly `expect`. */
static void expect_diags(const char *text, const char *expect)
{
    cset_t s;
    char *got = diagnose(text, strlen(text), &s);
    if (strcmp(got, expect) != 0)
        fail_msg("diagnostics of\n%s---\ngot:\n%s---\nexpected:\n%s", text, got, expect);
    free(got);
    cset_free(&s);
}

static void test_a_file_gives_the_array_capacity_tasks_and_connections_in_order(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "# two tasks\n"
                 "array 4x3\n"
                 "capacity 16   # all user channels\n"
                 "conn a 0,0 3,2 10\n"
                 "task second\n"
                 "conn b 1,2 1,2 7\n"
                 "task main\n"
                 "conn c 3,0 0,0 1 after a\n");
    assert_int_equal(s.width, 4);
    assert_int_equal(s.height, 3);
    assert_int_equal(s.capacity, 16);
    assert_int_equal(s.ntasks, 2);
    assert_string_equal(s.tasks[0], "main");
    assert_string_equal(s.tasks[1], "second");
    assert_int_equal(s.nconns, 3);
    assert_string_equal(s.conns[0].id, "a");
    assert_int_equal(s.conns[0].src, 0);
    assert_int_equal(s.conns[0].dst, 2 * 4 + 3);
    assert_int_equal(s.conns[0].words, 10);
    assert_int_equal(s.conns[1].task, 1);
    assert_int_equal(s.conns[1].src, s.conns[1].dst);
    assert_int_equal(s.conns[2].task, 0);
    assert_int_equal(s.conns[2].nafter, 1);
    assert_int_equal(s.conns[2].after[0], 0);
    assert_int_equal(s.conns[2].line, 8);
    cset_free(&s);
}

static void test_an_empty_file_is_an_8x8_array_of_capacity_12_and_no_connections(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "");
    assert_int_equal(s.width, 8);
    assert_int_equal(s.height, 8);
    assert_int_equal(s.capacity, 12);
    assert_int_equal(s.nconns, 0);
    assert_int_equal(s.ntasks, 0);
    cset_free(&s);
}

static void test_after_may_name_later_connections_and_several_at_once(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "conn x 0,0 1,0 5 after y z\nconn y 1,0 2,0 5\r\nconn z 2,0 3,0 5\n");
    assert_int_equal(s.conns[0].nafter, 2);
    assert_int_equal(s.conns[0].after[0], 1);
    assert_int_equal(s.conns[0].after[1], 2);
    cset_free(&s);
}

static void test_directive_errors_name_line_and_column(void **state)
{
    (void)state;
    expect_diags("array 8y8\n"
                 "array 33x2\n"
                 "capacity 17\n"
                 "capacity 0\n"
                 "capacity\n"
                 "frobnicate 1\n"
                 "  task\n"
                 "task a b\n"
                 "task bad/name\n",
                 "1:7: array wants WxH with sides 1..32, not '8y8'\n"
                 "2:7: array wants WxH with sides 1..32, not '33x2'\n"
                 "3:10: capacity must be 1..16 channels, not '17'\n"
                 "4:10: capacity must be 1..16 channels, not '0'\n"
                 "5:9: capacity wants one number, 1..16\n"
                 "6:1: unknown directive 'frobnicate' (array, capacity, compiler, task, conn)\n"
                 "7:7: task wants one name\n"
                 "8:8: task wants one name\n"
                 "9:6: 'bad/name' is not a valid task name (letters, digits, '_', '.', '-', ':')\n");
}

static void test_array_and_capacity_are_given_once_and_the_array_before_connections(void **state)
{
    (void)state;
    expect_diags("capacity 8\n"
                 "conn a 0,0 1,1 3\n"
                 "array 4x4\n"
                 "capacity 9\n",
                 "3:1: array must come before the first conn (line 2)\n"
                 "4:1: capacity given twice (first at line 1)\n");
    expect_diags("array 4x4\narray 4x4\n", "2:1: array given twice (first at line 1)\n");
}

/* `compiler paper` marks the set for the paper's compiler (route_options_t.paper), once, and is written back;
 * a set without it is written as before, so the files of sets made earlier do not change. */
static void test_the_compiler_directive_is_given_once_and_written_back(void **state)
{
    (void)state;
    cset_t s;
    rt_parse(&s, "array 2x1\ncompiler paper\nconn a 0,0 1,0 5\n");
    assert_true(s.paper);
    size_t len;
    char *text = written(&s, &len);
    assert_non_null(strstr(text, "\ncapacity 12\ncompiler paper\n"));
    cset_t again;
    rt_parse(&again, text);
    assert_true(again.paper);
    free(text);
    cset_free(&again);
    cset_free(&s);
    rt_parse(&s, "compiler ours\n");
    assert_false(s.paper);
    text = written(&s, &len);
    assert_null(strstr(text, "compiler"));
    free(text);
    cset_free(&s);
    expect_diags("compiler paper\ncompiler ours\ncompiler\ncompiler fast\ncompiler paper ours\n",
                 "2:1: compiler given twice (first at line 1)\n"
                 "3:9: compiler wants paper or ours\n"
                 "4:10: compiler wants paper or ours\n"
                 "5:10: compiler wants paper or ours\n");
}

static void test_connection_errors_name_the_field(void **state)
{
    (void)state;
    expect_diags("array 4x4\n"
                 "conn\n"
                 "conn a\n"
                 "conn a 0,0\n"
                 "conn a 0,0 1,1\n"
                 "conn b 4,0 1,1 3\n"
                 "conn c 0,0 1;1 3\n"
                 "conn d 0,0 1,1 0\n"
                 "conn e 0,0 1,1 2147483648\n"
                 "conn f 0,0 1,1 12x\n"
                 "conn g 0,0 1,1 3 before h\n"
                 "conn h 0,0 1,1 3 after\n"
                 "conn after 0,0 1,1 3\n"
                 "conn i! 0,0 1,1 3\n",
                 "2:5: expected ID: conn ID SRC DST WORDS [after ID...]\n"
                 "3:7: expected SRC: conn ID SRC DST WORDS [after ID...]\n"
                 "4:11: expected DST: conn ID SRC DST WORDS [after ID...]\n"
                 "5:15: expected WORDS: conn ID SRC DST WORDS [after ID...]\n"
                 "6:8: SRC 4,0 is outside the 4x4 array\n"
                 "7:12: DST wants a cell X,Y, not '1;1'\n"
                 "8:16: WORDS must be 1..2147483647, not '0'\n"
                 "9:16: WORDS must be 1..2147483647, not '2147483648'\n"
                 "10:16: WORDS must be 1..2147483647, not '12x'\n"
                 "11:18: unexpected 'before' (only 'after ID...' may follow WORDS)\n"
                 "12:23: after wants at least one connection id\n"
                 "13:6: 'after' is a keyword, not a connection id\n"
                 "14:6: 'i!' is not a valid connection id (letters, digits, '_', '.', '-', ':')\n");
}

static void test_duplicate_ids_point_at_the_first_definition(void **state)
{
    (void)state;
    expect_diags("conn a 0,0 1,1 3\n\nconn a 0,1 1,1 3\n", "3:6: connection 'a' is already defined at line 1\n");
}

static void test_after_errors_are_reported_in_file_order_with_the_others(void **state)
{
    (void)state;
    expect_diags("conn a 0,0 1,0 1 after nobody\n"
                 "conn b 0,0 1,0 1 after b\n"
                 "conn c 9,9 1,0 1\n"
                 "task other\n"
                 "conn d 0,0 1,0 1 after a\n",
                 "1:24: no connection 'nobody' (named after 'after')\n"
                 "2:24: connection 'b' cannot be used after itself\n"
                 "3:8: SRC 9,9 is outside the 8x8 array\n"
                 "5:24: 'a' belongs to task main, not other: ordering constraints stay within a task (phases never "
                 "mix tasks)\n");
}

static void test_a_cycle_of_ordering_constraints_is_one_error_and_is_broken(void **state)
{
    (void)state;
    const char *text = "conn a 0,0 1,0 1 after c\n"
                       "conn b 0,0 1,0 1 after a\n"
                       "conn c 0,0 1,0 1 after b\n"
                       "conn d 0,0 1,0 1 after d2\n"
                       "conn d2 0,0 1,0 1 after d\n";
    expect_diags(text, "3:24: ordering constraints form a cycle: c after b after a after c\n"
                       "5:25: ordering constraints form a cycle: d2 after d after d2\n");
    /* What remains is acyclic and compiles. */
    cset_t s;
    cset_diags_t d;
    cset_parse(&s, text, strlen(text), &d);
    cset_diags_free(&d);
    assert_int_equal(s.conns[2].nafter, 0);
    assert_int_equal(s.conns[4].nafter, 0);
    route_plan_t plan;
    rt_compile(&s, 0, &plan);
    rt_check_plan(&s, &plan);
    route_plan_free(&plan);
    cset_free(&s);
}

static void test_task_names_are_compared_whole_however_long(void **state)
{
    (void)state;
    /* Two names of 300 characters that differ only in the last: two tasks, so an `after` across them is an
     * error (names were once cut at 255 characters, which merged the tasks and let it through). */
    char one[301], two[301];
    memset(one, 'x', 300);
    memcpy(two, one, 300);
    one[299] = '1';
    two[299] = '2';
    one[300] = two[300] = '\0';
    char text[1024];
    snprintf(text, sizeof text, "task %s\nconn a 0,0 1,0 1\ntask %s\nconn b 0,0 1,0 1 after a\n", one, two);
    cset_t s;
    char *got = diagnose(text, strlen(text), &s);
    assert_non_null(strstr(got, "4:24: 'a' belongs to task xxx"));
    assert_int_equal(s.ntasks, 2);
    assert_string_equal(s.tasks[0], one);
    assert_string_equal(s.tasks[1], two);
    free(got);
    cset_free(&s);
    /* The same long name again is the same task. */
    snprintf(text, sizeof text,
             "task %s\nconn a 0,0 1,0 1\ntask main\nconn b 0,0 1,0 1\ntask %s\nconn c 0,0 1,0 1 after a\n", one, one);
    rt_parse(&s, text);
    assert_int_equal(s.ntasks, 2);
    assert_int_equal(s.conns[2].task, 0);
    cset_free(&s);
}

/* True when the set's ordering constraints have no cycle (Kahn's algorithm). */
static bool acyclic(const cset_t *s)
{
    unsigned n = s->nconns, done = 0, *left = calloc(n + 1, sizeof *left), *queue = malloc(sizeof *queue * (n + 1));
    assert_non_null(left);
    assert_non_null(queue);
    unsigned tail = 0;
    for (unsigned i = 0; i < n; i++)
        if ((left[i] = s->conns[i].nafter) == 0)
            queue[tail++] = i;
    while (done < tail) {
        unsigned u = queue[done++];
        for (unsigned i = 0; i < n; i++) /* quadratic, but the sets here are small */
            for (unsigned k = 0; k < s->conns[i].nafter; k++)
                if (s->conns[i].after[k] == u && --left[i] == 0)
                    queue[tail++] = i;
    }
    free(left);
    free(queue);
    return tail == n;
}

static bool has_after(const cset_t *s, unsigned later, unsigned earlier)
{
    for (unsigned k = 0; k < s->conns[later].nafter; k++)
        if (s->conns[later].after[k] == earlier)
            return true;
    return false;
}

static void test_every_cycle_is_reported_as_a_real_cycle_and_what_remains_is_acyclic(void **state)
{
    (void)state;
    uint64_t r = 11;
    for (unsigned round = 0; round < 300; round++) {
        /* A random graph of constraints, often cyclic, sometimes with several cycles through one connection. */
        unsigned n = 2 + (unsigned)(splitmix64_next(&r) % 20), m = (unsigned)(splitmix64_next(&r) % (3 * n));
        cset_t all;
        assert_int_equal(cset_init(&all, 2, 2, 4), 0);
        unsigned task = cset_task(&all, "main");
        for (unsigned i = 0; i < n; i++) {
            char id[16];
            snprintf(id, sizeof id, "c%u", i);
            assert_int_not_equal(cset_add(&all, id, 0, 1, 1, task), CSET_NONE);
        }
        for (unsigned k = 0; k < m; k++) {
            unsigned a = (unsigned)(splitmix64_next(&r) % n), b = (unsigned)(splitmix64_next(&r) % n);
            if (a != b)
                assert_int_equal(cset_add_after(&all, a, b), 0);
        }
        size_t len;
        char *text = written(&all, &len);
        cset_t s;
        cset_diags_t d;
        size_t errors = cset_parse(&s, text, len, &d);
        /* One error per constraint dropped, none when there was no cycle, and no cycle left. */
        unsigned kept = 0, had = 0;
        for (unsigned i = 0; i < n; i++) {
            kept += s.conns[i].nafter;
            had += all.conns[i].nafter;
            for (unsigned k = 0; k < s.conns[i].nafter; k++)
                assert_true(has_after(&all, i, s.conns[i].after[k]));
        }
        assert_int_equal(errors, had - kept);
        assert_int_equal(errors == 0, acyclic(&all));
        assert_true(acyclic(&s));
        /* Each message walks a cycle of the constraints as written: "X after Y after ... after X". */
        for (size_t e = 0; e < d.n; e++) {
            const char *at = strstr(d.v[e].msg, "form a cycle: ");
            assert_non_null(at);
            at += strlen("form a cycle: ");
            unsigned first, prev, next;
            int used;
            assert_int_equal(sscanf(at, "c%u%n", &first, &used), 1);
            at += used;
            prev = first;
            while (sscanf(at, " after c%u%n", &next, &used) == 1) {
                assert_true(has_after(&all, prev, next));
                prev = next;
                at += used;
            }
            assert_int_equal(prev, first);
            assert_int_equal(*at, '\0');
        }
        cset_diags_free(&d);
        cset_free(&s);
        cset_free(&all);
        free(text);
    }
}

static void test_dropping_a_cycle_keeps_the_other_constraints_in_their_order(void **state)
{
    (void)state;
    const char *text = "conn w 0,0 1,0 1\n"
                       "conn x 0,0 1,0 1\n"
                       "conn y 0,0 1,0 1\n"
                       "conn b 0,0 1,0 1 after a\n"
                       "conn a 0,0 1,0 1 after w b x y\n";
    expect_diags(text, "5:26: ordering constraints form a cycle: a after b after a\n");
    cset_t s;
    cset_diags_t d;
    cset_parse(&s, text, strlen(text), &d);
    cset_diags_free(&d);
    assert_int_equal(s.conns[4].nafter, 3);
    assert_string_equal(s.conns[s.conns[4].after[0]].id, "w");
    assert_string_equal(s.conns[s.conns[4].after[1]].id, "x");
    assert_string_equal(s.conns[s.conns[4].after[2]].id, "y");
    cset_free(&s);
}

static void test_bytes_that_are_not_text_are_errors_not_crashes(void **state)
{
    (void)state;
    /* Control characters are refused where they stand, as in run descriptions (one splitter for both);
     * other bytes that are not ASCII show as '?' in messages. */
    static const char text[] = "conn a\0b 0,0 1,0 1\nconn \x01\xff 0,0 1,0 1\n\0\0\0\nconn \xff\xfe 0,0 1,0 1\n";
    cset_t s;
    char *got = diagnose(text, sizeof text - 1, &s);
    assert_string_equal(got, "1:7: unexpected control character 0x00\n"
                             "2:6: unexpected control character 0x01\n"
                             "3:1: unexpected control character 0x00\n"
                             "4:6: '?\?' is not a valid connection id (letters, digits, '_', '.', '-', ':')\n");
    free(got);
    cset_free(&s);
}

static void test_every_error_of_a_long_file_is_reported(void **state)
{
    (void)state;
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    assert_non_null(f);
    for (unsigned i = 0; i < 500; i++)
        fprintf(f, "conn c%u 0,0 99,0 1\n", i);
    fclose(f);
    cset_t s;
    cset_diags_t d;
    assert_int_equal(cset_parse(&s, text, n, &d), 500);
    assert_int_equal(d.v[499].line, 500);
    cset_diags_free(&d);
    cset_free(&s);
    free(text);
}

static void test_written_sets_parse_back_the_same(void **state)
{
    (void)state;
    cset_t s;
    rt_random_set(&s, 7, 5, 3, 200, 9, true);
    size_t n;
    char *text = written(&s, &n);
    cset_t back;
    rt_parse(&back, text);
    assert_int_equal(back.width, s.width);
    assert_int_equal(back.height, s.height);
    assert_int_equal(back.capacity, s.capacity);
    assert_int_equal(back.nconns, s.nconns);
    for (unsigned i = 0; i < s.nconns; i++) {
        assert_string_equal(back.conns[i].id, s.conns[i].id);
        assert_int_equal(back.conns[i].src, s.conns[i].src);
        assert_int_equal(back.conns[i].dst, s.conns[i].dst);
        assert_int_equal(back.conns[i].words, s.conns[i].words);
        assert_string_equal(back.tasks[back.conns[i].task], s.tasks[s.conns[i].task]);
        assert_int_equal(back.conns[i].nafter, s.conns[i].nafter);
        for (unsigned k = 0; k < s.conns[i].nafter; k++)
            assert_int_equal(back.conns[i].after[k], s.conns[i].after[k]);
    }
    cset_free(&back);
    cset_free(&s);
    free(text);
}

static void test_an_unreadable_file_is_one_diagnostic(void **state)
{
    (void)state;
    cset_t s;
    cset_diags_t d;
    assert_int_equal(cset_parse_file(&s, "/nonexistent/route.cset", &d), 1);
    assert_int_equal(d.v[0].line, 0);
    assert_non_null(strstr(d.v[0].msg, "cannot read"));
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    assert_non_null(f);
    cset_print_diags(&d, "/nonexistent/route.cset", f);
    fclose(f);
    assert_non_null(strstr(out, "/nonexistent/route.cset: cannot read: "));
    free(out);
    cset_diags_free(&d);
    cset_free(&s);
}

static void test_printed_diagnostics_are_file_line_col_message(void **state)
{
    (void)state;
    cset_t s;
    cset_diags_t d;
    const char *text = "array 2x2\nconn a 0,0 2,0 4\n";
    cset_parse(&s, text, strlen(text), &d);
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    assert_non_null(f);
    cset_print_diags(&d, "set.cset", f);
    fclose(f);
    assert_string_equal(out, "set.cset:2:12: DST 2,0 is outside the 2x2 array\n");
    free(out);
    cset_diags_free(&d);
    cset_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_file_gives_the_array_capacity_tasks_and_connections_in_order),
        cmocka_unit_test(test_an_empty_file_is_an_8x8_array_of_capacity_12_and_no_connections),
        cmocka_unit_test(test_after_may_name_later_connections_and_several_at_once),
        cmocka_unit_test(test_directive_errors_name_line_and_column),
        cmocka_unit_test(test_array_and_capacity_are_given_once_and_the_array_before_connections),
        cmocka_unit_test(test_the_compiler_directive_is_given_once_and_written_back),
        cmocka_unit_test(test_connection_errors_name_the_field),
        cmocka_unit_test(test_duplicate_ids_point_at_the_first_definition),
        cmocka_unit_test(test_after_errors_are_reported_in_file_order_with_the_others),
        cmocka_unit_test(test_a_cycle_of_ordering_constraints_is_one_error_and_is_broken),
        cmocka_unit_test(test_task_names_are_compared_whole_however_long),
        cmocka_unit_test(test_every_cycle_is_reported_as_a_real_cycle_and_what_remains_is_acyclic),
        cmocka_unit_test(test_dropping_a_cycle_keeps_the_other_constraints_in_their_order),
        cmocka_unit_test(test_bytes_that_are_not_text_are_errors_not_crashes),
        cmocka_unit_test(test_every_error_of_a_long_file_is_reported),
        cmocka_unit_test(test_written_sets_parse_back_the_same),
        cmocka_unit_test(test_an_unreadable_file_is_one_diagnostic),
        cmocka_unit_test(test_printed_diagnostics_are_file_line_col_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
