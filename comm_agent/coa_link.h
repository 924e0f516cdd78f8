/* Links (coa_link.c): the words and control messages between neighbours, one word per link per turn. */
#ifndef COA_LINK_H
#define COA_LINK_H

#include "coa_channel.h"

void coa_links_schedule(coa_t *c, uint64_t now);

#endif
