/* iwarp coll: one collective pattern on the emulated array, every word checked, beside the buffered collectives paper's
 * model (docs/collectives.md). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "coll.h"
#include "coll_cli.h"
#include "coll_model.h"
#include "commands.h"
#include "emu.h"
#include "json.h"

typedef struct report {
    const coll_case_t *c;
    const coll_result_t *r;
    const coll_result_t *one; /* the model's message, or NULL */
    coll_factor_t f;
} report_t;

static void print_json(const report_t *p)
{
    const coll_case_t *c = p->c;
    json_writer_t j;
    json_init(&j, stdout, true);
    json_begin_object(&j, NULL);
    json_string(&j, "pattern", coll_pattern_name(c->pattern));
    json_string(&j, "impl", coll_impl_name(c->impl));
    json_string(&j, "groups", coll_groups_name(c->groups));
    json_u64(&j, "width", c->width);
    json_u64(&j, "height", c->height);
    json_u64(&j, "group_cells", coll_group_size(c));
    json_u64(&j, "m", c->m);
    json_u64(&j, "n", c->n);
    json_u64(&j, "lda", c->lda);
    json_u64(&j, "chunk", c->impl == COLL_CHUNKED ? c->chunk : 0);
    json_u64(&j, "root", c->root);
    json_u64(&j, "clocks", p->r->clocks);
    json_u64(&j, "bytes", p->r->bytes);
    json_double(&j, "mbps", coll_mbps(p->r->bytes, p->r->clocks));
    json_u64(&j, "wrong", p->r->wrong);
    if (c->impl == COLL_CONSET)
        json_u64(&j, "phases", p->r->phases);
    if (c->pattern == COLL_BSEND) {
        json_u64(&j, "send_return_clocks", p->r->send_return);
        json_u64(&j, "recv_post_clocks", p->r->recv_post);
    }
    if (p->one != NULL) {
        json_u64(&j, "message_clocks", p->one->clocks);
        json_double(&j, "model_factor_lo", p->f.lo);
        json_double(&j, "model_factor_hi", p->f.hi);
        json_double(&j, "model_clocks_lo", p->f.lo * (double)p->one->clocks);
        json_double(&j, "model_clocks_hi", p->f.hi * (double)p->one->clocks);
    }
    json_end_object(&j);
    json_finish(&j);
}

static void print_text(const report_t *p)
{
    const coll_case_t *c = p->c;
    const coll_result_t *r = p->r;
    static const char *const groups_text[COLL_GROUPINGS] = {"in rows", "in columns", "as one group"};
    printf("%s, %s, on the %ux%u array %s of %u cells: a %ux%u block, lda %u", coll_pattern_name(c->pattern),
           coll_impl_name(c->impl), c->width, c->height, groups_text[c->groups], coll_group_size(c), c->m, c->n,
           c->lda);
    if (c->impl == COLL_CHUNKED)
        printf(", chunks of %u word%s", c->chunk, c->chunk == 1 ? "" : "s");
    if (c->impl == COLL_CONSET)
        printf(", %u phase%s", r->phases, r->phases == 1 ? "" : "s");
    printf("\n  %llu clocks, %.2f MB/s a cell; every word of every cell: %s\n", (unsigned long long)r->clocks,
           coll_mbps(r->bytes, r->clocks), r->wrong == 0 ? "right" : "WRONG");
    if (r->wrong != 0)
        printf("  %llu words are not what they should be\n", (unsigned long long)r->wrong);
    if (c->pattern == COLL_BSEND)
        printf("  the sender returned from its buffered send after %llu clocks; the receiver posted its receive "
               "after %llu\n",
               (unsigned long long)r->send_return, (unsigned long long)r->recv_post);
    if (p->one != NULL) {
        printf("  model: one message of the block takes %llu clocks; ", (unsigned long long)p->one->clocks);
        if (p->f.lo == p->f.hi)
            printf("the pattern costs %.0f of them: %.0f clocks (emulated / model %.2f)\n", p->f.lo,
                   p->f.lo * (double)p->one->clocks, (double)r->clocks / (p->f.lo * (double)p->one->clocks));
        else
            printf("the pattern costs %.0f to %.0f of them: %.0f to %.0f clocks (emulated / model %.2f to %.2f)\n",
                   p->f.lo, p->f.hi, p->f.lo * (double)p->one->clocks, p->f.hi * (double)p->one->clocks,
                   (double)r->clocks / (p->f.lo * (double)p->one->clocks),
                   (double)r->clocks / (p->f.hi * (double)p->one->clocks));
        if (c->pattern == COLL_BSEND && c->delay > 0)
            printf("  (the model leaves out the receiver's --delay)\n");
    }
}

int cmd_coll(int argc, char **argv)
{
    coll_cli_t o;
    int rc = coll_cli_parse(argc, argv, &o);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    const coll_case_t c = o.c;
    unsigned threads = o.threads;
    bool json = o.json, model = o.model;
    char err[512];
    coll_result_t r, one;
    if (coll_run(&c, threads, &r, err, sizeof err) != 0) {
        fprintf(stderr, "iwarp coll: %s\n", err);
        return 1;
    }
    report_t p = {.c = &c, .r = &r};
    if (model) {
        coll_case_t m1 = coll_model_message(&c);
        if (coll_run(&m1, threads, &one, err, sizeof err) != 0) {
            fprintf(stderr, "iwarp coll: the model's message: %s\n", err);
            return 1;
        }
        p.one = &one;
        p.f = coll_model_factor(c.pattern, coll_group_size(&c));
    }
    if (json)
        print_json(&p);
    else
        print_text(&p);
    return r.wrong == 0 ? 0 : 1;
}
