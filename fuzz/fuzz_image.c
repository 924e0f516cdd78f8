/* libFuzzer harness: the image parser on arbitrary bytes, then the decoder over the text of whatever
 * parses, and the disassembler over the whole image. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dis.h"
#include "image.h"
#include "isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    isa_image_t img;
    char err[256];
    if (isa_image_parse(data, size, &img, err, sizeof err) != 0)
        return 0;
    for (uint32_t i = 0; i < img.text_words; i++) {
        isa_bundle_t b;
        size_t used;
        if (isa_decode_bundle(img.text + i, img.text_words - i, &b, &used) == ISA_OK) {
            char text[512];
            dis_bundle_text(&b, &img, text, sizeof text);
        }
    }
    isa_image_symbol_before(&img, img.entry);
    isa_image_line(&img, img.entry);
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull != NULL) {
        dis_image(&img, devnull, DIS_RAW | DIS_LINES);
        fclose(devnull);
    }
    isa_image_free(&img);
    return 0;
}
