"""The script ``grace ui`` has Streamlit run: GRACE's pages behind one navigation.

Each page reads the same data directory, settings, threads and collections as the CLI.
"""

from __future__ import annotations

import streamlit as st

from graph.ui.chat import chat_page
from graph.ui.eval_page import eval_page
from graph.ui.library_page import library_page


def main() -> None:
    """Set the page up and run the one the address names."""
    st.set_page_config(page_title="GRACE", page_icon=":material/forum:", layout="wide")
    pages = [
        st.Page(chat_page, title="Ask", icon=":material/forum:", url_path="ask", default=True),
        st.Page(library_page, title="Library", icon=":material/library_books:",
                url_path="library"),
        st.Page(eval_page, title="Evaluation", icon=":material/monitoring:", url_path="evaluation"),
    ]  # fmt: skip
    st.navigation(pages).run()


main()
