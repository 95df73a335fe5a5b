"""Test double for CircuitPython's ``board``: the Pico's GP pins."""

from microcontroller import Pin

for _i in range(29):
    globals()["GP%d" % _i] = Pin("GP%d" % _i)
