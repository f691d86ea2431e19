"""The error-handling family (TFH401-TFH403): the shared model is ``model.py`` (and ``text.py`` for TFH401)."""
