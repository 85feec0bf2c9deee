"""Planning: the planners' shared blocks, plan validation, and follow-up questions.

:mod:`.blocks` (the template plan, the complexity estimate), :mod:`.validation` (a plan any
planner wrote, checked and repaired) and :mod:`.followup` (a question that leans on the
conversation made standalone).
"""
