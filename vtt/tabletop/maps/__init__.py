"""Maps drawn elsewhere, read into scenes: the Universal VTT format
(`uvtt.py`) and its walls joined and simplified (`wall_paths.py`). Plain
Python: no Django, so the bench and the tests read a file without a site."""
