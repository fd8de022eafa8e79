"""Child processes and what they need: process groups that never outlive us, their watchdog,
loopback ports, programs on PATH, the account they run as, readiness probes, work directories."""
