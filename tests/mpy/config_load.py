# config.load on every file of a folder, as a board's power-on calls it.
# Usage: config_load.py DIR PLATFORM
# Prints "NAME used|default PROBLEM" per file; a load that raises ends the
# script with its traceback instead.
import gc
import os
import sys

from tactictoe import config

folder, platform = sys.argv[1], sys.argv[2]
default = config.validate(config.default_for(platform))
for name in sorted(os.listdir(folder)):
    gc.collect()  # each load is a power-on of its own
    cfg, problem = config.load(folder + "/" + name, platform)
    if problem is None:
        assert sorted(cfg) == sorted(default), name  # a whole config
        print(name, "used", "-")
    else:
        assert cfg == default, name
        print(name, "default", problem)
