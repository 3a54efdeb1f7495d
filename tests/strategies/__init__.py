"""How the test suite draws its data, one module per family: hypothesis strategies
(``from strategies.ranking import reference_collections``) and seeded generators of random
cases (``from strategies.clustering import random_pairs``). A strategy used by one test file
only lives here too, so that the next test of the family finds it."""
