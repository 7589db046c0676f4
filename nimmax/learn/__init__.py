"""Learned evaluations: 2048's n-tuple network (`ntuple`), its file (`store`), which one plays
(`networks`), and TD self-play to train it (`train`, `session`; numpy, the `learn` extra)."""
