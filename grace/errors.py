"""Errors a command reports to the user as one message (no traceback), importable cheaply.

The CLI catches these around every command; they live here, apart from the modules that
raise them, so that catching them costs ``grace --help`` no import.
"""

from __future__ import annotations

__all__ = [
    "InvalidCollectionError",
    "MissingExtraError",
    "ModelSetupError",
    "ModelUnavailableError",
    "ModelUnreachableError",
    "SettingsError",
    "StorageError",
    "StoreBusyError",
    "ThreadBusyError",
]


class SettingsError(ValueError):
    """The settings cannot be loaded: the message names the file or variable and the field."""


class StoreBusyError(RuntimeError):
    """Another process holds a collection of the embedded store longer than we may wait.

    The message says which process (pid and command line) and what to do.
    """


class InvalidCollectionError(ValueError):
    """A collection name outside the allowed pattern (:mod:`grace.storage.names`)."""


class StorageError(RuntimeError):
    """A file under the data directory cannot be read or written (read-only, full, damaged).

    The message names the file and says what to do (see :func:`grace.storage.faults.explain`).
    """


class ThreadBusyError(RuntimeError):
    """Another run (process) is working on this thread; the message names it."""


class MissingExtraError(ImportError):
    """A command needs an optional extra that is not installed; the message names the install.

    ``grace eval`` and ``grace calibrate`` need the ``eval`` extra (scikit-learn, matplotlib,
    mapie), which ``grace ask`` never loads.
    """


class ModelSetupError(ValueError):
    """The configured model cannot be built: unknown spec, package not installed, no API key.

    The message names the ``pip install`` to run or the variable to set.
    """


class ModelUnavailableError(RuntimeError):
    """The model's server does not answer (e.g. a local Ollama that is not running)."""


class ModelUnreachableError(ModelUnavailableError):
    """A run's model call could not connect (refused, no route, no name resolution).

    Raised out of the graph after the client's own retries (``models.max_retries``): the
    thread keeps its last checkpoint, and ``grace resume THREAD`` runs it on once the model
    answers. The message names the provider, the model and the connection failure.
    """

    def __init__(self, message: str, *, provider: str, model: str) -> None:
        """One line naming ``provider``, ``model`` and the failure."""
        super().__init__(message)
        self.provider = provider
        self.model = model
