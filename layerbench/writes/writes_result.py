"""What ``layerbench writes`` measured: every trial, and per store and number of writers the
median commits per second with its spread over the repeats, and of its representative trial
(:mod:`layerbench.stats.median`: the one nearest that median, of an even number the slower of
the middle two) the p99 commit latency and what the writers (the client role) and the
database cost in CPU and memory."""

from dataclasses import dataclass, field

from layerbench.stats.median import RATE_RULE, representative_index
from layerbench.stats.spread import Spread
from layerbench.typed_documents import JsonObject

WRITES_DOCUMENT_VERSION = 1


@dataclass(frozen=True)
class WritesTrial:
    store: str
    writers: int
    repeat: int
    # The objects in the database before the trial (grown, plus earlier trials' commits).
    objects_before: int
    commits: int
    elapsed_s: float
    p50_latency_us: float
    p99_latency_us: float
    conflicts: int
    # Role (client: the writers; database: its server) → CPU % of a core over the trial, PSS.
    cpu_percent: dict[str, float]
    pss_bytes: dict[str, int]

    @property
    def commits_per_s(self) -> float:
        return self.commits / self.elapsed_s if self.elapsed_s > 0 else 0.0


@dataclass(frozen=True)
class WritesRow:
    store: str
    writers: int
    commits_per_s: Spread
    p99_latency_us: float
    cpu_percent: dict[str, float]
    pss_bytes: dict[str, int]
    # The repeat whose p99, CPU and memory these are.
    representative_repeat: int

    @classmethod
    def of(cls, trials: list[WritesTrial]) -> "WritesRow":
        first = trials[0]
        rates = [trial.commits_per_s for trial in trials]
        shown = trials[representative_index(rates)]
        return cls(
            first.store,
            first.writers,
            Spread.of(rates),
            shown.p99_latency_us,
            shown.cpu_percent,
            shown.pss_bytes,
            shown.repeat,
        )


@dataclass
class WritesResult:
    stores: tuple[str, ...]
    writers: tuple[int, ...]
    objects: int
    commits: int
    repeats: int
    mariadb_profile: str
    trials: list[WritesTrial] = field(default_factory=list)
    # Store → why it was not measured (a package to install, its error).
    not_measured: dict[str, str] = field(default_factory=dict)
    # The machine the run was measured on (lab/conditions.py; CPUs not pinned).
    conditions: JsonObject = field(default_factory=dict)
    started_at: str = ""
    finished_at: str | None = None
    # Stopped by Ctrl-C: the trials are those measured by then.
    interrupted: bool = False

    def rows(self) -> list[WritesRow]:
        return [
            WritesRow.of(trials)
            for store in self.stores
            for writers in self.writers
            if (trials := [t for t in self.trials if (t.store, t.writers) == (store, writers)])
        ]

    def to_dict(self) -> JsonObject:
        """The JSON document (``--json``): every trial and every row."""
        return {
            "version": WRITES_DOCUMENT_VERSION,
            "kind": "writes",
            "options": {
                "stores": list(self.stores),
                "writers": list(self.writers),
                "objects": self.objects,
                "commits": self.commits,
                "repeats": self.repeats,
                "mariadb_profile": self.mariadb_profile,
            },
            "conditions": self.conditions,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "interrupted": self.interrupted,
            "not_measured": self.not_measured,
            "figures": {
                "commits_per_s": RATE_RULE,
                "representative_repeat": "the repeat whose p99 latency, CPU and memory the row "
                "shows: the one nearest the median commits/s, of an even number the slower of "
                "the middle two",
            },
            "rows": [
                {
                    "store": row.store,
                    "writers": row.writers,
                    "commits_per_s": row.commits_per_s.median,
                    "commits_per_s_cv": row.commits_per_s.cv,
                    "commits_per_s_ci95": [row.commits_per_s.ci_low, row.commits_per_s.ci_high],
                    "p99_latency_us": row.p99_latency_us,
                    "cpu_percent": row.cpu_percent,
                    "pss_bytes": row.pss_bytes,
                    "representative_repeat": row.representative_repeat,
                }
                for row in self.rows()
            ],
            "trials": [
                {**vars(trial), "commits_per_s": trial.commits_per_s} for trial in self.trials
            ],
        }
