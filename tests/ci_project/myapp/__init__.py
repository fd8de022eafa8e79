"""The sample project tests/e2e/test_wheel.py runs examples/ci/github-actions.yml's steps on: a
user's application, outside layerbench."""
