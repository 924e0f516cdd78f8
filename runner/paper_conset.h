/*
 * The seed's figures for a ConSet phase (seed 004, 4.2.1), on their own: the phase reports of every run
 * print them beside the measured costs, and the models (experiments/model) compute with them. Here, below both,
 * so that the run library does not include the models, which include it.
 */
#ifndef RUNNER_PAPER_CONSET_H
#define RUNNER_PAPER_CONSET_H

/* Seed 004, 4.2.1: ConSet on the 64-cell iWarp. */
enum {
    MODEL_T_SYNC = 352,  /* synchronization, clocks */
    MODEL_T_PHASE = 176, /* phase initialization, clocks */
    MODEL_B = 2,         /* clocks per word sent or received (b) */
    /* The seed's Tables 1-3 all fit 520 clocks per phase, 8 less than t_sync + t_phase. */
    MODEL_PER_PHASE = MODEL_T_SYNC + MODEL_T_PHASE - 8,
};

#endif
