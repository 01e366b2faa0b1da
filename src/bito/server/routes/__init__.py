"""The web app's routes, one module per concern, each with an ``add(app, ...)`` that gets
only what its routes use: pages, tables, records (and replays, reviews), the websocket,
accounts, seats that follow their owner, and players in public. The health and metrics
routes are :mod:`bito.server.health`'s."""
