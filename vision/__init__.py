"""Screenshot → board, one module per game (``vision/<game>.py``) plus shared stages.

Each game module exposes ``parse(image, profile=None) -> Parse`` taking a BGR numpy image
and raising :class:`vision.common.NoBoardFound` when the picture is not that game or the
reading is not sure. Vision knows nothing of solving.
"""
