"""Presentation: Rich views and prompt_toolkit input. The core never imports this package."""
