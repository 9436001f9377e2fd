"""Place names to coordinates and back, for /geo/encode and /geo/decode
(docs/api.md, "Geo")."""
