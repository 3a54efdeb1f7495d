import assay


def test_import_and_version() -> None:
    assert assay.__version__
    qrels, runs = assay.datasets.synthetic(n_queries=5, docs_per_query=10, seed=1)
    res = assay.evaluate(qrels, runs, ["ndcg@10", "map"])
    assert set(res.runs) == set(runs)
    assert 0.0 <= res.aggregate("run1", "ndcg@10") <= 1.0
