"""Players meeting players: a public page per player (``/players/<name>/``: their record,
ratings with their history, recent games, an invitation to play), finding players by name,
and following them (their open challenges then show on My games).

A follow is a relation between two players of the games, not part of who someone is, so it
lives here with the pages that use it rather than in ``sefirot_site.accounts`` (identity,
sign-in, settings); the one setting these pages read, ``User.profile_private``, is the
account's, set on the account page with the others.
"""
