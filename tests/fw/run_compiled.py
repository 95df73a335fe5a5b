# Runs a scenario from cross-compiled (.mpy) modules, as a board would hold
# them: usage run_compiled.py FOLDER NAME (MICROPYPATH = the .mpy folder).
import sys

import scenarios

scenarios.main(sys.argv[1], sys.argv[2])
