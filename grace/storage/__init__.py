"""Storage: locks, faults, names and the checkpoint serializer.

File locks (:mod:`.file_lock`), one writer per thread (:mod:`.thread_lock`), one-line storage
errors (:mod:`.faults`), collection names (:mod:`.names`) and the msgpack allow-list
(:mod:`.serde`).
"""
