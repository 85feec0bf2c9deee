"""The model-backed provider: any LangChain chat model (Gemini by default).

Its planner (:mod:`.planner`), reader (:mod:`.reader`), answer judge (:mod:`.judge`) and
evaluator (:mod:`.evaluator`), and the plumbing every model call goes through: structured
output with its fallbacks (:mod:`.structured`) and bounded, streamed replies
(:mod:`.streaming`). Import from the modules: this package loads none of them, so the
offline path never loads model code.
"""
