/* libFuzzer harness: the HPF assignment parser of `iwarp hpf` (hpf_parse_case). The first three bytes choose
 * the array's sides and the task; the rest is the text. A case that parses must use the task's cells on both
 * sides and come back the same through its own text (hpf_case_text, parsed again). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hpf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3 || size > 4096)
        return 0;
    unsigned n0 = 1u + data[0] * 3u, n1 = 1u + data[1] * 5u, task = 1u + data[2] % HPF_MAX_TASK;
    char *text = malloc(size - 2);
    if (text == NULL)
        return 0;
    memcpy(text, data + 3, size - 3);
    text[size - 3] = '\0';
    hpf_case_t c, again;
    char err[256], back[128];
    if (hpf_parse_case(text, n0, n1, task, &c, err, sizeof err) == 0) {
        for (unsigned d = 0; d < 2; d++)
            if (c.src[d].k == 0 || c.dst[d].k == 0)
                abort();
        if (c.src[0].p * c.src[1].p != task || c.dst[0].p * c.dst[1].p != task)
            abort();
        hpf_case_text(&c, back, sizeof back);
        if (hpf_parse_case(back, n0, n1, task, &again, err, sizeof err) != 0 || memcmp(&c, &again, sizeof c) != 0)
            abort();
    }
    free(text);
    return 0;
}
