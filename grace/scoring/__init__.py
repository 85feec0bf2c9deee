"""What decides a run's level, beside the confidence math in :mod:`confidence`.

The run's features for the learned model (:mod:`.features`), the learned decision and the
thresholds in force (:mod:`.decision`), the answer's shape (:mod:`.answer_shape`) and the SILENT
sentence check (:mod:`.sentence_check`).
"""
