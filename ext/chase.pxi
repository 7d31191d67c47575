# Chase detection (placeholder until the AXF rules are implemented).

cdef uint32_t chased_by_last_move(Pos* p) noexcept nogil:
    return 0
