/* Headers (coa_header.c): street signs decoded, channels allocated, pathways built and torn down. */
#ifndef COA_HEADER_H
#define COA_HEADER_H

#include "coa_channel.h"

/* Whether coa_headers would do nothing, now or later, before a channel is freed: every header found no free
 * channel, and no tagged word waits at a sink. */
bool coa_headers_stuck(const coa_t *c);

#endif
