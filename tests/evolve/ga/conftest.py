"""One embedded Ray (2 CPUs) for every test of the GA that compares Ray with the serial run:
starting Ray costs seconds, so the files of this package share it (and stop it when the
package's last test is done) instead of starting one each."""

import pytest


@pytest.fixture(scope="package")
def ray_session():
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # left by a test elsewhere: start from a known cluster
        ray.shutdown()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()
