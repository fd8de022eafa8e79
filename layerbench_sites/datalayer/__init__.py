"""The reference application's data layer, as the seed designed it: entities with short ids,
an ``ids`` registry and audit history kept by database triggers."""
