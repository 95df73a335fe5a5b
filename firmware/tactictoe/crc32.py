"""CRC-32 in plain Python, for ports built without ``binascii.crc32``
(``table`` imports it only then, so it costs no RAM elsewhere)."""

def crc32(data, crc=0):
    """CRC-32 (zlib polynomial) for ports built without binascii.crc32.

    Nibble-table version kept in two 16-bit halves, so every intermediate is
    a small int even on 32-bit ports (no big-int allocation per byte)."""
    hi = ((crc >> 16) & 0xFFFF) ^ 0xFFFF
    lo = (crc & 0xFFFF) ^ 0xFFFF
    for b in data:
        lo ^= b
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ _CRC_LO[i]
        hi = (hi >> 4) ^ _CRC_HI[i]
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ _CRC_LO[i]
        hi = (hi >> 4) ^ _CRC_HI[i]
    return ((hi ^ 0xFFFF) << 16) | (lo ^ 0xFFFF)


# CRC-32 of each nibble value, split into high and low 16 bits.
_CRC_HI = (
    0x0000, 0x1DB7, 0x3B6E, 0x26D9, 0x76DC, 0x6B6B, 0x4DB2, 0x5005,
    0xEDB8, 0xF00F, 0xD6D6, 0xCB61, 0x9B64, 0x86D3, 0xA00A, 0xBDBD,
)
_CRC_LO = (
    0x0000, 0x1064, 0x20C8, 0x30AC, 0x4190, 0x51F4, 0x6158, 0x713C,
    0x8320, 0x9344, 0xA3E8, 0xB38C, 0xC2B0, 0xD2D4, 0xE278, 0xF21C,
)
