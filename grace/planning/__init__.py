"""Planning: step roles, the planners' shared blocks, plan validation, follow-up questions.

:mod:`.roles` (what a plan action is for: search, answer, ask), :mod:`.blocks` (the template
plan, the complexity estimate), :mod:`.validation` (a plan any planner wrote, checked and
repaired) and :mod:`.followup` (a question that leans on the conversation made standalone).
"""
