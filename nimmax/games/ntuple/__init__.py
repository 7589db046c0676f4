"""2048's learned evaluation: an n-tuple network (`network`), its file (`store`) and which one
plays (`networks`: the one `nimmax train 2048` keeps, else the one nimmax ships, in `data/`).
Training it is `nimmax.learn`'s work."""
