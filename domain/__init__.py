"""The kernel every layer shares: standard library only, and nothing else from the project.

- ``records``: the typed records passed between stages and the warehouse;
- ``enums``: the closed sets (sources, statuses, severities, bases, origins, alert kinds ...);
- ``errors``: the pipeline's errors, and the one classification of HTTP statuses;
- ``metrics``: the one reader of ``metrics.csv`` (package data beside it);
- ``precision``: the one precision/agreement rule of printed figures.
"""
