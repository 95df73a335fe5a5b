# Print the software CRC-32 and binascii's of each file argument.
import sys

from tactictoe import crc32
from tactictoe import table

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    print("%08x %08x" % (crc32.crc32(data), table.crc32(data) & 0xFFFFFFFF))
