"""Ray with several nodes on this machine (`ray.cluster_utils.Cluster`): --workers follows
the cluster's CPUs, and a node removed mid-run costs only its chunks.

Every node runs here, so what a cluster of machines adds (a network between them, files
on the driver's disk only, another Python on a node) is not tested. Without Ray these
tests are skipped, except under CI.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sanssim.runformat import MANIFEST
from sanssim.runner import batch
from sanssim.runner.executor import default_workers
from sanssim.runner.files import read_json
from tests.test_ray import assert_same_run, run, sanssim

NODES = 3  # of one CPU each: more CPUs than this machine's cores when it has 2


@pytest.fixture(scope="module")
def cluster():
    try:
        import ray
        from ray.cluster_utils import Cluster
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("Ray is missing under CI: install the extra (make test EXTRAS=test,ray)")
        pytest.skip("Ray is not installed (pip install 'sanssim[ray]')")
    nodes = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    for _ in range(NODES - 1):
        nodes.add_node(num_cpus=1)
    nodes.wait_for_nodes()
    ray.init(address=nodes.address, log_to_driver=False, configure_logging=False)
    yield nodes
    ray.shutdown()
    nodes.shutdown()


def test_workers_are_capped_at_the_cluster_s_cpus_not_this_machine_s(cluster, tmp_path):
    args = ["--players", "2", "--games", "4", "-s", "random", "--executor", "ray"]
    code, output = sanssim(*args, "--workers", str(NODES + 2), "--out", str(tmp_path / "a"))
    assert code == 0, output
    assert f"--workers {NODES + 2} capped at the {NODES} CPUs of the Ray cluster" in output
    assert f", {NODES} workers)" in output
    if default_workers() < NODES:  # within the cluster, beyond this machine: not capped
        code, output = sanssim(*args, "--workers", str(NODES), "--out", str(tmp_path / "b"))
        assert code == 0 and "sanssim: --workers" not in output, output
        assert f", {NODES} workers)" in output


def test_a_node_removed_mid_run_costs_only_its_chunks(cluster, tmp_path, monkeypatch):
    """A node that is playing a chunk is removed once the first part is written; Ray plays
    the chunk again elsewhere and the run's files equal a local run's."""
    import ray

    write = batch._write_part
    removed: list[str] = []

    def remove_a_busy_node(*args: object) -> int:
        if not removed:
            free = ray._private.state.available_resources_per_node()
            for node in cluster.list_all_nodes()[1:]:  # never the head
                if node.node_id in free and free[node.node_id].get("CPU", 0) < 1:  # busy
                    cluster.remove_node(node)
                    removed.append(node.node_id)
                    break
        return write(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "_write_part", remove_a_busy_node)
    # Python lookahead, so that a chunk lasts long enough (about 0.3 s) to be in flight on
    # the removed node when a part is written: heuristic chunks of 2 games finished first
    args = ["--players", "2", "--games", "40", "--seed", "3", "-s", "lookahead:rollouts=2"]
    args += ["--engine", "python"]
    ray_run = run(tmp_path / "ray", *args, "--executor", "ray", "--chunk-size", "2")
    monkeypatch.undo()
    assert removed, "no node was busy when a part was written"
    assert removed[0] not in {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    local = run(tmp_path / "local", *args, "--workers", "1")
    assert_same_run(ray_run, local)
    assert len(read_json(Path(ray_run) / MANIFEST)["parts"]) == 20
