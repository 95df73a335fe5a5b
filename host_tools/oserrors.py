"""OSErrors as the one-line errors a user reads: the reason the system
gives (``No such file or directory``), not a traceback."""

from contextlib import contextmanager


@contextmanager
def reported(error, what):
    """Raise ``error("WHAT: reason")`` for an OSError inside the block.

    :param error: the exception class the caller's command reports
        (``UserError``, ``SimError``, ``FlashError``...).
    :param what: what was being done, e.g. ``"cannot write out.tbl"``.
    """
    try:
        yield
    except OSError as e:
        raise error("%s: %s" % (what, e.strerror or e)) from None
