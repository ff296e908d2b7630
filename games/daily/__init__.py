"""The daily deal (issue 41): each UTC day, one deal per solo game that everyone plays.

``models``: the day's ``Deal`` per game (its seed, its variation, the solver's verdict once
the day is over) and each account's ``Play`` of it (one, by a unique constraint).
``services``: the seed scheme, starting a play, the leaderboard, the shared readings,
streaks (``streaks(user)``, for the profile page too).  ``receivers``: a finished game
records its result in its play.  ``tasks``: the solver, in the worker.
"""
