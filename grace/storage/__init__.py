"""Storage: locks, faults, names, the checkpoint serializer and a thread's older turns.

File locks (:mod:`.file_lock`), one writer per thread (:mod:`.thread_lock`), one-line storage
errors (:mod:`.faults`), collection names (:mod:`.names`), the msgpack allow-list
(:mod:`.serde`), a long thread's older turns in LangGraph's store (:mod:`.transcript`) and
files derived from installed packages' data in GRACE's cache directory (:mod:`.cache`).
"""
