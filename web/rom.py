"""The page's board ROM: what runs before ``main.py`` on the virtual board
in the browser, and what stops it.

MicroPython's WebAssembly port runs on the page's own event loop: it has no
``asyncio.run`` (nothing may block the page), so here ``asyncio.run(coro)``
starts ``coro`` as a task and returns, and ``main.run()`` (the firmware's
own, unchanged) returns once the loop is going. Every task is kept so that
``power_off`` can cancel them; the old interpreter's hardware also refuses
service from then on (``simbus.live``).
"""

import json
import sys

import asyncio
import simbus

_tasks = []
_create_task = asyncio.create_task


def _task(coro):
    t = _create_task(coro)
    _tasks.append(t)
    return t


def wire(wiring):
    """Set the board's real wiring from a board.json's text; returns it as
    the firmware's ``config.validate`` reads it (JSON), so that the page
    lays the pixels out as the firmware does."""
    from tactictoe import config

    simbus.wiring = config.validate(json.loads(wiring))
    # The firmware loads its own, as at any power-on.
    del sys.modules["tactictoe.config"], sys.modules["tactictoe"]
    return json.dumps(simbus.wiring)


def power_on():
    """Boot the flash (the current folder) as a board does: ``main.py``'s
    ``run()``, which returns once its loop is running as tasks."""
    asyncio.create_task = _task
    asyncio.run = _task
    from tactictoe import main

    main.run()


def power_off():
    simbus.live = False
    for t in _tasks:
        t.cancel()
    del _tasks[:]
