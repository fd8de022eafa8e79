from layerbench.lab.cpu_layout import plan_cpu_layout


def test_two_cpus_put_server_and_client_apart() -> None:
    layout = plan_cpu_layout({0, 1})
    assert layout.server_cpus == {0}
    assert layout.client_cpus == {1}
    assert layout.describe() == "server on CPU 0, client on CPU 1"


def test_client_gets_the_last_cpu_and_the_server_the_rest() -> None:
    layout = plan_cpu_layout({0, 1, 2, 3})
    assert layout.server_cpus == {0, 1, 2}
    assert layout.client_cpus == {3}


def test_one_cpu_or_no_pinning_pins_nothing() -> None:
    assert not plan_cpu_layout({0}).pinned
    assert not plan_cpu_layout({0, 1}, pin=False).pinned
    assert plan_cpu_layout({0}).describe() == "not pinned"
