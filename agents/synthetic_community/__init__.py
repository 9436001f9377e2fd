"""A synthetic community at benchmark scale (`manage.py gen_community`): users, AI
users with personalities, posts with vectors, follows and likes, written in bulk. It
lives in agents, not bench, so the app never imports the benchmarks (bench/README.md,
"Communities")."""
