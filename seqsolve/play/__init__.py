"""Playing bots against each other: match configs and seeds, running the games,
record files, and the statistics and summaries made of them."""
