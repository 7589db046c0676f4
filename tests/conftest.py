"""Shared test set-up: hypothesis runs derandomised so every run checks the same cases, the
CLI's consoles are made as if piped, and the cache folder is a temporary one for the whole run."""

import atexit
import contextlib
import io
import os
import shutil
import tempfile

from hypothesis import settings

settings.register_profile("nimmax", derandomize=True, deadline=None, max_examples=60)
settings.load_profile("nimmax")

# nimmax.cli's consoles choose colour once, when made at import, from the stream they will write to.
# Made here, before any test, with stdout and stderr not a terminal, they write plain text to
# whatever streams cli_helpers.nimmax_in_process redirects them to, even under `pytest -s`. Their
# width is the harness's (tests/cli_helpers.py), whatever runs the tests (a terminal, a pipe, a
# pytest-xdist worker), so output wraps alike everywhere.
os.environ["COLUMNS"] = "120"
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    import nimmax.cli  # noqa: F401

# What nimmax keeps in the user's cache (Kalah's endgame books) goes to a folder of this run, shared
# by the CLI's subprocesses (they inherit the variable), never to the real home's cache.
os.environ["NIMMAX_CACHE_DIR"] = CACHE = tempfile.mkdtemp(prefix="nimmax-cache-")
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)

# Games a test leaves unfinished are autosaved (nimmax.saves) to a folder of this run, never the
# user's.
os.environ["NIMMAX_DATA_DIR"] = DATA = tempfile.mkdtemp(prefix="nimmax-data-")
atexit.register(shutil.rmtree, DATA, ignore_errors=True)
