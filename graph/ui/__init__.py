"""GRACE's own page (``grace ui``): ask, review pauses, manage the library, evaluate.

A Streamlit app over the same :class:`~graph.app.GraceApp`, :class:`~grace.library.Library`
and evaluation the CLI uses — same data directory, settings, threads and collections — so a
thread started in one is shown and resumable in the other (docs/ui.md).

:mod:`graph.ui.server` starts it and imports no Streamlit; :mod:`graph.ui.session` holds the
page's logic without Streamlit (tested alone); :mod:`graph.ui.page` is the script Streamlit
runs, with one module per page (:mod:`graph.ui.chat`, :mod:`graph.ui.library_page`,
:mod:`graph.ui.eval_page`).
"""
