"""What a run tells the person.

Events on LangGraph's custom stream (:mod:`.events`), model failures as the run's notes
(:mod:`.models`), and the notes a final answer carries (:mod:`.runs`).
"""
