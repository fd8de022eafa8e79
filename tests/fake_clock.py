"""A clock for tests of code that waits: time passes only when the code sleeps on it (or a
test moves ``now``), so a wait of minutes runs at once and its arithmetic is exact."""


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
