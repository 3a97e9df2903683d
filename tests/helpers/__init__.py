"""What the test modules share: reference searches, generated game trees, playouts, the
exactness harness, run-folder readers. Importable as ``helpers`` (pyproject's pytest
``pythonpath`` holds ``tests``)."""
