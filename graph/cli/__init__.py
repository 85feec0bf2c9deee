"""The ``grace`` command line.

:mod:`.main` holds the commands (``grace = graph.cli.main:main``); :mod:`.config` builds
``grace config``'s report.
"""
