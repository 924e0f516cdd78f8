        .word 1 / (2 - 2)
