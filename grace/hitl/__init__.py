"""Human in the loop: the pause's request, the person's reply, and how a reply resumes a run.

The request is LangChain 1.0's HITL format (:mod:`.request`); replies are read and checked
(:mod:`.reply`, :mod:`.limits`), resolved against the pause (:mod:`.resolve`) and taken from a
chat client's message (:mod:`.chat`).
"""
