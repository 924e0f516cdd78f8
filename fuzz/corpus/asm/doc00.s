# labels, comments and a constant
start:  li   a0, 10        # count down from 10
        li   a1, 0         // running sum
again:  add  a1, a1, a0
        loop a0, again
done:   halt
