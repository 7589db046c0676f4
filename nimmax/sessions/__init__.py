"""Sessions: what a person starts and watches, run in the core and handed to the views as values.

`play` is one game at the console without the console (players from their specs, the engines'
moves, take-backs, hints, why, the value the closing banner reads; what `play` plays); `events`
runs a duel, tournament or ladder and tells its view of the progress. The views in `ui/` draw what
these hand them and read the keys: they search nothing, value nothing and run no event.
"""
