"""The solver on the site: once a solo deal (or a Lovers' Discourse pair's, both hands then
known) is finished, a worker searches the whole deal (``games.solver``) and the game's
players may see whether it could have been won, walk the winning line found step by step,
and read where their own line left it (``services.verdict_for``).

    models.SolverJob   what must be searched and what the search found, one row a game
    services           asking for a search, running one (the worker's part), the verdict
    tasks              the Celery task and the sweep that redoes jobs a worker lost
    receivers          a finished game asks for its search, in the transaction that ended it
    views              the solution page: verdict, progress, the winning line's replay
"""
