"""Shared test set-up: hypothesis runs derandomised so every run checks the same cases."""

from hypothesis import settings

settings.register_profile("nimmax", derandomize=True, deadline=None, max_examples=60)
settings.load_profile("nimmax")
