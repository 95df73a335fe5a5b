"""Stand-in for ``PIL.Image`` (see the package's docstring): a name only."""


class Image:
    """Never made: only named in an annotation."""
