"""Test double for CircuitPython's ``storage``: the CIRCUITPY drive is
read-only to code, as it is without a boot.py that remounts it."""


class _Drive:
    readonly = True


def getmount(path):
    return _Drive()
