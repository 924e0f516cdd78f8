/* Links (coa_link.c): the words and control messages between neighbours, one word per link per turn. */
#ifndef COA_LINK_H
#define COA_LINK_H

#include "coa_channel.h"

/* Whether no channel could go out on any link, now or later, before a credit arrives: every channel routed
 * to a link and holding a word lacks a credit or is not yet routed. */
bool coa_links_stuck(const coa_t *c);

#endif
