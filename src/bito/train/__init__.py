"""Training bito's learned players (needs the ``train`` extra: ``pip install 'bito[train]'``).

PyTorch is imported only under this package; the bots it produces play with numpy alone
(:mod:`bito.bots.learned`).
"""
