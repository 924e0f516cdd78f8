/* libFuzzer harness: demo narrative files (programs/demos/NAME.txt, docs/demos.md). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (text == NULL)
        return 0;
    demo_t d;
    char err[512];
    if (demo_parse(&d, "fuzz", text, err, sizeof err) == 0) {
        /* What the viewer does with the narrative every frame: the paragraphs that show, the cells they select. */
        int x, y;
        (void)demo_select_entered(d.narrative, UINT64_MAX, 100, &x, &y);
        (void)demo_select_entered(d.narrative, 100, 5, &x, &y);
        (void)demo_selects_fit(d.narrative, 8, 8, &x, &y);
        size_t skip;
        (void)demo_paragraph_shows(d.narrative, strlen(d.narrative), 50, &skip);
        demo_free(&d);
    }
    free(text);
    return 0;
}
