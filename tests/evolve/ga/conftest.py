"""One embedded Ray (2 CPUs) for every test of the GA that compares Ray with the serial run:
starting Ray costs seconds, so the files share it instead of starting one each."""

import pytest


@pytest.fixture(scope="session")
def ray_session():
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # left by a test elsewhere: start from a known cluster
        ray.shutdown()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
