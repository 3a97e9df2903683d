"""What every experiment program shares: game loading, seeded positions, measuring (timed
searches and games, OpenSpiel's baseline), tables, one error type, flags, parsing,
results folders and the task runner. Import the submodules directly."""
