"""Reads and checks that are not a selector of one noun: the `access_*` permission checks
(`access`), the cache marks open pages poll (`live_marks`), mentions by nickname
(`mentions`) and the Markdown renderer that links them and sizes embedded media
(`markdown`). The layer's other packages: `sns/selectors/`, `sns/search/`,
`sns/linksnippets/`, `sns/media/` and `sns/auth/` (docs/architecture.md §2)."""
