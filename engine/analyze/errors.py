"""The one error type of the analysis tool: a problem the user can fix, told in one line."""


class AnalyzeError(Exception):
    """Bad input (FEN, move, file, option) or an engine that cannot be used. ``str(error)`` is one line,
    printed as ``jiangjun analyze: <message>`` before exiting with status 2."""
