/* Headers (coa_header.c): street signs decoded, channels allocated, pathways built and torn down. */
#ifndef COA_HEADER_H
#define COA_HEADER_H

#include "coa_channel.h"

void coa_headers(coa_t *c, uint64_t now);

#endif
