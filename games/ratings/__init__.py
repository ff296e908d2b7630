"""Ratings: each finished game of a rated mode (Warring Planets, Tarot Hallow) updates a
rating per player and per game with openskill's Plackett-Luce model (any number of seats,
ties allowed); computer players are rated like people.  Recorded inside the finishing
move's transaction (``receivers``), once per game (``RatedGame``), so a retried or
replayed finish changes nothing; ``services.rebuild`` recomputes every rating from the
finished games in the order they ended and gives the same numbers.
"""

RATED_GAMES = ("warring_planets", "tarot_hallow")
