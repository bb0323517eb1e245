# The C-level contract of seqsolve._loop: numpy's PCG64 streams seeded in C from
# SeedSequence keys, and whole games between built-in bots played without the GIL.

from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport u128


ctypedef struct Pcg64:
    # the state of numpy's PCG64 (pcg64_state: the 128-bit LCG, then the half of the
    # last 64-bit output that next_uint32 has not handed out yet)
    u128 state
    u128 inc
    int has_uint32
    uint32_t uinteger


ctypedef struct Stream:
    # a bitgen_t that the choosers and the core draw from, over its own Pcg64
    Pcg64 pcg
    bitgen_t bg


cdef void stream_seed(Stream* s, const uint32_t* entropy, int n) noexcept nogil
cdef int key_words(uint32_t* out, int n, uint64_t part) noexcept nogil
