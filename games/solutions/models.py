from django.db import models


class SolverJob(models.Model):
    """The search of one finished game's deal, recorded before a worker is asked for it
    (``services.request_solve``), so that a job a worker lost is found again and redone
    (``services.sweep``), and what it found is kept: the verdict, what it cost, and the
    winning line as the list of moves from the deal's first state."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for a worker"
        RUNNING = "running", "Searching"
        WON = "won", "This deal could be won"
        LOST = "lost", "No line wins this deal"
        UNDECIDED = "undecided", "Not settled within the budget"
        FAILED = "failed", "The search could not be run"

    OPEN = (Status.PENDING, Status.RUNNING)

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True,
                                related_name="solver_job")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    nodes = models.PositiveBigIntegerField(default=0, help_text="Positions the search generated.")
    seconds = models.FloatField(default=0.0, help_text="CPU seconds the search took.")
    limit = models.CharField(max_length=10, blank=True, help_text='What stopped an undecided search: "nodes" or "time".')
    max_nodes = models.PositiveBigIntegerField(help_text="The node budget the search was given.")
    max_seconds = models.FloatField(help_text="The CPU time budget the search was given.")
    line = models.JSONField(null=True, blank=True, help_text="The winning line: moves from the deal's first state.")
    left_at = models.PositiveIntegerField(
        null=True, blank=True,
        help_text="The number of the player's first move after which no known winning line went on from their position.")
    left_proved = models.BooleanField(
        default=False, help_text="Whether the search proved that no line wins from the position after that move.")
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Written with each report of progress: a running job whose heartbeat is old was lost
    # with its worker, and the sweep hands it out again.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="solverjob_open")]

    def __str__(self) -> str:
        return f"solver job of game {self.game_id} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN
