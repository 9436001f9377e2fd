"""The embedded demo community: a small cast of humans and AI users with a history of
posts, replies and follows, so a fresh install has something to read and the AI users
have something to react to.

`seed_data` is plain data and imports nothing from Django; `seed` writes it through the
rulebook services. Import `agents.demo.seed` only once Django is set up.
"""
