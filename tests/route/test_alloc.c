/*
 * What the compiler asks of the allocator (malloc, calloc, realloc and strdup are wrapped at link time, see
 * meson.build). The bytes asked for are a deterministic measure of work that grows with the input: scratch
 * arrays sized for the whole set and allocated once per task or once per cycle made large sets quadratic.
 * Failures that the code must survive are made here too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conset/route_tables.h"
#include "route_test.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static bool counting, strdup_fails;
static uint64_t asked; /* bytes, while counting */

void *__wrap_malloc(size_t n)
{
    asked += counting ? n : 0;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    asked += counting ? n * size : 0;
    return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    asked += counting ? n : 0;
    return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
    return strdup_fails ? NULL : __real_strdup(s);
}

/* Bytes asked for while parsing text and, when it parses, compiling it and building its tables. */
static uint64_t bytes_to_compile(const char *text, size_t len)
{
    asked = 0;
    counting = true;
    cset_t s;
    cset_diags_t d;
    size_t errors = cset_parse(&s, text, len, &d);
    if (errors == 0) {
        route_options_t o;
        route_options_init(&o);
        route_plan_t plan;
        char err[256];
        assert_int_equal(route_compile(&s, &o, &plan, err, sizeof err), 0);
        celldata_t cd;
        assert_int_equal(route_tables(&plan, &cd, err, sizeof err), 0);
        celldata_free(&cd);
        route_plan_free(&plan);
    }
    counting = false;
    cset_diags_free(&d);
    cset_free(&s);
    return asked;
}

/* A set of n units, each made by unit(f, i). */
static char *make_set(unsigned n, void (*unit)(FILE *f, unsigned i), size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    fprintf(f, "array 4x4\n");
    for (unsigned i = 0; i < n; i++)
        unit(f, i);
    fclose(f);
    return text;
}

/* Four times the input must cost about four times the bytes, not sixteen. */
static void expect_linear(void (*unit)(FILE *f, unsigned i), const char *what)
{
    enum { N = 1000 };
    size_t len1, len4;
    char *one = make_set(N, unit, &len1), *four = make_set(4 * N, unit, &len4);
    uint64_t b1 = bytes_to_compile(one, len1), b4 = bytes_to_compile(four, len4);
    if (b4 > 6 * b1)
        fail_msg("%s: %u of them ask for %llu bytes, %u ask for %llu (%.1f times as many)", what, N,
                 (unsigned long long)b1, 4 * N, (unsigned long long)b4, (double)b4 / (double)b1);
    free(one);
    free(four);
}

static void two_cycle(FILE *f, unsigned i)
{
    fprintf(f, "conn a%u 0,0 1,0 1 after b%u\nconn b%u 0,0 1,0 1 after a%u\n", i, i, i, i);
}

static void one_connection_task(FILE *f, unsigned i)
{
    fprintf(f, "task t%u\nconn c%u %u,%u %u,%u 4\n", i, i, i % 4, i / 4 % 4, (i + 1) % 4, i / 16 % 4);
}

static void chain_link(FILE *f, unsigned i)
{
    if (i == 0)
        fprintf(f, "conn c0 0,0 1,0 2\n");
    else
        fprintf(f, "conn c%u %u,%u %u,%u 2 after c%u\n", i, i % 4, i / 4 % 4, (i + 1) % 4, i / 16 % 4, i - 1);
}

static void test_separate_cycles_cost_linear_work(void **state)
{
    (void)state;
    expect_linear(two_cycle, "separate cycles");
}

static void test_single_connection_tasks_cost_linear_work(void **state)
{
    (void)state;
    expect_linear(one_connection_task, "single-connection tasks");
}

static void test_a_chain_of_constraints_costs_linear_work(void **state)
{
    (void)state;
    expect_linear(chain_link, "a chain of constraints");
}

static void test_a_parse_error_without_memory_for_its_message_is_still_an_error(void **state)
{
    (void)state;
    char path[] = "/tmp/route_alloc_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("array 99x99\n", f);
    fclose(f);
    /* The message is made, then lost: strdup fails. */
    strdup_fails = true;
    celldata_t d;
    char err[512];
    int rc = route_file_tables(path, &d, NULL, err, sizeof err);
    strdup_fails = false;
    assert_int_equal(rc, -1);
    char want[600];
    snprintf(want, sizeof want, "%s: 1 error (out of memory for its message)", path);
    assert_string_equal(err, want);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_separate_cycles_cost_linear_work),
        cmocka_unit_test(test_single_connection_tasks_cost_linear_work),
        cmocka_unit_test(test_a_chain_of_constraints_costs_linear_work),
        cmocka_unit_test(test_a_parse_error_without_memory_for_its_message_is_still_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
