"""What a request costs its whole server: instructions per request of every process, counted
by callgrind, and system calls per request, counted by strace, by the role each process plays."""
