"""GRACE foundation: settings, schemas, state, runtime context, providers, tools, retrieval."""

__all__: list[str] = []
