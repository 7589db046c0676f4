"""What the commands compute, as values the views draw: solve, analyze, explain, bench, tree,
ladder, catalog and the engine line protocol. Each module is one command's core; the CLI parses
and the views (`nimmax.ui`) draw."""
