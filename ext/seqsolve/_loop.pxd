# The C-level contract of seqsolve._loop: numpy's PCG64 streams seeded in C from
# SeedSequence keys, and whole games between built-in bots played without the GIL.

from libc.stdint cimport uint32_t, uint64_t
from numpy.random cimport bitgen_t
from seqsolve._core cimport u128, Pcg64, Stream  # numpy's PCG64 streams, seeded here


cdef void stream_seed(Stream* s, const uint32_t* entropy, int n) noexcept nogil
cdef int key_words(uint32_t* out, int n, uint64_t part) noexcept nogil
