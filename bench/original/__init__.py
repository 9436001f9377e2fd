"""The original STGY backend (Node/Express, public estraier/stgy) set up beside ours on
the same generated community, for the side-by-side benchmark (bench/README.md,
"Side by side with the original"). None of the original's code is kept in this
repository: `setup` exports it from a git repository at run time."""
