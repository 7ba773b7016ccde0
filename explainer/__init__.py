"""Grid, candidate state, solver, explanations, step loop and CLI."""


def __getattr__(name: str):
    """``explainer.solve`` (issue 7), imported on first use so the package stays light."""
    if name == "solve":
        from .solvers import solve

        return solve
    raise AttributeError(f"module 'explainer' has no attribute {name!r}")
