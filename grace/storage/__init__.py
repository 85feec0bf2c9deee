"""Storage: locks, faults, names, the checkpoint serializer and a thread's older turns.

File locks (:mod:`.file_lock`), one writer per thread (:mod:`.thread_lock`), one-line storage
errors (:mod:`.faults`), collection names (:mod:`.names`), the msgpack allow-list
(:mod:`.serde`) and a long thread's older turns in LangGraph's store (:mod:`.transcript`).
"""
