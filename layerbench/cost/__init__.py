"""Cost per request in instructions, counted by valgrind's callgrind: the application called
in-process under callgrind, only its requests collected (``layerbench cost``, ``smoke
--measure instructions``, ``ladder --instructions``)."""
