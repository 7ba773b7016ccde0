"""Grid, candidate state, solver, explanations, step loop and CLI."""
