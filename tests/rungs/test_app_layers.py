"""Each framework application's rungs are described as its own layers (the ladder prints the
text beside each rung): the Django ORM's row, not the bare application's SQLAlchemy one."""

from layerbench.ladder.ladder_progress import layer_in
from layerbench.rungs.applications import APPLICATIONS, FRAMEWORK_RUNGS
from layerbench.rungs.definitions import ORM, TEMPLATE


def test_a_framework_rung_names_its_framework_layer() -> None:
    assert layer_in("bare", ORM) == ORM.layer == "the row through the SQLAlchemy ORM"
    assert layer_in("django", ORM) == "the row through the Django ORM"
    assert "Chameleon" in layer_in("pyramid", TEMPLATE)
    assert "ZODB" in layer_in("zope", ORM)
    assert layer_in("no-such-app", ORM) == ORM.layer


def test_every_framework_describes_each_rung_it_answers_and_no_other() -> None:
    for app in ("django", "flask", "pyramid", "zope", "rails"):
        application = APPLICATIONS[app]
        assert application.answers is not None
        described = {rung for rung, _ in application.layers}
        # The framework rungs it answers (the upstream rung's wait is no framework's layer).
        assert described == application.answers & FRAMEWORK_RUNGS, app
