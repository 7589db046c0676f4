"""Training 2048's n-tuple network (`nimmax.games.ntuple`) by TD self-play: `train` (one
process's learning), `session` (`--jobs N` processes sharing one table, checkpoints); numpy, the
`learn` extra."""
