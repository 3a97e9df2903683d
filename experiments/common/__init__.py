"""What every experiment program shares: game loading, seeded positions, flags, parsing,
results folders and the task runner. Import the submodules directly."""
