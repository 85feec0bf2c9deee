"""The one way GRACE shows retrieved text to a model: ``<passage>`` elements, escaped.

Every prompt that quotes passages (the reader's, the judge's, the evaluator's) builds them
here, with one escaping rule: the body is HTML-escaped (``&``, ``<``, ``>``) so that no
passage can close its element or open another one, and attribute values are escaped with
their quotes. The text is data, never instructions.
"""

from __future__ import annotations

import html

__all__ = ["escape_text", "passage_element"]


def escape_text(text: str) -> str:
    """``text`` escaped for an element body (``&``, ``<``, ``>``)."""
    return html.escape(text, quote=False)


def passage_element(body: str, **attributes: str) -> str:
    """``body`` as a ``<passage>`` element with ``attributes`` (``id``, ``title`` …), escaped."""
    attrs = "".join(
        f' {name}="{html.escape(value, quote=True)}"' for name, value in attributes.items()
    )
    return f"<passage{attrs}>\n{escape_text(body)}\n</passage>"
