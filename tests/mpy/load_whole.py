# Negative control for the heap budget: reading a whole table into RAM.
import sys

with open(sys.argv[1], "rb") as f:
    data = f.read()
print("loaded", len(data))
